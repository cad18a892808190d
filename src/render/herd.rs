//! herd7's output format, line for line, for `relaxlab run --format herd`.
//!
//! ```text
//! Test SB Allowed
//! States 4
//! 0:r0=0; 1:r0=0;
//! 0:r0=0; 1:r0=1;
//! 0:r0=1; 1:r0=0;
//! 0:r0=1; 1:r0=1;
//! Ok
//! Witnesses
//! Positive: 1 Negative: 3
//! Condition exists (0:r0=0 /\ 1:r0=0)
//! Observation SB Sometimes 1 3
//!
//! ```
//!
//! What herd7 does and this module copies:
//!
//! 1. The kind of the test follows its quantifier: `exists` is `Allowed`,
//!    `~exists` `Forbidden`, `forall` `Required`. A relaxlab test without
//!    a condition is printed as herd's `forall (true)`.
//! 2. A state lists the observed values (the condition's, then those of
//!    `locations`/`observe`) in herd's location order: registers first, by
//!    thread number then register (X86 registers in herd's order `EAX EBX
//!    ECX EDX ESI EDI EBP ESP EIP ZF SF CF`, other names by string
//!    comparison), then
//!    shared locations by name. Registers print as `N:reg=v;` with the
//!    thread's NUMBER, locations as `[x]=v;` (herd 7.5x brackets global
//!    locations in C and X86 output alike), values in decimal. A whole
//!    array prints as `t={1,-1};` among the locations, and cells named one
//!    by one as `t[1]=-1;` after them ([`super::herd_states`]).
//! 3. States are sorted as herd's state set sorts them: lexicographically
//!    by their values in that location order, values compared as signed
//!    integers.
//! 4. `Ok`/`No`: `exists P` is Ok when some execution satisfies P,
//!    `~exists P` when none does, `forall P` when all do. When some
//!    execution is undefined, `Undef` instead: herd's C models state
//!    race freedom as `undefined_unless empty dr`, and herd7 prints
//!    `Undef` for a test with an execution that fails such a check. An
//!    execution is undefined when it has a data race, or, under a cat
//!    model, when it fails an `undefined_unless` check (a fired `flag`
//!    does not make it undefined). herd's `Flag` lines follow the
//!    `Positive`/`Negative` line: `Flag *undef*` for an undefined test,
//!    then one `Flag NAME` per `flag` check of a cat model that held on
//!    some execution, by name (herd7's `lib/flag.ml` order and spelling).
//! 5. `Positive`/`Negative` count *executions*: those satisfying the
//!    condition and those not. For `~exists P` the condition is `~P`, so the
//!    counts are P's swapped. The `Observation` line always gives P's counts,
//!    with `Always` (no negative), `Never` (no positive) or `Sometimes`.
//! 6. The `Condition` line reprints the condition as herd's printer does
//!    (`0:r0=0`, `[x]=1`, `/\`, `\/`, `=>`, `not (P)`; `!=` as
//!    `not (a=v)`; a location's address by the location's name),
//!    parenthesised by herd's precedence, where `=>` binds tighter than
//!    `/\` and `\/`.
//!
//! Counts come from the rows' `count` field: the axiomatic engine stores
//! the number of consistent executions per outcome there, as herd counts.
//! Exhaustive operational runs store 1 per outcome, so for them the
//! `Positive`/`Negative` figures count *outcomes*, not executions: a state
//! graph has no notion of "an execution" to count.
//!
//! What relaxlab adds, as comment lines (`# ...`) before the `Test` line,
//! where herd's log tools (mcompare7, msum7) skip text: every bound that
//! cut the result short (`# PARTIAL: ...`; herd7 itself warns on standard
//! error and prefixes `Ok`/`No` with `Loop` when its unrolling bound was
//! hit, which relaxlab does too for `--unroll`), every way an execution
//! fails (`# FAILURE: ...`), the stateless explorer's counters (`# mcr:
//! ...`, `--search mcr`), and, when several models run, the model of each
//! block (`# model tso`).
//!
//! Sampled runs print litmus7's layout for counted runs (litmus7 is the
//! herd toolsuite's tool that runs tests many times): `Histogram (N
//! states)`, each state after its run count and `*>` (the condition holds)
//! or `:>`, `Positive: P, Negative: N` counting runs, and `Condition ...
//! is validated` or `is NOT validated`. Where litmus7 would print
//! `Observation NAME Never`, relaxlab prints `Unobserved`: sampling shows
//! what can happen, never what cannot. So does a search cut short by a
//! bound (after its `# PARTIAL` line). A comment line says how many runs
//! of which seed.
//!
//! With `show_time_and_hash`, the `Time NAME 0.00` and `Hash=...` lines
//! follow. The time is always printed as 0.00 so output stays
//! deterministic, and the hash is a 128-bit FNV-1a digest of the program's
//! threads, init values and condition, not herd's MD5 of its own
//! normalised text: equal tests get equal hashes, but they cannot be
//! compared with herd's.

use std::fmt::Write;

use relaxlab_semantics::ir::{CmpOp, Observable, Program, Prop, Quantifier, Value, Verdict};
use relaxlab_semantics::operational::mcr::McrStats;
use relaxlab_semantics::outcome::{BoundHit, OutcomeTable};

use super::herd_states;
use super::table::{describe_bound, describe_failure, mcr_lines, Mode};

/// herd's X86 registers in the order of its register type (the flags
/// after the general-purpose registers), then its X86_64 registers (as
/// the importer names them) in theirs.
pub(super) const X86_REGS: [&str; 28] = [
    "EAX", "EBX", "ECX", "EDX", "ESI", "EDI", "EBP", "ESP", "EIP", "ZF", "SF", "CF", "rax", "rbx",
    "rcx", "rdx", "rsi", "rdi", "rbp", "rsp", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
];

/// Renders one result as herd7 prints it.
pub fn render(program: &Program, table: &OutcomeTable, show_time_and_hash: bool) -> String {
    render_with(
        program,
        table,
        Mode::Exhaustive,
        show_time_and_hash,
        None,
        None,
    )
}

/// [`render`] for a result produced in `mode`, naming `model` in a comment
/// line when given (several models in one output), with the stateless
/// explorer's counters as comment lines when given.
pub fn render_with(
    program: &Program,
    table: &OutcomeTable,
    mode: Mode,
    show_time_and_hash: bool,
    model: Option<&str>,
    mcr: Option<&McrStats>,
) -> String {
    let sampled = match mode {
        Mode::Sampled { seed, .. } => Some((mode.runs(table).unwrap_or_default(), seed)),
        _ => None,
    };
    let (quantifier, prop) = match &program.condition {
        Some(c) => (c.quantifier, c.prop.clone()),
        None => (Quantifier::Forall, Prop::True),
    };
    let kind = match quantifier {
        Quantifier::Exists => "Allowed",
        Quantifier::NotExists => "Forbidden",
        Quantifier::Forall => "Required",
    };
    let entries = herd_states::entries(program);
    // The columns of the table in herd's order, an array's cells in order.
    let order: Vec<usize> = entries
        .iter()
        .flat_map(|e| e.cols.iter().copied())
        .collect();
    // The rows in herd's order of states: their values in herd's column
    // order, side by side, sorted (rows have distinct values, so the order
    // is total).
    let width = order.len();
    let keys: Vec<Value> = table
        .rows
        .iter()
        .flat_map(|r| order.iter().map(|&i| r.values[i]))
        .collect();
    let key = |s: usize| &keys[s * width..(s + 1) * width];
    let mut states: Vec<usize> = (0..table.rows.len()).collect();
    // Up to 8 values in 0..2^16 pack into one number that sorts alike.
    // A program whose values include addresses sorts as herd does, its
    // integers before its symbols, symbols by name.
    let symbolic = program.c.is_some();
    let packed = |s: usize| {
        key(s).iter().try_fold(0u128, |acc, &v| {
            u16::try_from(v).ok().map(|v| (acc << 16) | u128::from(v))
        })
    };
    let all_packed: Option<Vec<(u128, usize)>> = (width <= 8 && !symbolic)
        .then(|| states.iter().map(|&s| packed(s).map(|p| (p, s))).collect())
        .flatten();
    if let Some(mut pairs) = all_packed {
        pairs.sort_unstable();
        states = pairs.into_iter().map(|(_, s)| s).collect();
    } else if symbolic {
        let text = |v: Value| {
            let t = program.value_text(v);
            (t.parse::<Value>().is_err(), v, t)
        };
        states.sort_by_cached_key(|&s| {
            key(s)
                .iter()
                .map(|&v| {
                    let (sym, v, t) = text(v);
                    if sym {
                        (1u8, 0, t)
                    } else {
                        (0u8, v, String::new())
                    }
                })
                .collect::<Vec<_>>()
        });
    } else {
        states.sort_unstable_by(|&a, &b| key(a).cmp(key(b)));
    }
    // Rows that differ only in what the filter alone names are one state
    // (their condition agrees: it names none of it); its runs add up.
    let mut counts: Vec<u64> = states.iter().map(|&s| table.rows[s].count).collect();
    if !program.filter_only.is_empty() {
        let mut merged: Vec<usize> = Vec::with_capacity(states.len());
        let mut merged_counts: Vec<u64> = Vec::with_capacity(states.len());
        for (&s, &n) in states.iter().zip(&counts) {
            match merged.last() {
                Some(&prev) if key(prev) == key(s) => {
                    *merged_counts.last_mut().expect("a state") += n;
                }
                _ => {
                    merged.push(s);
                    merged_counts.push(n);
                }
            }
        }
        states = merged;
        counts = merged_counts;
    }

    let (mut pos, mut neg) = (0u64, 0u64);
    for row in &table.rows {
        if row.satisfies.unwrap_or(true) {
            pos += row.count;
        } else {
            neg += row.count;
        }
    }
    let ok = match quantifier {
        Quantifier::Exists => pos > 0,
        Quantifier::NotExists => pos == 0,
        Quantifier::Forall => neg == 0,
    };
    let (wpos, wneg) = match quantifier {
        Quantifier::NotExists => (neg, pos),
        _ => (pos, neg),
    };
    let observation = match Verdict::from_counts(pos as usize, neg as usize) {
        Verdict::Never if mode.seen_only(table).is_some() => "Unobserved",
        Verdict::Never => "Never",
        Verdict::Sometimes => "Sometimes",
        Verdict::Always => "Always",
    };
    let quant = match quantifier {
        Quantifier::Exists => "exists",
        Quantifier::NotExists => "~exists",
        Quantifier::Forall => "forall",
    };

    let line: usize = entries
        .iter()
        .map(|e| e.prefix.len() + 4 * e.cols.len())
        .sum();
    let mut s = String::with_capacity(256 + states.len() * (line + 8));
    if let Some(model) = model {
        let _ = writeln!(s, "# model {model}");
    }
    if let Some((runs, seed)) = sampled {
        let _ = writeln!(
            s,
            "# {} of seed {seed}: outcomes no run reached may still be allowed",
            super::plural(runs, "sampled run")
        );
    }
    for bound in &table.bounds {
        let _ = writeln!(s, "# PARTIAL: {}", describe_bound(bound));
    }
    for failure in &table.failures {
        let _ = writeln!(s, "# FAILURE: {}", describe_failure(program, &failure.kind));
    }
    for line in mcr.map(mcr_lines).unwrap_or_default() {
        let _ = writeln!(s, "# {line}");
    }
    let _ = writeln!(s, "Test {} {kind}", program.name);
    match sampled {
        Some(_) => {
            let _ = writeln!(s, "Histogram ({} states)", states.len());
        }
        None => {
            let _ = writeln!(s, "States {}", states.len());
        }
    }
    let mut digits = itoa::Buffer::new();
    for (&state, &count) in states.iter().zip(&counts) {
        // litmus7: the run count, then `*>` where the condition holds.
        if sampled.is_some() {
            let row = &table.rows[state];
            let mark = if row.satisfies == Some(true) {
                '*'
            } else {
                ':'
            };
            let _ = write!(s, "{count:<6}{mark}>");
        }
        let mut values = key(state).iter();
        for (k, entry) in entries.iter().enumerate() {
            if k > 0 {
                s.push(' ');
            }
            s.push_str(&entry.prefix);
            if entry.array {
                s.push('{');
            }
            for (c, &v) in values.by_ref().take(entry.cols.len()).enumerate() {
                if c > 0 {
                    s.push(',');
                }
                if symbolic {
                    s.push_str(&program.value_text(v));
                } else {
                    s.push_str(digits.format(v));
                }
            }
            if entry.array {
                s.push('}');
            }
            s.push(';');
        }
        s.push('\n');
    }
    let unrolled = table
        .bounds
        .iter()
        .any(|b| matches!(b, BoundHit::Unroll(_)));
    // herd7's `Undef` in place of `Ok`/`No` (module docs, 4).
    let undefined = table.undefined();
    let _ = writeln!(
        s,
        "{}{}",
        if unrolled { "Loop " } else { "" },
        if undefined {
            "Undef"
        } else if ok {
            "Ok"
        } else {
            "No"
        }
    );
    let _ = writeln!(s, "Witnesses");
    let condition = format!("{quant} ({})", prop_text(program, &prop, Above::Top));
    match sampled {
        Some(_) => {
            let _ = writeln!(s, "Positive: {wpos}, Negative: {wneg}");
            let validated = if ok { "validated" } else { "NOT validated" };
            let _ = writeln!(s, "Condition {condition} is {validated}");
        }
        None => {
            let _ = writeln!(s, "Positive: {wpos} Negative: {wneg}");
            // herd7 lists every flag its executions raised, the undefined
            // one (`*undef*`) first, then the `flag` checks by name.
            if undefined {
                let _ = writeln!(s, "Flag *undef*");
            }
            for flag in &table.flags {
                let _ = writeln!(s, "Flag {flag}");
            }
            let _ = writeln!(s, "Condition {condition}");
        }
    }
    let _ = writeln!(s, "Observation {} {observation} {pos} {neg}", program.name);
    if show_time_and_hash {
        let _ = writeln!(s, "Time {} 0.00", program.name);
        let _ = writeln!(s, "Hash={:032x}", digest(program));
    }
    s.push('\n');
    s
}

/// `N:reg`, `[x]`, or `t[1]` for a cell of an array.
fn herd_name(program: &Program, o: Observable) -> String {
    match o {
        Observable::Reg(t, r) => format!("{}:{}", t.0, program.thread(t).regs[r.index()]),
        Observable::Loc(l) => herd_states::loc_name(program, l),
    }
}

/// Where a proposition is printed, for herd's parenthesising rules.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Above {
    Top,
    And,
    Or,
    Implies,
}

/// A proposition as herd7's printer (`ConstrGen.pp_prop`) writes it:
/// `not (P)` for a negation (and for `!=`), and parentheses exactly where
/// herd's grammar needs them, where `=>` binds tighter than `/\` and
/// `\/` but a chain of `/\` (or of `\/`, or of `=>`) needs none.
fn prop_text(program: &Program, p: &Prop, above: Above) -> String {
    let paren = |here: Above, text: String| {
        let needed = match (above, here) {
            (Above::Top, _) => false,
            (Above::Implies, Above::Implies) => false,
            (Above::Implies, _) => true,
            (Above::And, Above::And) => false,
            (Above::And, _) => true,
            (Above::Or, Above::Implies) => true,
            (Above::Or, _) => false,
        };
        if needed {
            format!("({text})")
        } else {
            text
        }
    };
    match p {
        Prop::True => "true".to_string(),
        Prop::False => "false".to_string(),
        Prop::Atom(o, CmpOp::Eq, v) => {
            format!("{}={}", herd_name(program, *o), program.value_text(*v))
        }
        Prop::Atom(o, CmpOp::Ne, v) => {
            format!(
                "not ({}={})",
                herd_name(program, *o),
                program.value_text(*v)
            )
        }
        Prop::Not(q) => format!("not ({})", prop_text(program, q, Above::Top)),
        Prop::And(a, b) => paren(
            Above::And,
            format!(
                "{} /\\ {}",
                prop_text(program, a, Above::And),
                prop_text(program, b, Above::And)
            ),
        ),
        Prop::Or(a, b) => paren(
            Above::Or,
            format!(
                "{} \\/ {}",
                prop_text(program, a, Above::Or),
                prop_text(program, b, Above::Or)
            ),
        ),
        Prop::Implies(a, b) => paren(
            Above::Implies,
            format!(
                "{} => {}",
                prop_text(program, a, Above::Implies),
                prop_text(program, b, Above::Implies)
            ),
        ),
    }
}

/// A 128-bit FNV-1a digest of the test's meaning: init values, the text
/// of every instruction, and the condition.
fn digest(program: &Program) -> u128 {
    const OFFSET: u128 = 0x6c62272e07bb014262b821756295c58d;
    const PRIME: u128 = 0x0000000001000000000000000000013B;
    let mut h = OFFSET;
    let mut feed = |s: &str| {
        for b in s.bytes().chain(std::iter::once(0)) {
            h ^= u128::from(b);
            h = h.wrapping_mul(PRIME);
        }
    };
    for l in &program.locations {
        feed(&format!("{}={}", l.name, l.init));
    }
    for t in &program.threads {
        feed(&t.name);
        for i in &t.code {
            feed(&i.text);
        }
    }
    if let Some(c) = &program.condition {
        feed(&prop_text(program, &c.prop, Above::Top));
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use relaxlab_semantics::ir::{
        Atomicity, Condition, Instr, Instruction, LocId, Location, Origin, RegId, Span, ThreadCode,
        ThreadId, ThreadKind,
    };
    use relaxlab_semantics::outcome::{OutcomeRow, Stats};

    /// A program with `threads` (name, registers), locations `locs`, the
    /// condition `cond` and the observed columns `observed`.
    fn program(
        threads: &[&[&str]],
        locs: &[&str],
        cond: Option<(Quantifier, Prop)>,
        observed: Vec<Observable>,
    ) -> Program {
        let end = Instruction {
            instr: Instr::End,
            span: Span::default(),
            line: 1,
            text: "end".to_string(),
            origin: Origin::Source,
        };
        Program {
            name: "T".to_string(),
            doc: None,
            locations: locs
                .iter()
                .map(|l| Location {
                    name: l.to_string(),
                    init: 0,
                    atomicity: Atomicity::Atomic,
                    span: Span::default(),
                })
                .collect(),
            threads: threads
                .iter()
                .enumerate()
                .map(|(i, regs)| ThreadCode {
                    name: format!("P{i}"),
                    kind: ThreadKind::TopLevel,
                    regs: regs.iter().map(|r| r.to_string()).collect(),
                    code: vec![end.clone()],
                    span: Span::default(),
                })
                .collect(),
            toplevel: threads.len(),
            condition: cond.map(|(quantifier, prop)| Condition {
                quantifier,
                prop,
                text: String::new(),
            }),
            filter: None,
            filter_only: Vec::new(),
            observed,
            expectations: Vec::new(),
            c: None,
            herd_reading: None,
            arrays: Vec::new(),
        }
    }

    fn table(program: &Program, rows: &[(&[Value], u64)]) -> OutcomeTable {
        let prop = program.condition.as_ref().map(|c| c.prop.clone());
        let mut rows: Vec<OutcomeRow> = rows
            .iter()
            .map(|(values, count)| OutcomeRow {
                values: values.to_vec(),
                satisfies: prop
                    .as_ref()
                    .map(|p| relaxlab_semantics::outcome::satisfies(program, p, values)),
                count: *count,
                racy: false,
                non_sc: false,
                witness: None,
            })
            .collect();
        rows.sort_by(|a, b| a.values.cmp(&b.values));
        OutcomeTable {
            model: "ax.rc11".to_string(),
            has_condition: prop.is_some(),
            rows,
            failures: Vec::new(),
            races: Vec::new(),
            race_witnesses: Vec::new(),
            flags: Vec::new(),
            undefined_by_cat: None,
            stats: Stats::default(),
            bounds: Vec::new(),
        }
    }

    fn reg(t: u32, r: u32) -> Observable {
        Observable::Reg(ThreadId(t), RegId(r))
    }

    fn atom(o: Observable, v: Value) -> Box<Prop> {
        Box::new(Prop::Atom(o, CmpOp::Eq, v))
    }

    #[test]
    fn store_buffering_prints_like_herd() {
        let p = program(
            &[&["r0"], &["r0"]],
            &["x", "y"],
            Some((
                Quantifier::Exists,
                Prop::And(atom(reg(0, 0), 0), atom(reg(1, 0), 0)),
            )),
            vec![reg(0, 0), reg(1, 0)],
        );
        let t = table(
            &p,
            &[(&[0, 0], 1), (&[0, 1], 1), (&[1, 0], 1), (&[1, 1], 1)],
        );
        assert_eq!(
            render(&p, &t, false),
            "Test T Allowed\nStates 4\n0:r0=0; 1:r0=0;\n0:r0=0; 1:r0=1;\n0:r0=1; 1:r0=0;\n\
             0:r0=1; 1:r0=1;\nOk\nWitnesses\nPositive: 1 Negative: 3\n\
             Condition exists (0:r0=0 /\\ 1:r0=0)\nObservation T Sometimes 1 3\n\n"
        );
    }

    #[test]
    fn not_exists_swaps_the_witness_counts_but_not_the_observation() {
        let p = program(
            &[&[], &["r0", "r1"]],
            &["x", "y"],
            Some((
                Quantifier::NotExists,
                Prop::And(atom(reg(1, 0), 1), atom(reg(1, 1), 0)),
            )),
            vec![reg(1, 0), reg(1, 1)],
        );
        let t = table(&p, &[(&[0, 0], 1), (&[0, 1], 2), (&[1, 1], 1)]);
        let out = render(&p, &t, false);
        assert!(out.starts_with("Test T Forbidden\nStates 3\n"), "{out}");
        assert!(
            out.contains("\nOk\nWitnesses\nPositive: 4 Negative: 0\n"),
            "{out}"
        );
        assert!(
            out.contains("Condition ~exists (1:r0=1 /\\ 1:r1=0)\n"),
            "{out}"
        );
        assert!(out.contains("Observation T Never 0 4\n"), "{out}");
    }

    #[test]
    fn states_put_registers_first_in_herd_order_and_bracket_locations() {
        // Observed in condition order: y, 0:EBX, 0:EAX, x.
        let p = program(
            &[&["EBX", "EAX"]],
            &["y", "x"],
            Some((
                Quantifier::Forall,
                Prop::Or(
                    atom(Observable::Loc(LocId(0)), 2),
                    Box::new(Prop::And(atom(reg(0, 0), -1), atom(reg(0, 1), 0))),
                ),
            )),
            vec![
                Observable::Loc(LocId(0)),
                reg(0, 0),
                reg(0, 1),
                Observable::Loc(LocId(1)),
            ],
        );
        let t = table(&p, &[(&[2, 0, 5, 1], 1), (&[1, -1, 0, 1], 3)]);
        let out = render(&p, &t, true);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "Test T Required");
        assert_eq!(lines[2], "0:EAX=0; 0:EBX=-1; [x]=1; [y]=1;");
        assert_eq!(lines[3], "0:EAX=5; 0:EBX=0; [x]=1; [y]=2;");
        assert_eq!(lines[4], "Ok");
        assert_eq!(lines[6], "Positive: 4 Negative: 0");
        assert_eq!(
            lines[7],
            "Condition forall ([y]=2 \\/ 0:EBX=-1 /\\ 0:EAX=0)"
        );
        assert_eq!(lines[8], "Observation T Always 4 0");
        assert_eq!(lines[9], "Time T 0.00");
        assert!(
            lines[10].starts_with("Hash=") && lines[10].len() == 37,
            "{}",
            lines[10]
        );
    }

    /// `exists (0:r0=1)` with the outcomes `r0=0` and `r0=1`.
    fn r0_is_0_or_1() -> (Program, OutcomeTable) {
        let p = program(
            &[&["r0"]],
            &[],
            Some((Quantifier::Exists, *atom(reg(0, 0), 1))),
            vec![reg(0, 0)],
        );
        let t = table(&p, &[(&[0], 1), (&[1], 1)]);
        (p, t)
    }

    #[test]
    fn a_racy_execution_makes_the_result_undef() {
        let (p, mut t) = r0_is_0_or_1();
        let plain = render(&p, &t, false);
        assert!(plain.lines().any(|l| l == "Ok"), "{plain}");
        t.rows[1].racy = true;
        let racy = render(&p, &t, false);
        assert!(racy.lines().any(|l| l == "Undef"), "{racy}");
        assert!(racy.contains("Negative: 1\nFlag *undef*\n"), "{racy}");
        assert!(!racy.lines().any(|l| l == "Ok" || l == "No"), "{racy}");
        assert!(!plain.contains("Flag"), "{plain}");
    }

    #[test]
    fn a_cat_model_decides_what_is_undefined() {
        let (p, mut t) = r0_is_0_or_1();
        // Racy rows from a fired `flag` only: herd7 validates the test
        // and names the flag.
        t.rows[1].racy = true;
        t.flags = vec!["a".into(), "b".into()];
        t.undefined_by_cat = Some(false);
        let flagged = render(&p, &t, false);
        assert!(flagged.lines().any(|l| l == "Ok"), "{flagged}");
        assert!(
            flagged.contains("Negative: 1\nFlag a\nFlag b\nCondition"),
            "{flagged}"
        );
        // An `undefined_unless` failure: `Undef`, and its flag first.
        t.undefined_by_cat = Some(true);
        let undefined = render(&p, &t, false);
        assert!(undefined.lines().any(|l| l == "Undef"), "{undefined}");
        assert!(
            undefined.contains("Negative: 1\nFlag *undef*\nFlag a\nFlag b\n"),
            "{undefined}"
        );
    }

    #[test]
    fn a_failed_forall_says_no() {
        let p = program(
            &[&["r0"]],
            &[],
            Some((
                Quantifier::Forall,
                Prop::Not(Box::new(Prop::Implies(
                    atom(reg(0, 0), 1),
                    Box::new(Prop::False),
                ))),
            )),
            vec![reg(0, 0)],
        );
        let t = table(&p, &[(&[0], 2), (&[1], 1)]);
        let out = render(&p, &t, false);
        assert!(
            out.contains("\nNo\nWitnesses\nPositive: 1 Negative: 2\n"),
            "{out}"
        );
        assert!(
            out.contains("Condition forall (not (0:r0=1 => false))\n"),
            "{out}"
        );
        assert!(out.contains("Observation T Sometimes 1 2\n"), "{out}");
    }
}
