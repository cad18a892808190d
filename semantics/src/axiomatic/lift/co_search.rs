//! The `co` search of the `c11t` lift (see the parent module's docs):
//! `c11t` keeps the modification order as a partial order, so its trace
//! fixes only the value each location ends with (`Settle` steps); the
//! orders that end with it and keep each thread's writes in program order
//! (CoWW) are tried in a fixed order until the twin accepts one.

use super::super::candidates::step;
use super::super::run::check;
use super::{trace_co, with_co, CoSource, Ev, Layout, Replay, Write, MAX_CO_ORDERS};
use crate::ir::{AxModel, LocId, Value};

/// `c11t`: the `co` orders to try, per location (see the module docs), and
/// the first the twin accepts, or the first of all.
pub(super) fn search_co(r: &Replay, l: &Layout, ax: AxModel) -> (Vec<Vec<Ev>>, CoSource) {
    let per_loc: Vec<Vec<Vec<Ev>>> = r
        .performed
        .iter()
        .enumerate()
        .map(|(loc, ws)| {
            let settled = r.settled.get(&LocId::new(loc)).copied();
            location_orders(ws, settled)
        })
        .collect();
    // The performance order is a fallback when a location has no order
    // ending with its settled value (a trace cut short).
    let fallback = trace_co(r);
    let choose = |idx: &[usize]| -> Vec<Vec<Ev>> {
        per_loc
            .iter()
            .zip(idx)
            .enumerate()
            .map(|(loc, (orders, &k))| {
                orders
                    .get(k)
                    .cloned()
                    .unwrap_or_else(|| fallback[loc].clone())
            })
            .collect()
    };
    let mut idx = vec![0usize; per_loc.len()];
    let mut tried = 0u64;
    loop {
        let orders = choose(&idx);
        tried += 1;
        if check(ax, &with_co(&l.exec, l, &orders)).is_ok() {
            return (
                orders,
                CoSource::Searched {
                    tried,
                    accepted: true,
                },
            );
        }
        if tried >= MAX_CO_ORDERS || !step(&mut idx, |i| per_loc[i].len().max(1)) {
            let first = choose(&vec![0; per_loc.len()]);
            return (
                first,
                CoSource::Searched {
                    tried,
                    accepted: false,
                },
            );
        }
    }
}

/// Every order of one location's writes (performance order `ws`, init
/// first) that keeps the init first and each thread's writes in program
/// order, and ends with a write of `settled` when given; in lexicographic
/// order of performance positions, so the performance order comes first
/// when it qualifies.
fn location_orders(ws: &[Write], settled: Option<Value>) -> Vec<Vec<Ev>> {
    let (init, rest) = match ws.split_first() {
        Some((i, rest)) if matches!(i.ev, Ev::Init(_)) => (Some(i.ev), rest),
        _ => (None, ws),
    };
    let mut out = Vec::new();
    let mut prefix: Vec<usize> = Vec::with_capacity(rest.len());
    let mut used = vec![false; rest.len()];
    permute(rest, &mut prefix, &mut used, &mut |perm| {
        let last_ok = match (settled, perm.last()) {
            (Some(v), Some(&k)) => rest[k].value == v,
            _ => true,
        };
        if last_ok && (out.len() as u64) < MAX_CO_ORDERS {
            out.push(
                init.into_iter()
                    .chain(perm.iter().map(|&k| rest[k].ev))
                    .collect(),
            );
        }
        (out.len() as u64) < MAX_CO_ORDERS
    });
    out
}

/// Permutations of `ws` keeping each thread's writes in program order;
/// `f` returns false to stop.
fn permute(
    ws: &[Write],
    prefix: &mut Vec<usize>,
    used: &mut [bool],
    f: &mut dyn FnMut(&[usize]) -> bool,
) -> bool {
    if prefix.len() == ws.len() {
        return f(prefix);
    }
    for k in 0..ws.len() {
        if used[k] {
            continue;
        }
        // CoWW: an earlier write of the same thread must come first.
        let blocked = (0..k).any(|j| !used[j] && same_thread(ws[j].ev, ws[k].ev));
        if blocked {
            continue;
        }
        used[k] = true;
        prefix.push(k);
        let go_on = permute(ws, prefix, used, f);
        prefix.pop();
        used[k] = false;
        if !go_on {
            return false;
        }
    }
    true
}

fn same_thread(a: Ev, b: Ev) -> bool {
    matches!((a, b), (Ev::Thread(x, _), Ev::Thread(y, _)) if x == y)
}
