//! The cat lexer (herd7's `modelLexer.mll`): names may contain `.` and
//! `-` (`po-loc`, `DMB.SY`) and end with a quote; `'name` is a tag;
//! comments are OCaml's nested `(* *)` and line comments from `//` or `#`;
//! the only number is `0`, the empty relation; `^-1` is the inverse.

use logos::Logos;

/// A token; borrowed text points into the source.
#[derive(Logos, Clone, Copy, Debug, PartialEq, Eq)]
#[logos(skip r"[ \t\r\n\f]+")]
#[logos(skip r"//[^\n]*")]
#[logos(skip r"#[^\n]*")]
pub(crate) enum Tok<'s> {
    /// `(* ... *)`, nested; false when never closed.
    #[token("(*", comment)]
    Comment(bool),
    #[token("(")]
    LPar,
    #[token(")")]
    RPar,
    #[token("{")]
    LBrace,
    #[token("}")]
    RBrace,
    #[token("[")]
    LBrack,
    #[token("]")]
    RBrack,
    #[token("_")]
    Underscore,
    #[token("0")]
    Zero,
    #[token("|")]
    Bar,
    #[token("||")]
    Alt,
    #[token("&")]
    Amp,
    #[token("&&")]
    AmpAmp,
    #[token("*")]
    Star,
    #[token("~")]
    Tilde,
    #[token("+")]
    Plus,
    #[token("++")]
    PlusPlus,
    #[token("^")]
    Hat,
    #[token("-1")]
    MinusOne,
    #[token("\\")]
    Backslash,
    #[token("?")]
    Question,
    #[token("=")]
    Eq,
    #[token(";")]
    Semi,
    #[token(",")]
    Comma,
    #[token("->")]
    Arrow,
    #[regex(r#""[^"]*""#, |lex| { let s = lex.slice(); &s[1..s.len() - 1] })]
    Str(&'s str),
    #[regex(r"'_?[a-zA-Z][a-zA-Z0-9_.\-]*'?", |lex| &lex.slice()[1..])]
    Tag(&'s str),
    #[regex(r"_?[a-zA-Z][a-zA-Z0-9_.\-]*'?")]
    Name(&'s str),
}

/// Skips a nested comment; false when the file ends inside it.
fn comment<'s>(lex: &mut logos::Lexer<'s, Tok<'s>>) -> bool {
    let rest = lex.remainder().as_bytes();
    let mut depth = 1;
    let mut i = 0;
    while i < rest.len() {
        if rest[i..].starts_with(b"(*") {
            depth += 1;
            i += 2;
        } else if rest[i..].starts_with(b"*)") {
            depth -= 1;
            i += 2;
            if depth == 0 {
                lex.bump(i);
                return true;
            }
        } else {
            i += 1;
        }
    }
    lex.bump(rest.len());
    false
}

/// The words of cat that are not names (herd7's `do_check_keyword`).
pub(crate) const KEYWORDS: &[&str] = &[
    "let",
    "rec",
    "and",
    "when",
    "acyclic",
    "irreflexive",
    "show",
    "unshow",
    "empty",
    "subset",
    "as",
    "fun",
    "in",
    "undefined_unless",
    "flag",
    "include",
    "begin",
    "end",
    "procedure",
    "call",
    "enum",
    "debug",
    "match",
    "with",
    "forall",
    "from",
    "do",
    "try",
    "if",
    "then",
    "else",
    "yield",
    "instructions",
    "default",
    "compat",
    "variant",
    "not",
];

/// A lexed token and its byte range.
pub(crate) type Spanned<'s> = (Tok<'s>, usize, usize);

/// What stopped the lexer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum LexFailure {
    /// A character that is not part of cat, at this range.
    Char(usize, usize),
    /// A comment opened here is never closed.
    Comment(usize, usize),
}

/// Every token of `src`, comments dropped.
pub(crate) fn lex(src: &str) -> Result<Vec<Spanned<'_>>, LexFailure> {
    let mut out = Vec::new();
    let mut lexer = Tok::lexer(src);
    while let Some(tok) = lexer.next() {
        let r = lexer.span();
        match tok {
            Ok(Tok::Comment(true)) => {}
            Ok(Tok::Comment(false)) => return Err(LexFailure::Comment(r.start, r.start + 2)),
            Ok(t) => out.push((t, r.start, r.end)),
            Err(()) => return Err(LexFailure::Char(r.start, r.end)),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<Tok<'_>> {
        lex(s).unwrap().into_iter().map(|t| t.0).collect()
    }

    #[test]
    fn names_operators_and_comments() {
        assert_eq!(
            toks("let po-loc = rf^-1 (* a (* nested *) comment *) ; _RMW # line\n'tag _ 0"),
            vec![
                Tok::Name("let"),
                Tok::Name("po-loc"),
                Tok::Eq,
                Tok::Name("rf"),
                Tok::Hat,
                Tok::MinusOne,
                Tok::Semi,
                Tok::Name("_RMW"),
                Tok::Tag("tag"),
                Tok::Underscore,
                Tok::Zero,
            ]
        );
        assert_eq!(
            toks("a||b|c++d"),
            vec![
                Tok::Name("a"),
                Tok::Alt,
                Tok::Name("b"),
                Tok::Bar,
                Tok::Name("c"),
                Tok::PlusPlus,
                Tok::Name("d")
            ]
        );
        assert_eq!(lex("(* open"), Err(LexFailure::Comment(0, 2)));
        assert_eq!(lex("a $ b"), Err(LexFailure::Char(2, 3)));
        assert_eq!(
            toks(r#"include "x86fences.cat""#),
            vec![Tok::Name("include"), Tok::Str("x86fences.cat")]
        );
    }
}
