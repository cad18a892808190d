//! The jumps of an X86 thread as relaxlab's `if` and `while`
//! (book: herd.md, Jumps).
//!
//! herd7 runs assembly as a control-flow graph: a conditional jump
//! branches, an unconditional one goes on at its label, and a jump back to
//! an earlier instruction is followed at most `-unroll` times (2 by
//! default) on each path, beyond which the path is cut off and its
//! execution dropped (herd prints `Loop` before `Ok`/`No`).
//!
//! relaxlab's language is structured, so the graph of each thread is
//! rebuilt as structured code:
//! - **Forward jumps** (an acyclic graph) become nested `if`/`else`: at a
//!   conditional jump both successors are written out in full, so code
//!   after the point where two paths meet is written once on each path
//!   (tail duplication). Each path runs the same instructions in the same
//!   order as in herd, and what follows a branch depends on it, as in
//!   herd's `ctrl`.
//! - **A loop** is a jump back to a label `L` whose body (the instructions
//!   from which that jump can be reached without passing `L`) is entered
//!   only at `L` and left only by falling through that jump. It becomes
//!   `BODY; while (COND) { BODY }` (a do-while), or `while (1)` after an
//!   unconditional jump back. Under `--unroll 2` the body then runs at
//!   most three times, as under herd's default bound, and an execution
//!   needing more is dropped, as herd drops it.
//! - `RET` ends the thread.
//!
//! Any other shape (a jump into a loop's body, out of it, a second jump
//! back to the same label, nested loops) is refused, naming the jump, as
//! is a jump to a label the thread does not have. A graph whose tail
//! duplication would write more than [`MAX_LINES`] statements is refused.

use std::collections::{BTreeMap, BTreeSet};

use relaxlab_semantics::ir::Span;

use super::instr::Target;
use crate::herd::error::HerdError;

/// The most statements one thread's translation may have.
pub(super) const MAX_LINES: usize = 10_000;

/// What one instruction does to the control flow.
#[derive(Clone, Debug)]
pub(super) enum Step {
    /// Straight-line statements, then the next instruction.
    Seq(Vec<String>),
    /// Go on at the label.
    Jump(Target),
    /// If the condition (an expression over registers) holds, go on at
    /// the label, else at the next instruction; the condition's negation
    /// is written for an `if` whose taken side is empty.
    Branch(Test, Target),
    /// The thread ends.
    Exit,
}

/// A jump's condition and its negation, as relaxlab expressions.
#[derive(Clone, Debug)]
pub(super) struct Test {
    pub holds: String,
    pub fails: String,
}

/// One instruction of a thread.
#[derive(Clone, Debug)]
pub(super) struct Node {
    pub labels: Vec<(String, Span)>,
    pub step: Step,
}

/// A loop: the jump back to its header, and its body.
#[derive(Clone, Debug)]
struct Loop {
    latch: usize,
    body: BTreeSet<usize>,
}

/// A thread's graph of instructions (node `n` is the end of the thread).
struct Graph<'a> {
    nodes: &'a [Node],
    /// The instruction each jump goes to.
    targets: Vec<Option<usize>>,
    loops: Vec<Loop>,
    /// The loop each header opens.
    header_of: BTreeMap<usize, usize>,
    lines: usize,
    thread: &'a str,
}

/// The relaxlab lines of a thread (indented by one level) whose
/// instructions are `nodes`; `end_labels` are the labels after the last
/// instruction.
pub(super) fn structure(
    nodes: &[Node],
    end_labels: &[(String, Span)],
    thread: &str,
) -> Result<Vec<String>, HerdError> {
    let straight = nodes.iter().all(|n| matches!(n.step, Step::Seq(_)));
    if straight {
        return Ok(nodes
            .iter()
            .flat_map(|n| match &n.step {
                Step::Seq(lines) => lines.iter().map(|l| format!("  {l}")).collect(),
                _ => Vec::new(),
            })
            .collect());
    }
    let mut labels: BTreeMap<&str, usize> = BTreeMap::new();
    let all = nodes
        .iter()
        .enumerate()
        .flat_map(|(i, n)| n.labels.iter().map(move |l| (i, l)))
        .chain(end_labels.iter().map(|l| (nodes.len(), l)));
    for (i, (l, span)) in all {
        if labels.insert(l, i).is_some() {
            return Err(HerdError::unsupported(
                format!("a second label `{l}` in {thread}"),
                *span,
                "each label of a thread names one instruction",
            ));
        }
    }
    let mut targets = Vec::with_capacity(nodes.len());
    for n in nodes {
        targets.push(match &n.step {
            Step::Jump(t) | Step::Branch(_, t) => match labels.get(t.label.as_str()) {
                Some(&i) => Some(i),
                None => {
                    return Err(HerdError::unsupported(
                        format!("a jump to `{}`, a label {thread} does not have,", t.label),
                        t.span,
                        "a jump goes to a label `L:` of its own thread",
                    ))
                }
            },
            _ => None,
        });
    }
    let mut g = Graph {
        nodes,
        targets,
        loops: Vec::new(),
        header_of: BTreeMap::new(),
        lines: 0,
        thread,
    };
    g.find_loops()?;
    let mut out = Vec::new();
    g.emit(0, None, 1, &mut out)?;
    Ok(out)
}

impl Graph<'_> {
    fn n(&self) -> usize {
        self.nodes.len()
    }

    /// The successors of instruction `i` (the end has none).
    fn succs(&self, i: usize) -> Vec<usize> {
        if i >= self.n() {
            return Vec::new();
        }
        match (&self.nodes[i].step, self.targets[i]) {
            (Step::Seq(_), _) => vec![i + 1],
            (Step::Jump(_), Some(t)) => vec![t],
            (Step::Branch(..), Some(t)) => vec![t, i + 1],
            _ => Vec::new(),
        }
    }

    /// The jump of instruction `i`, for diagnostics.
    fn jump_span(&self, i: usize) -> Span {
        match &self.nodes[i].step {
            Step::Jump(t) | Step::Branch(_, t) => t.span,
            _ => Span::new(0, 0),
        }
    }

    fn refuse(&self, at: usize, what: &str, help: &str) -> HerdError {
        HerdError::unsupported(
            format!("{what} in {}", self.thread),
            self.jump_span(at),
            help.to_string(),
        )
    }

    /// Finds the back edges of a depth-first search from the first
    /// instruction and checks each one closes a loop of the supported
    /// shape.
    fn find_loops(&mut self) -> Result<(), HerdError> {
        let n = self.n();
        // 0: unseen, 1: on the stack, 2: done.
        let mut color = vec![0u8; n + 1];
        let mut back: Vec<(usize, usize)> = Vec::new();
        let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
        color[0] = 1;
        while let Some(&mut (v, ref mut k)) = stack.last_mut() {
            let succs = self.succs(v);
            if let Some(&w) = succs.get(*k) {
                *k += 1;
                match color[w] {
                    0 => {
                        color[w] = 1;
                        stack.push((w, 0));
                    }
                    1 => back.push((v, w)),
                    _ => {}
                }
            } else {
                color[v] = 2;
                stack.pop();
            }
        }
        let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
        for v in 0..n {
            for w in self.succs(v) {
                preds[w].push(v);
            }
        }
        for &(latch, header) in &back {
            if self.header_of.contains_key(&header) {
                return Err(self.refuse(
                    latch,
                    "a second jump back to the same label",
                    "a loop is closed by one jump back to its label",
                ));
            }
            // The natural loop: what reaches the latch without the header.
            let mut body = BTreeSet::from([header, latch]);
            let mut work = vec![latch];
            while let Some(v) = work.pop() {
                if v == header {
                    continue;
                }
                for &p in &preds[v] {
                    if body.insert(p) {
                        work.push(p);
                    }
                }
            }
            for &v in &body {
                if v != header {
                    if let Some(&p) = preds[v].iter().find(|p| !body.contains(p)) {
                        return Err(self.refuse(
                            p,
                            "a jump into the middle of a loop",
                            "a loop is entered at its label only",
                        ));
                    }
                }
                let leaves = self.succs(v).into_iter().any(|w| !body.contains(&w));
                let ends = matches!(self.nodes[v].step, Step::Exit);
                if (leaves && v != latch) || ends {
                    return Err(HerdError::unsupported(
                        format!(
                            "a way out of a loop other than its closing jump in {}",
                            self.thread
                        ),
                        self.jump_span(latch),
                        "a loop ends by falling through the jump that closes it",
                    ));
                }
            }
            if let Some(other) = self.loops.iter().find(|l| !l.body.is_disjoint(&body)) {
                return Err(self.refuse(
                    other.latch.max(latch),
                    "nested loops",
                    "write the test in relaxlab's language, with `while`",
                ));
            }
            self.header_of.insert(header, self.loops.len());
            self.loops.push(Loop { latch, body });
        }
        Ok(())
    }

    /// Pushes a line, counting.
    fn push(&mut self, depth: usize, line: String, out: &mut Vec<String>) -> Result<(), HerdError> {
        self.lines += 1;
        if self.lines > MAX_LINES {
            return Err(HerdError::unsupported(
                format!(
                    "jumps that expand to more than {MAX_LINES} statements in {}",
                    self.thread
                ),
                self.jump_span(
                    self.targets
                        .iter()
                        .position(|t| t.is_some())
                        .unwrap_or_default(),
                ),
                "write the test in relaxlab's language, with `if` and `while`",
            ));
        }
        out.push(format!("{}{line}", "  ".repeat(depth)));
        Ok(())
    }

    /// Writes the paths from instruction `i` until the end of the thread
    /// (or, inside loop `inside`, until its closing jump).
    fn emit(
        &mut self,
        mut i: usize,
        inside: Option<usize>,
        depth: usize,
        out: &mut Vec<String>,
    ) -> Result<(), HerdError> {
        loop {
            if i >= self.n() {
                return Ok(());
            }
            if let Some(lp) = inside {
                if i == self.loops[lp].latch {
                    return Ok(());
                }
            }
            if let Some(&lp) = self.header_of.get(&i) {
                if inside != Some(lp) {
                    let latch = self.loops[lp].latch;
                    let cond = match &self.nodes[latch].step {
                        Step::Branch(c, _) => c.holds.clone(),
                        _ => "1".to_string(),
                    };
                    self.emit(i, Some(lp), depth, out)?;
                    self.push(depth, format!("while ({cond}) {{"), out)?;
                    self.emit(i, Some(lp), depth + 1, out)?;
                    self.push(depth, "}".to_string(), out)?;
                    match self.nodes[latch].step {
                        Step::Branch(..) => {
                            i = latch + 1;
                            continue;
                        }
                        _ => return Ok(()),
                    }
                }
            }
            match &self.nodes[i].step {
                Step::Seq(lines) => {
                    for l in lines.clone() {
                        self.push(depth, l, out)?;
                    }
                    i += 1;
                }
                Step::Jump(_) => i = self.targets[i].unwrap_or(self.n()),
                Step::Branch(c, _) => {
                    let c = c.clone();
                    let taken = self.targets[i].unwrap_or(self.n());
                    let mut then = Vec::new();
                    self.emit(taken, inside, depth + 1, &mut then)?;
                    let mut els = Vec::new();
                    self.emit(i + 1, inside, depth + 1, &mut els)?;
                    if then.is_empty() && els.is_empty() {
                        return Ok(());
                    }
                    if then.is_empty() {
                        self.push(depth, format!("if ({}) {{", c.fails), out)?;
                        out.extend(els);
                    } else {
                        self.push(depth, format!("if ({}) {{", c.holds), out)?;
                        out.extend(then);
                        if !els.is_empty() {
                            self.push(depth, "} else {".to_string(), out)?;
                            out.extend(els);
                        }
                    }
                    self.push(depth, "}".to_string(), out)?;
                    return Ok(());
                }
                Step::Exit => return Ok(()),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seq(s: &str) -> Node {
        Node {
            labels: Vec::new(),
            step: Step::Seq(vec![s.to_string()]),
        }
    }

    fn target(l: &str) -> Target {
        Target {
            label: l.to_string(),
            span: Span::new(0, 1),
        }
    }

    fn labelled(l: &str, mut n: Node) -> Node {
        n.labels.push((l.to_string(), Span::new(0, 1)));
        n
    }

    fn branch(c: &str, l: &str) -> Node {
        let test = Test {
            holds: c.to_string(),
            fails: format!("!{c}"),
        };
        Node {
            labels: Vec::new(),
            step: Step::Branch(test, target(l)),
        }
    }

    fn jump(l: &str) -> Node {
        Node {
            labels: Vec::new(),
            step: Step::Jump(target(l)),
        }
    }

    fn text(nodes: &[Node], end: &[&str]) -> String {
        let end: Vec<_> = end
            .iter()
            .map(|l| (l.to_string(), Span::new(0, 1)))
            .collect();
        structure(nodes, &end, "P0").unwrap().join("\n")
    }

    fn refused(nodes: &[Node]) -> String {
        structure(nodes, &[], "P0").unwrap_err().to_string()
    }

    #[test]
    fn a_forward_jump_over_code_is_an_if() {
        let nodes = [seq("a;"), branch("c", "L"), seq("b;")];
        assert_eq!(text(&nodes, &["L"]), "  a;\n  if (!c) {\n    b;\n  }");
    }

    #[test]
    fn code_where_paths_meet_is_written_on_each_path() {
        // a; if c goto L; b; L: d  (herd's A006 shape, with a jump back
        // to a join point).
        let nodes = [
            seq("a;"),
            branch("c", "L1"),
            labelled("L0", seq("b;")),
            Node {
                labels: Vec::new(),
                step: Step::Exit,
            },
            labelled("L1", seq("d;")),
            jump("L0"),
        ];
        assert_eq!(
            text(&nodes, &[]),
            "  a;\n  if (c) {\n    d;\n    b;\n  } else {\n    b;\n  }"
        );
    }

    #[test]
    fn a_jump_back_is_a_do_while() {
        let nodes = [
            seq("a;"),
            labelled("L", seq("b;")),
            branch("c", "L"),
            seq("d;"),
        ];
        assert_eq!(
            text(&nodes, &[]),
            "  a;\n  b;\n  while (c) {\n    b;\n  }\n  d;"
        );
        let forever = [labelled("L", seq("b;")), jump("L")];
        assert_eq!(text(&forever, &[]), "  b;\n  while (1) {\n    b;\n  }");
    }

    #[test]
    fn branches_inside_a_loop_end_at_its_closing_jump() {
        let nodes = [
            labelled("L", seq("a;")),
            branch("p", "M"),
            seq("b;"),
            labelled("M", branch("c", "L")),
        ];
        assert_eq!(
            text(&nodes, &[]),
            "  a;\n  if (!p) {\n    b;\n  }\n  while (c) {\n    a;\n    if (!p) {\n      b;\n    }\n  }"
        );
    }

    #[test]
    fn other_shapes_are_refused_by_name() {
        // Out of the loop from its middle.
        let exit = [
            labelled("L", seq("a;")),
            branch("p", "E"),
            branch("c", "L"),
            labelled("E", seq("e;")),
        ];
        assert!(
            refused(&exit).contains("a way out of a loop"),
            "{}",
            refused(&exit)
        );
        // Into the loop's middle: an irreducible graph, whose depth-first
        // search may find either jump closing a loop.
        let into = [
            branch("p", "M"),
            labelled("L", seq("a;")),
            labelled("M", seq("b;")),
            branch("c", "L"),
        ];
        assert!(refused(&into).contains("loop"), "{}", refused(&into));
        let into_from_before = [
            seq("x;"),
            branch("p", "M"),
            jump("E"),
            labelled("L", seq("a;")),
            labelled("M", seq("b;")),
            branch("c", "L"),
            labelled("E", seq("e;")),
        ];
        assert!(
            refused(&into_from_before).contains("loop"),
            "{}",
            refused(&into_from_before)
        );
        // Unknown and repeated labels.
        assert!(refused(&[jump("X")]).contains("a label P0 does not have"));
        let twice = [
            labelled("L", seq("a;")),
            labelled("L", seq("b;")),
            jump("L"),
        ];
        assert!(refused(&twice).contains("a second label `L`"));
    }

    #[test]
    fn tail_duplication_is_bounded() {
        // 16 diamonds in a row: 2^16 paths.
        let mut nodes = Vec::new();
        for k in 0..16 {
            nodes.push(branch("c", &format!("L{k}")));
            nodes.push(labelled(&format!("L{k}"), seq("a;")));
        }
        assert!(refused(&nodes).contains("more than 10000 statements"));
    }
}
