//! The atomic operations of `<stdatomic.h>` in herd's C tests, translated
//! to relaxlab's instructions: loads, stores, fetch operations, exchanges,
//! compare-exchanges and fences, with their memory orders (the table of
//! the parent module's docs).

use relaxlab_semantics::ir::Span;

use super::*;

impl CThread {
    /// The atomic operations of `<stdatomic.h>`.
    pub(super) fn call(
        &mut self,
        f: &str,
        fspan: Span,
        args: &[E<'_>],
        span: Span,
        dst: Option<String>,
    ) -> Result<Option<String>, HerdError> {
        // `atomic_thread_fence` always takes its order, like the
        // `_explicit` forms.
        let (base, explicit) = match f.strip_suffix("_explicit") {
            Some(b) => (b, true),
            None => (f, f == "atomic_thread_fence"),
        };
        let arity = |n: usize| -> Result<(), HerdError> {
            let want = n + usize::from(explicit)
                * if base.contains("compare_exchange") {
                    2
                } else {
                    1
                };
            if args.len() == want {
                Ok(())
            } else {
                Err(HerdError::Syntax {
                    found: format!("number of arguments ({})", args.len()),
                    expected: format!("{want} arguments"),
                    span: super::super::error::at(span),
                    help: Some(format!("`{f}` takes {want} arguments")),
                })
            }
        };
        let order = |i: usize| -> Result<Order, HerdError> {
            if explicit {
                mem_order(&args[i], span)
            } else {
                Ok(("sc", span))
            }
        };
        match base {
            "atomic_load" => {
                arity(1)?;
                let loc = self.loc_arg(&args[0], span)?;
                let (o, os) = order(1)?;
                check(o, os, "a load", &["rlx", "acq", "sc"])?;
                let r = self.dst(dst);
                self.line(format!("{r} = load({loc}, {o});"));
                Ok(Some(r))
            }
            "atomic_store" => {
                arity(2)?;
                let loc = self.loc_arg(&args[0], span)?;
                let (o, os) = order(2)?;
                check(o, os, "a store", &["rlx", "rel", "sc"])?;
                let (v, _) = self.pure(&args[1])?;
                self.line(format!("store({loc}, {v}, {o});"));
                Ok(None)
            }
            "atomic_exchange" | "atomic_fetch_add" | "atomic_fetch_sub" | "atomic_fetch_and"
            | "atomic_fetch_or" | "atomic_fetch_xor" => {
                arity(2)?;
                let loc = self.loc_arg(&args[0], span)?;
                let (o, _) = order(2)?;
                let (v, _) = self.pure(&args[1])?;
                let op = base.trim_start_matches("atomic_");
                let r = self.dst(dst);
                self.line(format!("{r} = {op}({loc}, {v}, {o});"));
                Ok(Some(r))
            }
            "atomic_compare_exchange_strong" | "atomic_compare_exchange_weak" => {
                arity(3)?;
                let weak = base.ends_with("weak");
                self.cas(args, span, explicit, weak, dst).map(Some)
            }
            "atomic_thread_fence" => {
                arity(0)?;
                let (o, os) = order(0)?;
                if o == "rlx" {
                    self.line(
                        "// atomic_thread_fence(memory_order_relaxed): no effect".to_string(),
                    );
                } else {
                    check(o, os, "a fence", &["acq", "rel", "acq_rel", "sc"])?;
                    self.line(format!("fence({o});"));
                }
                Ok(None)
            }
            _ => Err(HerdError::unsupported(
                format!("`{f}`"),
                fspan,
                "supported: the atomic_* operations of <stdatomic.h> (load, store, exchange, \
                 fetch_add/sub/and/or/xor, compare_exchange, thread_fence), plain `*x` accesses",
            )),
        }
    }

    /// COMPARE-EXCHANGE: `t = cas(x, e, d, s, f); r = t == e; e = t;`.
    /// The weak one may fail whatever it reads (herd's C semantics lets it;
    /// book: herd.md, Compare-exchange): `t, ok = cas_weak(x, e, d, s, f);
    /// r = ok; e = t;`, `e = t` writing back the value read on a failure
    /// and leaving `e` as it was on a success.
    fn cas(
        &mut self,
        args: &[E<'_>],
        span: Span,
        explicit: bool,
        weak: bool,
        dst: Option<String>,
    ) -> Result<String, HerdError> {
        let loc = self.loc_arg(&args[0], span)?;
        if let E::Var(y, _) = &args[1] {
            if let Some((shared, _)) = self.location(y) {
                return self.cas_shared_expected(args, span, explicit, weak, dst, loc, shared);
            }
        }
        let expected = match &args[1] {
            E::AddrOf(e, s) if self.location(e).is_none() => {
                let _ = s;
                name(e)
            }
            other => {
                let s = match other {
                    E::AddrOf(_, s) | E::Var(_, s) | E::Deref(_, s) => *s,
                    _ => span,
                };
                return Err(HerdError::unsupported(
                    "an `expected` argument that is not `&local`",
                    s,
                    "pass the address of a local variable (`&r0`) or a location parameter (`y`, read and written back non-atomically)",
                ));
            }
        };
        let (d, _) = self.pure(&args[2])?;
        let orders = self.cas_orders(args, span, explicit)?;
        let t = self.fresh();
        self.regs.insert(expected.clone());
        let args = format!("{loc}, {expected}, {d}, {orders}");
        let (r, _) = self.cas_line(weak, dst, &t, &expected, &args);
        self.line(format!("{expected} = {t};"));
        Ok(r)
    }

    /// The compare-exchange itself, its value read into `t`, and the
    /// result `r`: `t = cas(ARGS); r = t == e;`, or for the weak one
    /// `t, ok = cas_weak(ARGS); r = ok;` (`e`: the expected value, the
    /// second of `ARGS`). Returns `r` and the condition under which it
    /// failed (`t != e`, `!ok`).
    fn cas_line(
        &mut self,
        weak: bool,
        dst: Option<String>,
        t: &str,
        e: &str,
        args: &str,
    ) -> (String, String) {
        if weak {
            let ok = self.fresh();
            let r = self.dst(dst);
            self.line(format!("{t}, {ok} = cas_weak({args});"));
            self.line(format!("{r} = {ok};"));
            (r, format!("!{ok}"))
        } else {
            let r = self.dst(dst);
            self.line(format!("{t} = cas({args});"));
            self.line(format!("{r} = {t} == {e};"));
            (r, format!("{t} != {e}"))
        }
    }

    /// COMPARE-EXCHANGE whose `expected` is a shared location `y` (a
    /// pointer parameter, passed without `&`). As herd's C semantics does,
    /// `*y` is read non-atomically before the operation and, on failure
    /// only, written non-atomically with the value read from `x`:
    /// `e = load(y, na); t = cas(x, e, d, s, f); r = t == e;
    /// if (t != e) { store(y, t, na); }`; the weak one
    /// `e = load(y, na); t, ok = cas_weak(x, e, d, s, f); r = ok;
    /// if (!ok) { store(y, t, na); }`.
    #[allow(clippy::too_many_arguments)]
    fn cas_shared_expected(
        &mut self,
        args: &[E<'_>],
        span: Span,
        explicit: bool,
        weak: bool,
        dst: Option<String>,
        loc: String,
        shared: String,
    ) -> Result<String, HerdError> {
        let (d, _) = self.pure(&args[2])?;
        let orders = self.cas_orders(args, span, explicit)?;
        let e = self.fresh();
        let t = self.fresh();
        self.line(format!("{e} = load({shared}, na);"));
        let args = format!("{loc}, {e}, {d}, {orders}");
        let (r, failed) = self.cas_line(weak, dst, &t, &e, &args);
        self.line(format!("if ({failed}) {{"));
        self.indent += 1;
        self.line(format!("store({shared}, {t}, na);"));
        self.indent -= 1;
        self.line("}".to_string());
        Ok(r)
    }

    /// The success and failure orders of a compare-exchange (`sc` for the
    /// non-explicit form).
    fn cas_orders(
        &mut self,
        args: &[E<'_>],
        span: Span,
        explicit: bool,
    ) -> Result<String, HerdError> {
        Ok(if explicit {
            let (s, _) = mem_order(&args[3], span)?;
            let (f, fs) = mem_order(&args[4], span)?;
            check(
                f,
                fs,
                "the failure of a compare-exchange",
                &["rlx", "acq", "sc"],
            )?;
            format!("{s}, {f}")
        } else {
            "sc".to_string()
        })
    }
}

/// C11's memory order constants.
const MEMORY_ORDERS: [&str; 6] = [
    "memory_order_relaxed",
    "memory_order_consume",
    "memory_order_acquire",
    "memory_order_release",
    "memory_order_acq_rel",
    "memory_order_seq_cst",
];

/// A `memory_order_*` argument in relaxlab spelling.
fn mem_order(e: &E<'_>, call: Span) -> Result<Order, HerdError> {
    let (word, span) = match e {
        E::Var(w, s) => (*w, *s),
        _ => {
            return Err(HerdError::unsupported(
                "a computed memory order",
                call,
                "write one of the memory_order_* constants",
            ))
        }
    };
    let o = match word {
        "memory_order_relaxed" => "rlx",
        "memory_order_acquire" => "acq",
        "memory_order_release" => "rel",
        "memory_order_acq_rel" => "acq_rel",
        "memory_order_seq_cst" => "sc",
        "memory_order_consume" => {
            return Err(HerdError::unsupported(
                "`memory_order_consume`",
                span,
                "relaxlab has no consume; compilers treat it as memory_order_acquire: write that",
            ))
        }
        _ => {
            let mut e = HerdError::syntax(format!("`{word}`"), "a memory_order_* constant", span);
            if let HerdError::Syntax { help, .. } = &mut e {
                *help = crate::diag::suggest(word, MEMORY_ORDERS.iter().copied())
                    .map(|s| format!("did you mean `{s}`?"));
            }
            return Err(e);
        }
    };
    Ok((o, span))
}

/// Checks that order `o` is allowed for `operation`.
fn check(o: &str, span: Span, operation: &'static str, allowed: &[&str]) -> Result<(), HerdError> {
    if allowed.contains(&o) {
        return Ok(());
    }
    let long = |o: &str| match o {
        "rlx" => "memory_order_relaxed",
        "acq" => "memory_order_acquire",
        "rel" => "memory_order_release",
        "acq_rel" => "memory_order_acq_rel",
        _ => "memory_order_seq_cst",
    };
    Err(HerdError::BadOrder {
        order: long(o).to_string(),
        operation,
        span: super::super::error::at(span),
        help: format!(
            "allowed for {operation}: {}",
            allowed
                .iter()
                .map(|a| long(a))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    })
}
