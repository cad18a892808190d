//! Hand-built IR programs for the RELAXER tests, labelled with the line
//! numbers of the paper's figures (the parser lives in another crate).
#![allow(dead_code)]

use relaxlab_semantics::ir::*;

/// One instruction: its label (line), the instruction, its text.
pub type Line = (u32, Instr, &'static str);

pub fn st(line: u32, loc: u32, val: Value, text: &'static str) -> Line {
    (
        line,
        Instr::Store {
            loc: LocId(loc),
            val: Expr::Const(val),
            ord: WriteOrd::Na,
        },
        text,
    )
}

pub fn ld(line: u32, reg: u32, loc: u32, text: &'static str) -> Line {
    (
        line,
        Instr::Load {
            dst: RegId(reg),
            loc: LocId(loc),
            ord: ReadOrd::Na,
        },
        text,
    )
}

pub fn faa(line: u32, reg: u32, loc: u32, operand: Value, text: &'static str) -> Line {
    (
        line,
        Instr::Rmw {
            dst: RegId(reg),
            loc: LocId(loc),
            op: RmwOp::Add,
            operand: Expr::Const(operand),
            ord: RmwOrd::Rlx,
        },
        text,
    )
}

/// Jump to `target` when `cond` is zero.
pub fn br(line: u32, cond: Expr, target: u32, text: &'static str) -> Line {
    (
        line,
        Instr::Branch {
            cond,
            target: InstrId(target),
        },
        text,
    )
}

pub fn jmp(line: u32, target: u32) -> Line {
    (
        line,
        Instr::Jump {
            target: InstrId(target),
        },
        "goto",
    )
}

pub fn assert_eq0(line: u32, reg: u32, text: &'static str) -> Line {
    (
        line,
        Instr::Assert {
            cond: Expr::Binary(
                BinOp::Eq,
                Box::new(Expr::Reg(RegId(reg))),
                Box::new(Expr::Const(0)),
            ),
        },
        text,
    )
}

pub fn reg(r: u32) -> Expr {
    Expr::Reg(RegId(r))
}

pub fn eq0(r: u32) -> Expr {
    Expr::Binary(BinOp::Eq, Box::new(reg(r)), Box::new(Expr::Const(0)))
}

pub fn thread(name: &str, regs: &[&str], lines: Vec<Line>) -> ThreadCode {
    let mut code: Vec<Instruction> = lines
        .into_iter()
        .map(|(line, instr, text)| Instruction {
            instr,
            span: Span::default(),
            line,
            text: text.to_string(),
            origin: Origin::Source,
        })
        .collect();
    code.push(Instruction {
        instr: Instr::End,
        span: Span::default(),
        line: 0,
        text: "end".into(),
        origin: Origin::Source,
    });
    ThreadCode {
        name: name.into(),
        kind: ThreadKind::TopLevel,
        regs: regs.iter().map(|r| r.to_string()).collect(),
        code,
        span: Span::default(),
    }
}

pub fn program(name: &str, locs: &[&str], threads: Vec<ThreadCode>) -> Program {
    let observed = threads
        .iter()
        .enumerate()
        .flat_map(|(t, th)| {
            (0..th.regs.len()).map(move |r| Observable::Reg(ThreadId::new(t), RegId::new(r)))
        })
        .collect();
    Program {
        name: name.into(),
        doc: None,
        locations: locs
            .iter()
            .map(|l| Location {
                name: l.to_string(),
                init: 0,
                atomicity: Atomicity::NonAtomic,
                span: Span::default(),
            })
            .collect(),
        toplevel: threads.len(),
        threads,
        condition: None,
        filter: None,
        filter_only: Vec::new(),
        observed,
        expectations: vec![],
        c: None,
        herd_reading: None,
        arrays: Vec::new(),
    }
}

/// RELAXER Fig. 1 (store buffering): `x = 1; t1 = y || y = 1; t2 = x`.
pub fn fig1() -> Program {
    program(
        "RELAXER-fig1",
        &["x", "y"],
        vec![
            thread(
                "thread1",
                &["t1"],
                vec![st(1, 0, 1, "x = 1"), ld(2, 0, 1, "t1 = y")],
            ),
            thread(
                "thread2",
                &["t2"],
                vec![st(3, 1, 1, "y = 1"), ld(4, 0, 0, "t2 = x")],
            ),
        ],
    )
}

/// RELAXER Fig. 2: `x = 1; y = 1; done = 1 || if (done) { if (x == 0)
/// ERROR; local = y; }`; line 6's ERROR is `assert(x != 0)`.
pub fn fig2() -> Program {
    let (x, y, done) = (0, 1, 2);
    program(
        "RELAXER-fig2",
        &["x", "y", "done"],
        vec![
            thread(
                "thread1",
                &[],
                vec![
                    st(1, x, 1, "x = 1"),
                    st(2, y, 1, "y = 1"),
                    st(3, done, 1, "done = 1"),
                ],
            ),
            thread(
                "thread2",
                &["d", "t", "local"],
                vec![
                    ld(4, 0, done, "d = done"),
                    br(4, reg(0), 5, "if (d)"),
                    ld(5, 1, x, "t = x"),
                    (6, Instr::Assert { cond: reg(1) }, "assert(t != 0)"),
                    ld(7, 2, y, "local = y"),
                ],
            ),
        ],
    )
}

/// A fence: `full` (`mfence`), or `ls`, which no hardware model here
/// orders anything with (a placeholder keeping the code's shape).
pub fn fence(line: u32, full: bool) -> Line {
    let kind = if full { HwFence::Full } else { HwFence::LS };
    (
        line,
        Instr::Fence {
            kind: FenceKind::Hw(kind),
        },
        if full { "fence(full)" } else { "fence(ls)" },
    )
}

/// One entry of a thread of RELAXER Fig. 11 (Dekker), at code index
/// `base`, labels `l + 1..` (thread0: `l = 0`, thread1: `l = 10`). The
/// critical section is `c = fetch_add(incs, 1); assert(c == 0); c =
/// fetch_add(incs, -1)`, labelled `30 + l..`. `fenced`: the store-load
/// fences of Sec. 5.4 after lines 1 and 7.
#[allow(clippy::too_many_arguments)]
fn dekker_entry(
    base: u32,
    l: u32,
    mine: u32,
    other: u32,
    turn: u32,
    incs: u32,
    waits_on: fn(u32) -> Expr,
    fenced: bool,
) -> Vec<Line> {
    let (f, t, c) = (0, 1, 2);
    vec![
        st(l + 1, mine, 1, "flagMe = 1"),
        fence(l + 1, fenced),
        ld(l + 2, f, other, "while (flagOther)"),
        br(l + 2, reg(f), base + 14, "while (flagOther)"),
        ld(l + 3, t, turn, "t = turn"),
        br(l + 3, waits_on(t), base + 12, "if (turn is other's)"),
        st(l + 4, mine, 0, "flagMe = 0"),
        ld(l + 5, t, turn, "while (turn is other's)"),
        br(l + 5, waits_on(t), base + 10, "while (turn is other's)"),
        jmp(l + 6, base + 7),
        st(l + 7, mine, 1, "flagMe = 1"),
        fence(l + 7, fenced),
        ld(l + 2, f, other, "while (flagOther)"),
        jmp(l + 2, base + 3),
        faa(l + 30, c, incs, 1, "c = fetch_add(incs, 1)"),
        assert_eq0(l + 31, c, "assert(c == 0)"),
        faa(l + 32, c, incs, -1, "c = fetch_add(incs, -1)"),
        st(l + 9, turn, if l == 0 { 1 } else { 0 }, "turn = other"),
        st(l + 10, mine, 0, "flagMe = 0"),
    ]
}

/// RELAXER Fig. 11, each thread entering the critical section `entries`
/// times (the paper's harness enters three times), with or without the
/// store-load fences. Locations: flag0, flag1, turn, incs.
pub fn dekker(entries: u32, fenced: bool) -> Program {
    let (flag0, flag1, turn, incs) = (0, 1, 2, 3);
    let t0 = (0..entries)
        .flat_map(|k| dekker_entry(19 * k, 0, flag0, flag1, turn, incs, reg, fenced))
        .collect();
    let t1 = (0..entries)
        .flat_map(|k| dekker_entry(19 * k, 10, flag1, flag0, turn, incs, eq0, fenced))
        .collect();
    program(
        "RELAXER-fig11-dekker",
        &["flag0", "flag1", "turn", "incs"],
        vec![
            thread("thread0", &["f", "t", "c"], t0),
            thread("thread1", &["f", "t", "c"], t1),
        ],
    )
}
