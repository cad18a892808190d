//! The condition, the `filter` and the `locations` of a herd C test in
//! herd's C semantics: what they name (registers of a thread, locations,
//! array cells) and the values they compare with (integers, or a
//! location's address).

use relaxlab_semantics::csem;
use relaxlab_semantics::ir::{CmpOp, LocId, Observable, Prop as IrProp, Span, ThreadId};

use super::{Lowerer, ThreadScope, R};
use crate::herd::error::{at, HerdError};
use crate::herd::kernel::ast::{self, Loc, Prop, Value};

pub(super) fn prop_locations(p: &Prop, out: &mut Vec<(String, Span)>) {
    match p {
        Prop::Const(_) => {}
        Prop::Atom(l, _, v, s) => {
            if let Loc::Mem(x, s) = l {
                out.push((x.clone(), *s));
            }
            if let Value::Addr(x) = v {
                out.push((x.clone(), *s));
            }
        }
        Prop::Not(a) => prop_locations(a, out),
        Prop::And(a, b) | Prop::Or(a, b) | Prop::Implies(a, b) => {
            prop_locations(a, out);
            prop_locations(b, out);
        }
    }
}

pub(super) fn observable(
    l: &Lowerer<'_>,
    scopes: &mut [(&ast::Thread, ThreadScope)],
    loc: &Loc,
) -> R<Observable> {
    match loc {
        Loc::Reg(t, r, span) => {
            let Some((_, scope)) = scopes.get_mut(*t) else {
                return Err(HerdError::BadThread {
                    name: format!("{t}:{r}"),
                    span: at(*span),
                    help: format!(
                        "the threads of this test are numbered 0 to {}",
                        scopes.len().saturating_sub(1)
                    ),
                });
            };
            Ok(Observable::Reg(ThreadId::new(*t), scope.reg(r)))
        }
        Loc::Mem(x, span) if l.arrays.cells(x).is_some() => Err(HerdError::array(
            format!("the whole array `{x}` compared with a value"),
            "a whole array",
            *span,
            format!(
                "compare one of its cells, `{x}[0]`; `locations [{x};]` shows the whole array (book: herd.md, Arrays)"
            ),
        )),
        Loc::Mem(x, span) if x.contains('[') => {
            let c = l.arrays.cell(x, *span)?.unwrap_or_default();
            Ok(Observable::Loc(LocId::new(c)))
        }
        Loc::Mem(x, span) => match l.locations.iter().position(|(n, _, _)| n == x) {
            Some(i) => Ok(Observable::Loc(LocId::new(i))),
            None => Err(HerdError::UnknownLocation {
                name: x.clone(),
                span: at(*span),
            }),
        },
    }
}

pub(super) fn lower_prop(
    l: &Lowerer<'_>,
    scopes: &mut [(&ast::Thread, ThreadScope)],
    p: &Prop,
    observed: &mut Vec<Observable>,
) -> R<IrProp> {
    Ok(match p {
        Prop::Const(true) => IrProp::True,
        Prop::Const(false) => IrProp::False,
        Prop::Atom(loc, ne, v, span) => {
            let o = observable(l, scopes, loc)?;
            if !observed.contains(&o) {
                observed.push(o);
            }
            let v = match v {
                Value::Int(v) => l.integer(*v, *span)?,
                Value::Addr(x) => match l.find(x) {
                    Some(i) => csem::address(LocId::new(i)),
                    None => {
                        return Err(HerdError::UnknownLocation {
                            name: x.clone(),
                            span: at(*span),
                        })
                    }
                },
            };
            IrProp::Atom(o, if *ne { CmpOp::Ne } else { CmpOp::Eq }, v)
        }
        Prop::Not(a) => IrProp::Not(Box::new(lower_prop(l, scopes, a, observed)?)),
        Prop::And(a, b) => IrProp::And(
            Box::new(lower_prop(l, scopes, a, observed)?),
            Box::new(lower_prop(l, scopes, b, observed)?),
        ),
        Prop::Or(a, b) => IrProp::Or(
            Box::new(lower_prop(l, scopes, a, observed)?),
            Box::new(lower_prop(l, scopes, b, observed)?),
        ),
        Prop::Implies(a, b) => IrProp::Implies(
            Box::new(lower_prop(l, scopes, a, observed)?),
            Box::new(lower_prop(l, scopes, b, observed)?),
        ),
    })
}
