//! From a herd C test (macros expanded) to a [`Program`] in herd's C
//! semantics (`relaxlab_semantics::csem`): names resolved to registers and
//! locations, annotations to tag bits, values to integers or addresses.
//!
//! herd's rules: every name in a thread's code is a register; a
//! parameter `int *x` is a register holding the address of location `x`;
//! every other register starts at 0 (or at its init-block value `0:r=v`).
//! Locations are those of the init block, the parameters and the
//! condition; one never given a value starts at 0. A value in the init
//! block or the condition may be a location's name (or `&x`): its address.

use std::sync::Arc;

use relaxlab_semantics::csem::{
    self, AtomicOp, CExpr, CNode, CProgram, CStmt, Returns, Tags, MAX_INTEGER,
};
use relaxlab_semantics::ir::{
    Atomicity, Condition, Instr, Instruction, LocId, Location, Observable, Origin, Program,
    Quantifier, RegId, Span, ThreadCode, ThreadKind, Value as IrValue,
};

mod c11;
mod condition;

use c11::{access_tags, tag_list};
use condition::{lower_prop, observable, prop_locations};

use super::arrays::{array_arithmetic, Arrays};
use super::ast::{AOp, Ann, Expr, Loc, Stmt, Test, Value};
use crate::herd::error::{at, HerdError};

/// What herd's configuration says about the semantics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Semantics {
    /// herd's `lkmmv2` variant.
    pub lkmmv2: bool,
    /// herd's `-unroll`.
    pub unroll: u32,
    /// C11 loads, stores, fences and read-modify-writes are read (a plain
    /// C test's reading for herd's C cat models,
    /// book: herd.md, Unsequenced operands); without it they are refused,
    /// and the test is left to the translation.
    pub c11: bool,
}

impl Default for Semantics {
    fn default() -> Semantics {
        Semantics {
            lkmmv2: false,
            unroll: 2,
            c11: false,
        }
    }
}

/// The tags herd's semantics adds by itself (`lkmmv1` read-modify-writes,
/// `__load{deref}`): always in the table.
const BUILTIN_TAGS: [&str; 4] = ["once", "mb", "noreturn", "rb_dep"];

struct Lowerer<'t> {
    src: &'t str,
    locations: Vec<(String, IrValue, Span)>,
    /// Location initial values that are addresses, resolved once every
    /// location is known.
    pending_init: Vec<(usize, String, Span)>,
    tags: Vec<String>,
    /// [`Semantics::c11`].
    c11: bool,
    /// The arrays of the init block.
    arrays: Arrays,
}

type R<T> = Result<T, HerdError>;

fn semantics_error(what: impl Into<String>, span: Span, label: &str, help: &str) -> HerdError {
    HerdError::Semantics {
        what: what.into(),
        span: at(span),
        label: label.to_string(),
        help: help.to_string(),
    }
}

impl Lowerer<'_> {
    /// The location `name` stands for as a value: an array's name is the
    /// address of its first cell, as in herd's C.
    fn find(&self, name: &str) -> Option<usize> {
        match self.arrays.cells(name) {
            Some(cells) => cells.first().copied(),
            None => self.locations.iter().position(|(n, _, _)| n == name),
        }
    }

    fn location(&mut self, name: &str, span: Span) -> usize {
        if let Some(i) = self.find(name) {
            return i;
        }
        match self.locations.iter().position(|(n, _, _)| n == name) {
            Some(i) => i,
            None => {
                self.locations.push((name.to_string(), 0, span));
                self.locations.len() - 1
            }
        }
    }

    fn tags(&mut self, names: &[String], span: Span) -> R<Tags> {
        let mut bits = 0;
        for n in names {
            let i = match self.tags.iter().position(|t| t == n) {
                Some(i) => i,
                None => {
                    self.tags.push(n.clone());
                    self.tags.len() - 1
                }
            };
            if i >= 64 {
                return Err(semantics_error(
                    "more than 64 different annotations",
                    span,
                    "one too many",
                    "relaxlab keeps an event's annotations in 64 bits",
                ));
            }
            bits |= 1u64 << i;
        }
        Ok(bits)
    }

    fn integer(&self, v: i64, span: Span) -> R<IrValue> {
        if v.unsigned_abs() > MAX_INTEGER as u64 {
            return Err(semantics_error(
                format!("the integer {v} is too large for a test with pointers"),
                span,
                "too large",
                "locations are values here, and integers beyond 2^60 are reserved for them",
            ));
        }
        Ok(v)
    }
}

/// A thread being lowered: its registers.
struct ThreadScope {
    /// herd's number of the thread (`P0`).
    number: usize,
    regs: Vec<String>,
    init: Vec<IrValue>,
    /// The names the thread gives a value: its parameters, its registers
    /// of the init block (`0:r1=x`) and every register it assigns.
    given: Vec<String>,
    /// The parameters that hold an array's address.
    array_params: Vec<String>,
}

impl ThreadScope {
    fn reg(&mut self, name: &str) -> RegId {
        match self.regs.iter().position(|r| r == name) {
            Some(i) => RegId::new(i),
            None => {
                self.regs.push(name.to_string());
                self.init.push(0);
                RegId::new(self.regs.len() - 1)
            }
        }
    }

    /// An address operand: a register never given a value holds 0, which
    /// is no location, so reading or writing through it is refused here
    /// (herd7 gives no result: "Non symbolic location with no initial
    /// write"); any other expression is lowered as it is.
    fn pointer(&mut self, l: &mut Lowerer<'_>, e: &Expr) -> R<CExpr> {
        if let Expr::Name(n, span) = e {
            if !self.given.iter().any(|g| g == n) {
                return Err(HerdError::UnboundPointer {
                    name: n.clone(),
                    thread: self.number,
                    span: at(*span),
                });
            }
        }
        lower_expr(l, self, e)
    }
}

/// The registers `body` assigns, anywhere in it.
fn assigned(body: &[Stmt], out: &mut Vec<String>) {
    for st in body {
        match st {
            Stmt::Seq(b, _) => assigned(b, out),
            Stmt::If(_, t, e, _) => {
                assigned(std::slice::from_ref(&**t), out);
                if let Some(e) = e {
                    assigned(std::slice::from_ref(&**e), out);
                }
            }
            Stmt::While(_, b, _) => assigned(std::slice::from_ref(&**b), out),
            Stmt::Assign(Some((r, _)), _, _) => out.push(r.clone()),
            _ => {}
        }
    }
}

/// Lowers a parsed, expanded test.
pub(crate) fn lower(
    src: &str,
    test: &Test,
    bodies: Vec<Vec<Stmt>>,
    sem: Semantics,
) -> Result<Program, Vec<HerdError>> {
    let mut l = Lowerer {
        src,
        locations: Vec::new(),
        pending_init: Vec::new(),
        tags: BUILTIN_TAGS.iter().map(|t| t.to_string()).collect(),
        c11: sem.c11,
        arrays: Arrays::default(),
    };
    let mut errors = Vec::new();
    for a in &test.arrays {
        if let Err(e) = l.arrays.declare(src, a, &mut l.locations) {
            errors.push(e);
        }
    }
    for (name, value, span) in &test.init {
        let i = l.location(name, *span);
        match value {
            Some(Value::Int(v)) => match l.integer(*v, *span) {
                Ok(v) => l.locations[i].1 = v,
                Err(e) => errors.push(e),
            },
            Some(Value::Addr(x)) => l.pending_init.push((i, x.clone(), *span)),
            None => {}
        }
    }
    for th in &test.threads {
        for p in &th.params {
            l.location(&p.name, p.span);
        }
    }
    // Locations named in the condition and `locations`.
    let mut mem_names = Vec::new();
    for loc in &test.locations {
        if let Loc::Mem(x, s) = loc {
            mem_names.push((x.clone(), *s));
        }
    }
    for (_, p, _) in test.condition.iter() {
        prop_locations(p, &mut mem_names);
    }
    if let Some(f) = &test.filter {
        prop_locations(f, &mut mem_names);
    }
    for (x, s) in mem_names {
        // A cell exists with its array, or is refused with the condition.
        if !x.contains('[') {
            l.location(&x, s);
        }
    }
    for (i, x, span) in std::mem::take(&mut l.pending_init) {
        let target = l.location(&x, span);
        l.locations[i].1 = csem::address(LocId::new(target));
    }
    let nlocs = l.locations.len();
    let mut threads = Vec::new();
    let mut scopes = Vec::new();
    let mut c_threads = Vec::new();
    for (t, (th, body)) in test.threads.iter().zip(bodies).enumerate() {
        let mut given: Vec<String> = th.params.iter().map(|p| p.name.clone()).collect();
        given.extend(
            test.reg_init
                .iter()
                .filter(|(u, ..)| *u == t)
                .map(|(_, r, ..)| r.clone()),
        );
        assigned(&body, &mut given);
        let mut scope = ThreadScope {
            number: th.number,
            regs: Vec::new(),
            init: Vec::new(),
            given,
            array_params: th
                .params
                .iter()
                .filter(|p| l.arrays.cells(&p.name).is_some())
                .map(|p| p.name.clone())
                .collect(),
        };
        for p in &th.params {
            let r = scope.reg(&p.name);
            let loc = l.location(&p.name, p.span);
            scope.init[r.index()] = csem::address(LocId::new(loc));
        }
        let mut nodes = Vec::new();
        for s in &body {
            match lower_stmt(&mut l, &mut scope, s) {
                Ok(Some(n)) => nodes.push(n),
                Ok(None) => {}
                Err(e) => errors.push(e),
            }
        }
        c_threads.push(nodes);
        scopes.push((th, scope));
    }
    if l.locations.len() != nlocs {
        // A location first named in code (a global without a parameter):
        // herd reads names in code as registers, so this does not happen.
        debug_assert!(false, "locations grew while lowering threads");
    }
    for (t, reg, v, span) in &test.reg_init {
        let Some((_, scope)) = scopes.get_mut(*t) else {
            errors.push(HerdError::BadThread {
                name: format!("{t}:{reg}"),
                span: at(*span),
                help: format!(
                    "the threads of this test are numbered 0 to {}",
                    test.threads.len().saturating_sub(1)
                ),
            });
            continue;
        };
        let r = scope.reg(reg);
        scope.init[r.index()] = match v {
            Value::Int(v) => *v,
            Value::Addr(x) => match l.find(x) {
                Some(i) => csem::address(LocId::new(i)),
                None => {
                    errors.push(HerdError::UnknownLocation {
                        name: x.clone(),
                        span: at(*span),
                    });
                    0
                }
            },
        };
    }
    // The condition and `locations`.
    let mut observed = Vec::new();
    let condition = match &test.condition {
        Some((q, p, span)) => match lower_prop(&l, &mut scopes, p, &mut observed) {
            Ok(prop) => Some(Condition {
                quantifier: match *q {
                    "exists" => Quantifier::Exists,
                    "~exists" => Quantifier::NotExists,
                    _ => Quantifier::Forall,
                },
                prop,
                text: src
                    .get(span.start as usize..span.end as usize)
                    .unwrap_or("")
                    .to_string(),
            }),
            Err(e) => {
                errors.push(e);
                None
            }
        },
        None => None,
    };
    // Cells named one by one (printed `y[1]=2`), and whole arrays of
    // `locations` (printed `y={1,2}`).
    let mut alone: Vec<Observable> = observed.clone();
    let mut whole: Vec<usize> = Vec::new();
    for loc in &test.locations {
        if let Loc::Mem(x, _) = loc {
            if let Some(a) = l.arrays.0.iter().position(|(n, _)| n == x) {
                whole.push(a);
                for &c in &l.arrays.0[a].1 {
                    let o = Observable::Loc(LocId::new(c));
                    if !observed.contains(&o) {
                        observed.push(o);
                    }
                }
                continue;
            }
        }
        if let Ok(o) = observable(&l, &mut scopes, loc) {
            alone.push(o);
        }
        match observable(&l, &mut scopes, loc) {
            Ok(o) => {
                if !observed.contains(&o) {
                    observed.push(o);
                }
            }
            Err(e) => errors.push(e),
        }
    }
    let mut filter_obs = Vec::new();
    let filter = match &test.filter {
        Some(f) => match lower_prop(&l, &mut scopes, f, &mut filter_obs) {
            Ok(p) => Some(p),
            Err(e) => {
                errors.push(e);
                None
            }
        },
        None => None,
    };
    // What only the filter names: a column, listed in no herd state.
    let mut filter_only = Vec::new();
    alone.extend(filter_obs.iter().copied());
    for o in filter_obs {
        if !observed.contains(&o) {
            observed.push(o);
            filter_only.push(o);
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut init_regs = Vec::new();
    for (th, scope) in scopes {
        let end = Instruction {
            instr: Instr::End,
            span: th.span,
            line: line_of(src, th.span),
            text: "end".to_string(),
            origin: Origin::Source,
        };
        threads.push(ThreadCode {
            name: format!("P{}", th.number),
            kind: ThreadKind::TopLevel,
            regs: scope.regs,
            code: vec![end],
            span: th.span,
        });
        init_regs.push(scope.init);
    }
    let toplevel = threads.len();
    Ok(Program {
        name: test.name.clone(),
        doc: test.doc.clone(),
        locations: l
            .locations
            .iter()
            .map(|(name, init, span)| Location {
                name: name.clone(),
                init: *init,
                atomicity: Atomicity::Atomic,
                span: *span,
            })
            .collect(),
        threads,
        toplevel,
        condition,
        filter,
        filter_only,
        observed,
        expectations: Vec::new(),
        c: Some(Arc::new(CProgram {
            threads: c_threads,
            init_regs,
            tags: l.tags,
            lkmmv2: sem.lkmmv2,
            unroll: sem.unroll,
        })),
        herd_reading: None,
        arrays: l.arrays.program_arrays(&whole, &alone),
    })
}

/// The 1-based line of a span's start.
fn line_of(src: &str, span: Span) -> u32 {
    src.get(..span.start as usize)
        .map_or(1, |s| s.matches('\n').count() as u32 + 1)
}

fn aop(op: AOp) -> AtomicOp {
    match op {
        AOp::Add => AtomicOp::Add,
        AOp::Sub => AtomicOp::Sub,
        AOp::And => AtomicOp::And,
        AOp::Or => AtomicOp::Or,
        AOp::Xor => AtomicOp::Xor,
        AOp::AndNot => AtomicOp::AndNot,
    }
}

fn lower_expr(l: &mut Lowerer<'_>, s: &mut ThreadScope, e: &Expr) -> R<CExpr> {
    let b = |l: &mut Lowerer<'_>, s: &mut ThreadScope, e: &Expr| lower_expr(l, s, e).map(Box::new);
    Ok(match e {
        Expr::Const(v, span) => CExpr::Const(l.integer(*v, *span)?),
        Expr::Name(n, _) => CExpr::Reg(s.reg(n)),
        Expr::Load(a, ann, span) => {
            let names = access_tags(l, ann, *span)?;
            let deref = matches!(names, [d] if d == "deref" || d == "lderef");
            let tags = l.tags(names, *span)?;
            // herd: `__load{t}(e)` needs `e = *l` and reads at `l`.
            let addr = match (ann, &**a) {
                (Ann::Tags(_), Expr::Load(inner, Ann::Plain, _)) => Box::new(s.pointer(l, inner)?),
                (Ann::Tags(_), other) => {
                    return Err(HerdError::unsupported(
                        "a `__load` of something other than `*x`",
                        other.span(),
                        "herd7 refuses it too (\"Bad __load argument\"): the kernel's macros load `*X`, so write `READ_ONCE(*x)`",
                    ))
                }
                _ => Box::new(s.pointer(l, a)?),
            };
            CExpr::Load { addr, tags, deref }
        }
        Expr::Op(op, a, c, span) => {
            array_arithmetic(&s.array_params, a, c, *span)?;
            CExpr::Op(*op, b(l, s, a)?, b(l, s, c)?)
        }
        Expr::Xchg(a, v, ann, span) => {
            let names = tag_list(ann, *span)?;
            CExpr::Xchg {
                addr: Box::new(s.pointer(l, a)?),
                val: b(l, s, v)?,
                tags: l.tags(names, *span)?,
            }
        }
        Expr::CmpXchg(a, o, n, t, span) => CExpr::CmpXchg {
            addr: Box::new(s.pointer(l, a)?),
            old: b(l, s, o)?,
            new: b(l, s, n)?,
            tags: l.tags(t, *span)?,
        },
        Expr::AtomicReturn {
            addr,
            op,
            val,
            tags,
            fetch,
            span,
        } => CExpr::AtomicReturn {
            addr: Box::new(s.pointer(l, addr)?),
            op: aop(*op),
            val: b(l, s, val)?,
            tags: l.tags(tags, *span)?,
            returns: if *fetch { Returns::Old } else { Returns::New },
        },
        Expr::AddUnless(a, v, u, t, span) => CExpr::AddUnless {
            addr: Box::new(s.pointer(l, a)?),
            add: b(l, s, v)?,
            unless: b(l, s, u)?,
            tags: l.tags(t, *span)?,
        },
        Expr::TryLock(a, _) => CExpr::TryLock(Box::new(s.pointer(l, a)?)),
        Expr::IsLocked(a, _) => CExpr::IsLocked(Box::new(s.pointer(l, a)?)),
        Expr::Srcu(a, t, span) => CExpr::Srcu {
            addr: Box::new(s.pointer(l, a)?),
            tags: l.tags(t, *span)?,
        },
        Expr::C11Rmw {
            addr,
            op,
            val,
            mo,
            span,
        } => c11::rmw(l, s, addr, op.map(aop), val, mo, *span)?,
        Expr::C11Cas {
            obj,
            expected,
            desired,
            success,
            failure,
            strong,
            span,
        } => c11::cas(
            l,
            s,
            c11::Cas {
                obj,
                expected,
                desired,
                success,
                failure,
                strong: *strong,
            },
            *span,
        )?,
        Expr::Call(f, _, span) => {
            return Err(HerdError::UnknownMacro {
                name: f.clone(),
                span: at(*span),
                help: "relaxlab internal error: a call left after expansion".to_string(),
            })
        }
        Expr::Unsupported(what, span) => {
            return Err(HerdError::unsupported(
                *what,
                *span,
                "relaxlab runs C11 tests through its own instructions; this one also uses herd's kernel primitives or pointers",
            ))
        }
    })
}

fn lower_stmt(l: &mut Lowerer<'_>, s: &mut ThreadScope, st: &Stmt) -> R<Option<CNode>> {
    let span = st.span();
    let node = |stmt| CNode {
        stmt,
        span,
        line: line_of(l.src, span),
    };
    let stmt = match st {
        Stmt::Seq(body, _) => {
            let mut out = Vec::new();
            for x in body {
                if let Some(n) = lower_stmt(l, s, x)? {
                    out.push(n);
                }
            }
            CStmt::Block(out)
        }
        Stmt::If(c, t, e, _) => {
            let cond = lower_expr(l, s, c)?;
            let then = lower_stmt(l, s, t)?.unwrap_or_else(|| empty(span));
            let otherwise = match e {
                Some(e) => Some(Box::new(
                    lower_stmt(l, s, e)?.unwrap_or_else(|| empty(span)),
                )),
                None => None,
            };
            CStmt::If {
                cond,
                then: Box::new(then),
                otherwise,
            }
        }
        Stmt::While(c, body, _) => CStmt::While {
            cond: lower_expr(l, s, c)?,
            body: Box::new(lower_stmt(l, s, body)?.unwrap_or_else(|| empty(span))),
        },
        Stmt::Decl(r, _) => {
            s.reg(r);
            return Ok(None);
        }
        Stmt::Assign(dst, e, _) => {
            let e = lower_expr(l, s, e)?;
            CStmt::Eval {
                dst: dst.as_ref().map(|(r, _)| s.reg(r)),
                e,
            }
        }
        Stmt::Store(a, v, ann, sp) => {
            let names = access_tags(l, ann, *sp)?;
            // herd: an annotated store takes `*l` and writes at `l`; a
            // plain `*l = v` has its address as is.
            let addr = match (ann, a) {
                (Ann::Tags(_) | Ann::Mo(_), Expr::Load(inner, Ann::Plain, _)) => {
                    s.pointer(l, inner)?
                }
                (Ann::Tags(_), other) => {
                    return Err(HerdError::unsupported(
                        "a `__store` to something other than `*x`",
                        other.span(),
                        "herd7 refuses it too (\"Bad __store argument\"): a `.def` macro stores to `*X`",
                    ))
                }
                (_, a) => s.pointer(l, a)?,
            };
            CStmt::Store {
                addr,
                val: lower_expr(l, s, v)?,
                tags: l.tags(names, *sp)?,
            }
        }
        Stmt::Fence(ann, sp) => {
            let names = access_tags(l, ann, *sp)?;
            CStmt::Fence {
                tags: l.tags(names, *sp)?,
            }
        }
        Stmt::Lock(a, _) => CStmt::Lock(s.pointer(l, a)?),
        Stmt::Unlock(a, _) => CStmt::Unlock(s.pointer(l, a)?),
        Stmt::AtomicOp(a, op, v, t, sp) => {
            let t: Vec<String> = t.iter().filter(|x| !x.is_empty()).cloned().collect();
            CStmt::AtomicOp {
                addr: s.pointer(l, a)?,
                op: aop(*op),
                val: lower_expr(l, s, v)?,
                tags: l.tags(&t, *sp)?,
            }
        }
        Stmt::Srcu(a, t, v, sp) => CStmt::Srcu {
            addr: s.pointer(l, a)?,
            tags: l.tags(t, *sp)?,
            val: match v {
                Some(v) => Some(lower_expr(l, s, v)?),
                None => None,
            },
        },
        Stmt::Call(f, _, sp) => {
            return Err(HerdError::UnknownMacro {
                name: f.clone(),
                span: at(*sp),
                help: "relaxlab internal error: a call left after expansion".to_string(),
            })
        }
        Stmt::Unsupported(what, sp) => return Err(HerdError::unsupported(
            *what,
            *sp,
            "herd's C semantics in relaxlab covers the Linux-kernel primitives and plain accesses",
        )),
    };
    Ok(Some(node(stmt)))
}

fn empty(span: Span) -> CNode {
    CNode {
        stmt: CStmt::Block(Vec::new()),
        span,
        line: 0,
    }
}
