//! The IR listing of `relaxlab parse --ir`: what the engines will run,
//! instruction by instruction, with jump targets.

use std::fmt::Write;

use relaxlab_semantics::ir::{Atomicity, Instr, Origin, Program, Subject, ThreadKind};

/// Lists threads (numbered instructions with their targets and source
/// lines), locations with their atomicity, observed columns, the
/// condition, the filter and the expectations.
pub(crate) fn ir_listing(p: &Program) -> String {
    let mut out = String::new();
    let _ = write!(out, "test {}", p.name);
    if let Some(doc) = &p.doc {
        let _ = write!(out, " \"{doc}\"");
    }
    out.push_str("\n\nlocations:\n");
    if p.locations.is_empty() {
        out.push_str("  (none)\n");
    }
    for l in &p.locations {
        let atomicity = match l.atomicity {
            Atomicity::Atomic => "atomic",
            Atomicity::NonAtomic => "non-atomic",
            Atomicity::Mixed => "mixed",
        };
        let _ = writeln!(out, "  {} = {} ({atomicity})", l.name, l.init);
    }
    for (t, th) in p.threads.iter().enumerate() {
        let kind = match th.kind {
            ThreadKind::TopLevel => "top-level".to_string(),
            ThreadKind::Forked { parent, at } => {
                format!("forked by {} at {}", p.thread(parent).name, at.0)
            }
        };
        let _ = writeln!(out, "\nthread {t} {} ({kind})", th.name);
        let _ = writeln!(out, "  registers: {}", list_or_none(&th.regs));
        for (i, ins) in th.code.iter().enumerate() {
            let target = match &ins.instr {
                Instr::Branch { target, .. } => format!("  (if false -> {})", target.0),
                Instr::Jump { target } => format!("  (-> {})", target.0),
                _ => String::new(),
            };
            let origin = match ins.origin {
                Origin::Source => "",
                Origin::Mapping => " [mapping]",
                Origin::Unroll => " [unroll]",
            };
            let line = format!("{}{target}{origin}", ins.text);
            let _ = writeln!(out, "  {i:>3}  {line:<48} line {}", ins.line);
        }
    }
    let observed: Vec<String> = p.observed.iter().map(|o| p.observable_name(*o)).collect();
    let _ = writeln!(out, "\nobserved: {}", list_or_none(&observed));
    match &p.condition {
        Some(c) => {
            let _ = writeln!(out, "condition: {}", c.text);
        }
        None => out.push_str("condition: (none)\n"),
    }
    if p.filter.is_some() {
        out.push_str("filter: yes\n");
    }
    let expect: Vec<String> = p
        .expectations
        .iter()
        .map(|e| {
            let suffix = match e.subject {
                Subject::Condition => "",
                Subject::Failure => ".assert",
            };
            format!("{}{suffix}: {}", e.model, e.verdict)
        })
        .collect();
    let _ = writeln!(out, "expect: {}", list_or_none(&expect));
    out
}

fn list_or_none(items: &[String]) -> String {
    if items.is_empty() {
        "(none)".to_string()
    } else {
        items.join(", ")
    }
}
