//! What a state of herd7's output lists, and in which order
//! (book: herd.md, Arrays).
//!
//! herd7 keeps the final values of what the condition and `locations`
//! name in a map from herd's "rlocations": a location (a register, or a
//! global location by name) or a cell of an array (`Deref (t, 1)`). Its
//! order, which is the order of a state's line and of its sort key, is
//! every location before every cell (herd's `ConstrGen.compare_rloc`),
//! leaving out what only the filter names:
//!
//! 1. registers, by thread number, then register ([`super::herd`]'s
//!    `X86_REGS` order for X86 registers, other names as strings);
//! 2. global locations by name, a scalar printed `[x]=1;` and a whole
//!    array (one `locations` names) `t={1,-1};`, its cells in order;
//! 3. cells the condition, the filter or `locations` name one by one,
//!    by array name, then index: `t[1]=3;`.
//!
//! A state's sort key is its values in that order, an array's cells in
//! order: herd compares array values cell by cell.

use std::cmp::Ordering;

use relaxlab_semantics::ir::{Array, LocId, Observable, Program};

use super::herd::X86_REGS;

/// One entry of a state: its `name=` prefix and the columns of the
/// outcome table it prints (one, or an array's cells).
#[derive(Debug)]
pub(super) struct Entry {
    pub prefix: String,
    pub cols: Vec<usize>,
    pub array: bool,
}

/// What an entry is, for herd's order.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
enum Key<'p> {
    Global(&'p str),
    Cell(&'p str, usize),
}

/// The array `l` is a cell of, and its index.
pub(super) fn cell_of(program: &Program, l: LocId) -> Option<(&Array, usize)> {
    program
        .arrays
        .iter()
        .find_map(|a| a.cells.iter().position(|&c| c == l).map(|i| (a, i)))
}

/// `[x]`, or `t[1]` for a cell, as herd prints a location in states and
/// conditions.
pub(super) fn loc_name(program: &Program, l: LocId) -> String {
    match cell_of(program, l) {
        Some((a, i)) => format!("{}[{i}]", a.name),
        None => format!("[{}]", program.location(l).name),
    }
}

/// The entries of a state in herd's order.
pub(super) fn entries(program: &Program) -> Vec<Entry> {
    let observed = &program.observed;
    let col = |l: LocId| observed.iter().position(|&o| o == Observable::Loc(l));
    let mut regs: Vec<usize> = Vec::new();
    let mut keyed: Vec<(Key<'_>, Entry)> = Vec::new();
    for (i, &o) in observed.iter().enumerate() {
        // herd7 lists no value of what only the filter names.
        if program.filter_only.contains(&o) {
            continue;
        }
        match o {
            Observable::Reg(..) => regs.push(i),
            Observable::Loc(l) => match cell_of(program, l) {
                // Printed within the whole array only.
                Some((a, _)) if a.observed_whole && !a.observed_cells.contains(&l) => {}
                Some((a, k)) => keyed.push((
                    Key::Cell(&a.name, k),
                    Entry {
                        prefix: format!("{}[{k}]=", a.name),
                        cols: vec![i],
                        array: false,
                    },
                )),
                None => keyed.push((
                    Key::Global(&program.location(l).name),
                    Entry {
                        prefix: format!("[{}]=", program.location(l).name),
                        cols: vec![i],
                        array: false,
                    },
                )),
            },
        }
    }
    for a in program.arrays.iter().filter(|a| a.observed_whole) {
        let cols: Option<Vec<usize>> = a.cells.iter().map(|&c| col(c)).collect();
        if let Some(cols) = cols {
            keyed.push((
                Key::Global(&a.name),
                Entry {
                    prefix: format!("{}=", a.name),
                    // herd7 prints an array of one cell as its value,
                    // `t=2;`, without braces.
                    array: cols.len() > 1,
                    cols,
                },
            ));
        }
    }
    regs.sort_by(|&a, &b| compare_regs(program, observed[a], observed[b]));
    keyed.sort_by(|a, b| a.0.cmp(&b.0));
    let mut out: Vec<Entry> = regs
        .into_iter()
        .map(|i| {
            let Observable::Reg(t, r) = observed[i] else {
                unreachable!("only registers were kept")
            };
            Entry {
                prefix: format!("{}:{}=", t.0, program.thread(t).regs[r.index()]),
                cols: vec![i],
                array: false,
            }
        })
        .collect();
    out.extend(keyed.into_iter().map(|(_, e)| e));
    out
}

/// herd's order of registers: by thread, then register.
fn compare_regs(program: &Program, a: Observable, b: Observable) -> Ordering {
    match (a, b) {
        (Observable::Reg(ta, ra), Observable::Reg(tb, rb)) => ta.cmp(&tb).then_with(|| {
            let na = &program.thread(ta).regs[ra.index()];
            let nb = &program.thread(tb).regs[rb.index()];
            let rank = |n: &str| X86_REGS.iter().position(|r| *r == n);
            match (rank(na), rank(nb)) {
                (Some(x), Some(y)) => x.cmp(&y),
                _ => na.cmp(nb),
            }
        }),
        _ => Ordering::Equal,
    }
}
