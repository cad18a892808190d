//! Helpers shared by the front end's tests.
#![allow(dead_code)]

use relaxlab_semantics::ir::{Program, Span};

/// `p` with every span and line cleared: two programs equal after this
/// differ at most in where their source text was.
pub fn without_spans(mut p: Program) -> Program {
    for l in &mut p.locations {
        l.span = Span::default();
    }
    for t in &mut p.threads {
        t.span = Span::default();
        for i in &mut t.code {
            i.span = Span::default();
            i.line = 0;
        }
    }
    for e in &mut p.expectations {
        e.span = Span::default();
    }
    p
}

/// Every comment of `src` (`//` to the end of the line, `/* */`), in
/// order, outside the doc string.
pub fn comments(src: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let b = src.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' && b[i] != b'\n' {
                    i += 1;
                }
                i += 1;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                let end = src[i..].find('\n').map_or(src.len(), |k| i + k);
                out.push(src[i..end].trim_end_matches('\r'));
                i = end;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let end = src[i + 2..].find("*/").map_or(src.len(), |k| i + 2 + k + 2);
                out.push(&src[i..end]);
                i = end;
            }
            _ => i += 1,
        }
    }
    out
}
