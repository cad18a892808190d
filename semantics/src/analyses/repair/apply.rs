//! Applying a placement (one change at each of some sites) to a program.
//!
//! Fences are inserted at their anchors, exactly where the lowering of the
//! source text with the fence statement written there puts them (see
//! [`super::site`]): before an anchored statement, jumps to it land on the
//! fence; after it, only the statement falls into the fence. Jump targets
//! and fork sites are renumbered. Several fences at one instruction go in
//! site order, the "after" ones first (they follow the statement before;
//! the others precede the statement after). Orders are changed in place; a
//! `cas` whose failure order was the default for its old order
//! ([`RmwOrd::read_part`]) gets the default of its new one, as its source
//! text would when the order is rewritten.
//!
//! An inserted fence carries the empty span at its anchor (the start of the
//! statement it precedes or the end of the one it follows), the anchor's
//! line and the text `fence(K)`.

use crate::ir::{FenceKind, Instr, InstrId, Instruction, Origin, Program, Span, ThreadKind};

use super::site::{
    fence_name, read_name, rmw_name, write_name, Anchor, Change, Point, Site, SiteKind,
};

/// A placement: changes at sites, by index into the site list.
pub type Placement = Vec<(usize, Change)>;

/// `program` with `placement` applied.
pub fn apply(program: &Program, sites: &[Site], placement: &[(usize, Change)]) -> Program {
    let mut out = program.clone();
    let mut new_index: Vec<Vec<InstrId>> = Vec::with_capacity(out.threads.len());
    for (t, thread) in out.threads.iter_mut().enumerate() {
        let mine: Vec<(&Site, Change)> = placement
            .iter()
            .map(|&(s, c)| (&sites[s], c))
            .filter(|(s, _)| s.thread.index() == t)
            .collect();
        for (site, change) in &mine {
            if let SiteKind::Order(i) = site.kind {
                strengthen(&mut thread.code[i.index()], *change);
            }
        }
        let fences: Vec<(&Site, FenceKind)> = mine
            .iter()
            .filter_map(|(s, c)| match (s.kind, c) {
                (SiteKind::Fence(_), Change::Fence(k)) => Some((*s, *k)),
                _ => None,
            })
            .collect();
        let (code, remap) = insert_fences(&thread.code, &fences);
        thread.code = code;
        new_index.push(remap);
    }
    for t in 0..out.threads.len() {
        if let ThreadKind::Forked { parent, at } = out.threads[t].kind {
            out.threads[t].kind = ThreadKind::Forked {
                parent,
                at: new_index[parent.index()][at.index()],
            };
        }
    }
    out
}

/// The fence instruction for a site.
fn fence_instruction(code: &[Instruction], anchor: Anchor, kind: FenceKind) -> Instruction {
    let at = &code[anchor.instr().index()];
    let pos = match anchor {
        Anchor::Before(_) => at.span.start,
        Anchor::After(_) => at.span.end,
    };
    Instruction {
        instr: Instr::Fence { kind },
        span: Span {
            start: pos,
            end: pos,
        },
        line: at.line,
        text: format!("fence({})", fence_name(kind)),
        origin: Origin::Source,
    }
}

/// Inserts `fences` into `code`; also returns, per old instruction, its
/// new index.
fn insert_fences(
    code: &[Instruction],
    fences: &[(&Site, FenceKind)],
) -> (Vec<Instruction>, Vec<InstrId>) {
    if fences.is_empty() {
        return (code.to_vec(), (0..code.len()).map(InstrId::new).collect());
    }
    let mut out = Vec::with_capacity(code.len() + fences.len());
    let mut remap = Vec::with_capacity(code.len());
    let mut jump_to = Vec::with_capacity(code.len());
    for (j, ins) in code.iter().enumerate() {
        let here = |retarget: bool| {
            fences.iter().filter(move |(s, _)| {
                let p = raw_point(anchor_of(s));
                p.at.index() == j && p.retarget == retarget
            })
        };
        for (s, k) in here(false) {
            out.push(fence_instruction(code, anchor_of(s), *k));
        }
        let mut target = None;
        for (s, k) in here(true) {
            target.get_or_insert(InstrId::new(out.len()));
            out.push(fence_instruction(code, anchor_of(s), *k));
        }
        remap.push(InstrId::new(out.len()));
        jump_to.push(target.unwrap_or(InstrId::new(out.len())));
        out.push(ins.clone());
    }
    for ins in &mut out {
        if let Instr::Branch { target, .. } | Instr::Jump { target } = &mut ins.instr {
            *target = jump_to[target.index()];
        }
    }
    debug_assert!(matches!(out.last().map(|i| &i.instr), Some(Instr::End)));
    (out, remap)
}

/// The insertion point the source text gives an anchor (not normalised,
/// so that the IR is the lowering of the repaired text).
fn raw_point(anchor: Anchor) -> Point {
    match anchor {
        Anchor::Before(i) => Point {
            at: i,
            retarget: true,
        },
        Anchor::After(i) => Point {
            at: InstrId::new(i.index() + 1),
            retarget: false,
        },
    }
}

fn anchor_of(site: &Site) -> Anchor {
    match site.kind {
        SiteKind::Fence(a) => a,
        SiteKind::Order(_) => unreachable!("relaxlab internal error: an order site as a fence"),
    }
}

/// Gives an access the order of `change`, and its text the order's name.
fn strengthen(ins: &mut Instruction, change: Change) {
    let old_name;
    // A `cas` failure order that follows the new order's default.
    let mut new_fail = None;
    match (&mut ins.instr, change) {
        (Instr::Load { ord, .. }, Change::Load(new)) => {
            old_name = read_name(*ord);
            *ord = new;
        }
        (Instr::Store { ord, .. }, Change::Store(new)) => {
            old_name = write_name(*ord);
            *ord = new;
        }
        (Instr::Rmw { ord, .. }, Change::Rmw(new)) => {
            old_name = rmw_name(*ord);
            *ord = new;
        }
        (Instr::Cas { ord, fail, .. }, Change::Rmw(new)) => {
            old_name = rmw_name(*ord);
            if *fail == ord.read_part() {
                *fail = new.read_part();
                new_fail = Some(read_name(*fail));
            }
            *ord = new;
        }
        (other, _) => {
            debug_assert!(false, "relaxlab internal error: {change:?} on {other:?}");
            return;
        }
    }
    let cas = matches!(ins.instr, Instr::Cas { .. });
    ins.text = retext(&ins.text, cas, old_name, &change.text(), new_fail);
}

/// The statement text with its order renamed: the last argument (the
/// fourth of a `cas`, whose fifth, the failure order, becomes `new_fail`
/// when given and written).
fn retext(text: &str, cas: bool, old: &str, new: &str, new_fail: Option<&str>) -> String {
    let (Some(open), Some(close)) = (text.find('('), text.rfind(')')) else {
        return text.to_string();
    };
    let mut args: Vec<String> = text[open + 1..close]
        .split(',')
        .map(|a| a.trim().to_string())
        .collect();
    let at = if cas { 3 } else { args.len() - 1 };
    if args.get(at).map(String::as_str) != Some(old) {
        return text.to_string();
    }
    args[at] = new.to_string();
    if let (true, Some(f), Some(a)) = (cas, new_fail, args.get_mut(4)) {
        *a = f.to_string();
    }
    format!(
        "{}({}){}",
        &text[..open],
        args.join(", "),
        &text[close + 1..]
    )
}
