//! herd7's macro files (`.def`, such as the Linux kernel's
//! `linux-kernel.def`) and their expansion (herdtools7's
//! `CBase.subst`): a macro is `NAME(formals) expr` (an expression macro)
//! or `NAME(formals) { body }` (an instruction macro). A call is replaced
//! by the macro's expression or body with each formal replaced by the
//! argument, itself expanded first; an assignment to a formal that
//! stands for `*l` becomes a store to `l` (herd's rule for `WRITE_ONCE`
//! style macros written with `X = V`).

use relaxlab_semantics::ir::Span;

use super::ast::{Expr, Stmt};
use super::c11::{is_c11_rmw, rmw_call};
use super::parse;
use crate::herd::error::{at, HerdError};

/// One macro.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Macro {
    pub name: String,
    pub formals: Vec<String>,
    pub body: MacroBody,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum MacroBody {
    Expr(Expr),
    Stmts(Vec<Stmt>),
}

/// The macros of a file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Macros {
    pub(crate) defs: Vec<Macro>,
}

impl Macros {
    /// Parses a macro file; errors point into `text`.
    pub fn parse(text: &str) -> Result<Macros, Vec<HerdError>> {
        parse::macros(text).map(|defs| Macros { defs })
    }

    /// The names it defines, in file order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.defs.iter().map(|m| m.name.as_str())
    }

    fn expr_macro(&self, name: &str) -> Option<&Macro> {
        self.defs
            .iter()
            .rev()
            .find(|m| m.name == name && matches!(m.body, MacroBody::Expr(_)))
    }

    fn stmt_macro(&self, name: &str) -> Option<&Macro> {
        self.defs
            .iter()
            .rev()
            .find(|m| m.name == name && matches!(m.body, MacroBody::Stmts(_)))
    }
}

/// The deepest nesting of macro calls expanded (a macro calling itself
/// would never end).
const MAX_EXPANSION: usize = 64;

/// Expands the macro calls of a thread body.
pub(crate) fn expand(body: &[Stmt], macros: Option<&Macros>) -> Result<Vec<Stmt>, HerdError> {
    let mut x = Expander { macros, depth: 0 };
    body.iter().map(|s| x.stmt(s, &Frame::default())).collect()
}

/// The arguments of the macro being expanded, by formal.
#[derive(Clone, Debug, Default)]
struct Frame {
    args: Vec<(String, Expr)>,
}

impl Frame {
    fn get(&self, name: &str) -> Option<&Expr> {
        self.args.iter().find(|(f, _)| f == name).map(|(_, e)| e)
    }
}

struct Expander<'m> {
    macros: Option<&'m Macros>,
    depth: usize,
}

fn unknown(name: &str, span: Span, macros: Option<&Macros>, statement: bool) -> HerdError {
    let help = match macros {
        None => format!(
            "`{name}` is a macro: herd7 expands the kernel's primitives with the model's `.def` file; give it with --macros linux-kernel.def, or --conf linux-kernel.cfg"
        ),
        Some(m) => match (statement, m.expr_macro(name).is_some(), m.stmt_macro(name).is_some()) {
            (true, true, _) => format!(
                "`{name}` is an expression macro: use its value (`r = {name}(...)`) or discard it with `(void){name}(...)`, as herd7 requires"
            ),
            (false, _, true) => format!(
                "`{name}` is an instruction macro: call it as a statement, `{name}(...);`"
            ),
            _ => match crate::diag::suggest(name, m.names()) {
                Some(s) => format!("the macro file does not define it; did you mean `{s}`?"),
                None => "the macro file does not define it".to_string(),
            },
        },
    };
    HerdError::UnknownMacro {
        name: name.to_string(),
        span: at(span),
        help,
    }
}

impl Expander<'_> {
    fn enter(&mut self, name: &str, span: Span) -> Result<(), HerdError> {
        self.depth += 1;
        if self.depth > MAX_EXPANSION {
            return Err(HerdError::unsupported(
                format!("the expansion of `{name}`, nested more than {MAX_EXPANSION} deep"),
                span,
                "a macro that calls itself never ends",
            ));
        }
        Ok(())
    }

    fn frame(
        &mut self,
        m: &Macro,
        args: &[Expr],
        frame: &Frame,
        span: Span,
    ) -> Result<Frame, HerdError> {
        if m.formals.len() != args.len() {
            return Err(HerdError::Syntax {
                found: format!("number of arguments ({})", args.len()),
                expected: format!("{} arguments", m.formals.len()),
                span: at(span),
                help: Some(format!(
                    "the macro `{}` takes ({})",
                    m.name,
                    m.formals.join(", ")
                )),
            });
        }
        let mut out = Frame::default();
        for (f, a) in m.formals.iter().zip(args) {
            out.args.push((f.clone(), self.expr(a, frame)?));
        }
        Ok(out)
    }

    fn expr(&mut self, e: &Expr, frame: &Frame) -> Result<Expr, HerdError> {
        let b = |x: &mut Self, e: &Expr| x.expr(e, frame).map(Box::new);
        Ok(match e {
            Expr::Const(..) | Expr::Unsupported(..) => e.clone(),
            Expr::Name(n, _) => match frame.get(n) {
                Some(a) => a.clone(),
                None => e.clone(),
            },
            Expr::Load(a, ann, s) => Expr::Load(b(self, a)?, ann.clone(), *s),
            Expr::Op(op, x, y, s) => Expr::Op(*op, b(self, x)?, b(self, y)?, *s),
            Expr::Xchg(a, v, ann, s) => Expr::Xchg(b(self, a)?, b(self, v)?, ann.clone(), *s),
            Expr::CmpXchg(a, o, n, t, s) => {
                Expr::CmpXchg(b(self, a)?, b(self, o)?, b(self, n)?, t.clone(), *s)
            }
            Expr::AtomicReturn {
                addr,
                op,
                val,
                tags,
                fetch,
                span,
            } => Expr::AtomicReturn {
                addr: b(self, addr)?,
                op: *op,
                val: b(self, val)?,
                tags: tags.clone(),
                fetch: *fetch,
                span: *span,
            },
            Expr::AddUnless(a, v, u, t, s) => {
                Expr::AddUnless(b(self, a)?, b(self, v)?, b(self, u)?, t.clone(), *s)
            }
            Expr::TryLock(a, s) => Expr::TryLock(b(self, a)?, *s),
            Expr::IsLocked(a, s) => Expr::IsLocked(b(self, a)?, *s),
            Expr::Srcu(a, t, s) => Expr::Srcu(b(self, a)?, t.clone(), *s),
            Expr::C11Rmw {
                addr,
                op,
                val,
                mo,
                span,
            } => Expr::C11Rmw {
                addr: b(self, addr)?,
                op: *op,
                val: b(self, val)?,
                mo: mo.clone(),
                span: *span,
            },
            Expr::C11Cas {
                obj,
                expected,
                desired,
                success,
                failure,
                strong,
                span,
            } => Expr::C11Cas {
                obj: b(self, obj)?,
                expected: b(self, expected)?,
                desired: b(self, desired)?,
                success: success.clone(),
                failure: failure.clone(),
                strong: *strong,
                span: *span,
            },
            Expr::Call(f, args, span) => {
                let m = self.macros.and_then(|m| m.expr_macro(f));
                match (m, f.as_str(), args.len()) {
                    (Some(m), _, _) => {
                        let inner = self.frame(m, args, frame, *span)?;
                        self.enter(f, *span)?;
                        let MacroBody::Expr(body) = &m.body else {
                            unreachable!("an expression macro")
                        };
                        let r = self.expr(body, &inner);
                        self.depth -= 1;
                        r?
                    }
                    // herd's legacy built-in.
                    (None, "atomic_add_unless", 3) => Expr::AddUnless(
                        b(self, &args[0])?,
                        b(self, &args[1])?,
                        b(self, &args[2])?,
                        vec![String::new()],
                        *span,
                    ),
                    (None, f, _) if is_c11_rmw(f) => {
                        let args = args
                            .iter()
                            .map(|a| self.expr(a, frame))
                            .collect::<Result<Vec<_>, _>>()?;
                        rmw_call(f, args, *span)?
                    }
                    _ => return Err(unknown(f, *span, self.macros, false)),
                }
            }
        })
    }

    fn stmt(&mut self, s: &Stmt, frame: &Frame) -> Result<Stmt, HerdError> {
        Ok(match s {
            Stmt::Seq(body, sp) => Stmt::Seq(
                body.iter()
                    .map(|x| self.stmt(x, frame))
                    .collect::<Result<_, _>>()?,
                *sp,
            ),
            Stmt::If(c, t, e, sp) => Stmt::If(
                self.expr(c, frame)?,
                Box::new(self.stmt(t, frame)?),
                match e {
                    Some(e) => Some(Box::new(self.stmt(e, frame)?)),
                    None => None,
                },
                *sp,
            ),
            Stmt::While(c, body, sp) => {
                Stmt::While(self.expr(c, frame)?, Box::new(self.stmt(body, frame)?), *sp)
            }
            Stmt::Decl(..) | Stmt::Unsupported(..) => s.clone(),
            Stmt::Fence(..) => s.clone(),
            Stmt::Assign(None, e, sp) => Stmt::Assign(None, self.expr(e, frame)?, *sp),
            Stmt::Assign(Some((r, rs)), e, sp) => {
                let e = self.expr(e, frame)?;
                match frame.get(r) {
                    None => Stmt::Assign(Some((r.clone(), *rs)), e, *sp),
                    Some(Expr::Name(r2, s2)) => Stmt::Assign(Some((r2.clone(), *s2)), e, *sp),
                    Some(Expr::Load(l, ann, _)) => Stmt::Store(l.as_ref().clone(), e, ann.clone(), *sp),
                    Some(other) => {
                        return Err(HerdError::unsupported(
                            format!("an assignment to the macro argument `{r}`"),
                            other.span(),
                            "herd7 refuses it too (\"Bad lvalue\"): the argument must be a register or `*x`",
                        ))
                    }
                }
            }
            Stmt::Store(a, v, ann, sp) => {
                Stmt::Store(self.expr(a, frame)?, self.expr(v, frame)?, ann.clone(), *sp)
            }
            Stmt::Lock(a, sp) => Stmt::Lock(self.expr(a, frame)?, *sp),
            Stmt::Unlock(a, sp) => Stmt::Unlock(self.expr(a, frame)?, *sp),
            Stmt::AtomicOp(a, op, v, t, sp) => Stmt::AtomicOp(
                self.expr(a, frame)?,
                *op,
                self.expr(v, frame)?,
                t.clone(),
                *sp,
            ),
            Stmt::Srcu(a, t, v, sp) => Stmt::Srcu(
                self.expr(a, frame)?,
                t.clone(),
                match v {
                    Some(v) => Some(self.expr(v, frame)?),
                    None => None,
                },
                *sp,
            ),
            Stmt::Call(f, args, span) => {
                let Some(m) = self.macros.and_then(|m| m.stmt_macro(f)) else {
                    return Err(unknown(f, *span, self.macros, true));
                };
                let inner = self.frame(m, args, frame, *span)?;
                self.enter(f, *span)?;
                let MacroBody::Stmts(body) = &m.body else {
                    unreachable!("an instruction macro")
                };
                let r: Result<Vec<Stmt>, HerdError> =
                    body.iter().map(|x| self.stmt(x, &inner)).collect();
                self.depth -= 1;
                // The expansion takes the call's place (its span, for
                // diagnostics and lines).
                Stmt::Seq(relocate(r?, *span), *span)
            }
        })
    }
}

/// Gives every statement of an expansion the span of the call.
fn relocate(body: Vec<Stmt>, span: Span) -> Vec<Stmt> {
    body.into_iter()
        .map(|s| match s {
            Stmt::Seq(b, _) => Stmt::Seq(relocate(b, span), span),
            Stmt::If(c, t, e, _) => Stmt::If(
                c,
                Box::new(relocate(vec![*t], span).remove(0)),
                e.map(|e| Box::new(relocate(vec![*e], span).remove(0))),
                span,
            ),
            Stmt::While(c, b, _) => {
                Stmt::While(c, Box::new(relocate(vec![*b], span).remove(0)), span)
            }
            Stmt::Decl(n, _) => Stmt::Decl(n, span),
            Stmt::Assign(r, e, _) => Stmt::Assign(r, e, span),
            Stmt::Store(a, v, ann, _) => Stmt::Store(a, v, ann, span),
            Stmt::Fence(a, _) => Stmt::Fence(a, span),
            Stmt::Lock(a, _) => Stmt::Lock(a, span),
            Stmt::Unlock(a, _) => Stmt::Unlock(a, span),
            Stmt::AtomicOp(a, op, v, t, _) => Stmt::AtomicOp(a, op, v, t, span),
            Stmt::Srcu(a, t, v, _) => Stmt::Srcu(a, t, v, span),
            Stmt::Call(f, a, _) => Stmt::Call(f, a, span),
            Stmt::Unsupported(w, _) => Stmt::Unsupported(w, span),
        })
        .collect()
}
