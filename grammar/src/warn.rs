//! Warnings: a test that loads and runs, but very likely does not say what
//! its author meant.
//!
//! Threads are numbered in the order they are declared
//! (book: language.md, Threads), and a condition may name a thread by its
//! number: `1:r0` is a register of the second thread declared. With
//! threads named `P0`, `P1`, ... out of order (`thread P1` first), `1:r0`
//! then names `P0`, not `P1`, silently. herd7's files number their threads
//! in their header, where relaxlab refuses `P1` before `P0`; a relaxlab
//! test gets this warning at each number that names a thread other than
//! the one called `P` and that number.

use miette::{Diagnostic, SourceSpan};
use thiserror::Error;

use crate::ast::{ObsItem, Prop, PropKind, Test, ThreadRef};
use crate::diag::sspan;

/// A thread number that names another thread than the one its `P` name
/// suggests.
#[derive(Debug, Error, Diagnostic, Clone, PartialEq, Eq)]
#[error("`{index}:` names thread {index}, which is `{actual}`, not `{named}`")]
#[diagnostic(
    code(relaxlab::lower::thread_number),
    severity(Warning),
    help("threads are numbered in the order they are declared; name the thread (`{named}:...`), or declare them in the order of their numbers")
)]
pub struct ThreadNumber {
    pub index: u32,
    pub actual: String,
    pub named: String,
    #[label("thread {index}: `{actual}`")]
    pub span: SourceSpan,
    #[label("`{named}` is thread {declared}")]
    pub declared_span: SourceSpan,
    pub declared: usize,
}

/// The warnings of a parsed test.
pub fn warnings(test: &Test) -> Vec<ThreadNumber> {
    let mut out = Vec::new();
    let mut check = |item: &ObsItem| {
        let ObsItem::Reg {
            thread: ThreadRef::Index(index, span),
            ..
        } = item
        else {
            return;
        };
        let named = format!("P{index}");
        let Some(actual) = test.threads.get(*index as usize) else {
            return;
        };
        if actual.name.name == named {
            return;
        }
        if let Some((declared, decl)) = test
            .threads
            .iter()
            .enumerate()
            .find(|(_, t)| t.name.name == named)
        {
            let warning = ThreadNumber {
                index: *index,
                actual: actual.name.name.clone(),
                named,
                span: sspan(*span),
                declared_span: sspan(decl.name.span),
                declared,
            };
            if !out.contains(&warning) {
                out.push(warning);
            }
        }
    };
    let mut props: Vec<&Prop> = Vec::new();
    props.extend(test.condition.as_ref().map(|c| &c.prop));
    props.extend(test.filter.as_ref());
    while let Some(p) = props.pop() {
        match &p.kind {
            PropKind::True | PropKind::False => {}
            PropKind::Atom { obs, .. } => check(obs),
            PropKind::Not(a) => props.push(a),
            PropKind::And(ps) | PropKind::Or(ps) => props.extend(ps.iter()),
            PropKind::Implies(a, b) => {
                props.push(a);
                props.push(b);
            }
        }
    }
    for item in &test.observe {
        check(item);
    }
    out.sort_by_key(|w| w.span.offset());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn warned(src: &str) -> Vec<String> {
        warnings(&crate::parse(src).unwrap())
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn a_number_naming_another_p_thread_is_warned_about() {
        let swapped = "test T\ninit { x = 0; }\nthread P1 { r0 = load(x, rlx); }\nthread P0 { store(x, 1, rlx); }\nexists (1:r0 = 1 /\\ 0:r0 = 0)\n";
        assert_eq!(
            warned(swapped),
            vec![
                "`1:` names thread 1, which is `P0`, not `P1`",
                "`0:` names thread 0, which is `P1`, not `P0`",
            ]
        );
        // Names, numbers of threads in order, and other names: nothing.
        assert!(warned(&swapped.replace("1:r0", "P1:r0").replace("0:r0", "P1:r0")).is_empty());
        let ordered = "test T\ninit { x = 0; }\nthread P0 { store(x, 1, rlx); }\nthread P1 { r0 = load(x, rlx); }\nexists (1:r0 = 1)\n";
        assert!(warned(ordered).is_empty());
        let other = "test T\ninit { x = 0; }\nthread B { r0 = load(x, rlx); }\nthread A { store(x, 1, rlx); }\nexists (0:r0 = 1)\n";
        assert!(warned(other).is_empty());
    }
}
