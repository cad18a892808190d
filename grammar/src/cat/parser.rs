//! The cat parser: recursive descent for instructions, precedence
//! climbing for expressions, following herd7's `modelParser.mly`.
//!
//! The instructions are parsed in `instructions`, the expressions in
//! `expr`.
//!
//! book: cat.md, What a cat file is

use super::ast::*;
use super::error::Fail;
use super::lexer::{lex, LexFailure, Spanned, Tok, KEYWORDS};

mod expr;
mod instructions;

/// Parses file number `file` of a model.
pub(crate) fn parse(file: u32, src: &str) -> Result<Model, Fail> {
    let toks = lex(src).map_err(|e| match e {
        LexFailure::Char(s, e) => Fail::new(
            "relaxlab::cat::lex",
            Span::new(file, s, e),
            format!("unexpected character `{}`", &src[s..e]),
            "not part of the cat language",
            "cat has names, tags ('name), strings, `0`, comments (* *) and the operators | ++ ; \\ & * + ? ~ ^-1",
        ),
        LexFailure::Comment(s, e) => Fail::new(
            "relaxlab::cat::lex",
            Span::new(file, s, e),
            "unterminated comment",
            "this comment is never closed",
            "close it with `*)` (cat comments nest)",
        ),
    })?;
    let mut p = Parser {
        toks,
        pos: 0,
        file,
        eof: src.len(),
        depth: 0,
    };
    let title = p.title();
    let body = p.instructions(&[])?;
    if p.pos < p.toks.len() {
        return Err(
            p.unexpected("an instruction (let, acyclic, irreflexive, empty, show, include, ...)")
        );
    }
    Ok(Model { title, body })
}

struct Parser<'s> {
    toks: Vec<Spanned<'s>>,
    pos: usize,
    file: u32,
    eof: usize,
    /// Expressions being parsed, nested (bounded by [`MAX_NESTING`]).
    depth: usize,
}

/// The deepest nesting of expressions and instructions accepted, so that
/// no input can exhaust the stack of the parser or of what follows it.
const MAX_NESTING: usize = 200;

fn is_keyword(s: &str) -> bool {
    KEYWORDS.contains(&s)
}

impl<'s> Parser<'s> {
    fn peek(&self) -> Option<Tok<'s>> {
        self.toks.get(self.pos).map(|t| t.0)
    }

    fn peek_at(&self, k: usize) -> Option<Tok<'s>> {
        self.toks.get(self.pos + k).map(|t| t.0)
    }

    fn span_here(&self) -> Span {
        match self.toks.get(self.pos) {
            Some(&(_, s, e)) => Span::new(self.file, s, e),
            None => Span::new(self.file, self.eof, self.eof),
        }
    }

    /// The span of the token just consumed.
    fn prev_span(&self) -> Span {
        match self.pos.checked_sub(1).and_then(|i| self.toks.get(i)) {
            Some(&(_, s, e)) => Span::new(self.file, s, e),
            None => Span::new(self.file, 0, 0),
        }
    }

    fn bump(&mut self) -> Option<Tok<'s>> {
        let t = self.peek();
        self.pos += 1;
        t
    }

    fn at_kw(&self, kw: &str) -> bool {
        matches!(self.peek(), Some(Tok::Name(n)) if n == kw)
    }

    fn eat_kw(&mut self, kw: &str) -> bool {
        if self.at_kw(kw) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn eat(&mut self, t: Tok<'_>) -> bool {
        if self.peek() == Some(t) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn describe(t: Option<Tok<'_>>) -> String {
        match t {
            None => "end of file".to_string(),
            Some(Tok::Name(n)) if is_keyword(n) => format!("keyword `{n}`"),
            Some(Tok::Name(n)) => format!("name `{n}`"),
            Some(Tok::Tag(n)) => format!("tag `'{n}`"),
            Some(Tok::Str(s)) => format!("string \"{s}\""),
            Some(t) => format!("`{}`", symbol(t)),
        }
    }

    fn unexpected(&self, expected: &str) -> Fail {
        let found = Self::describe(self.peek());
        Fail::new(
            "relaxlab::cat::syntax",
            self.span_here(),
            format!("unexpected {found}"),
            format!("expected {expected}"),
            format!("the parser expected {expected} here"),
        )
    }

    fn expect(&mut self, t: Tok<'_>, what: &str) -> Result<(), Fail> {
        if self.eat(t) {
            Ok(())
        } else {
            Err(self.unexpected(what))
        }
    }

    fn expect_kw(&mut self, kw: &str) -> Result<(), Fail> {
        if self.eat_kw(kw) {
            Ok(())
        } else {
            Err(self.unexpected(&format!("`{kw}`")))
        }
    }

    /// A name that is not a keyword.
    fn name(&mut self) -> Result<Name, Fail> {
        match self.peek() {
            Some(Tok::Name(n)) if !is_keyword(n) => {
                self.pos += 1;
                Ok(Name {
                    text: n.to_string(),
                    span: self.prev_span(),
                })
            }
            _ => Err(self.unexpected("a name")),
        }
    }

    /// The title line: names and strings before the first keyword.
    fn title(&mut self) -> Vec<TitleWord> {
        let mut out = Vec::new();
        loop {
            match self.peek() {
                Some(Tok::Name(n)) if !is_keyword(n) => out.push(TitleWord::Name(n.to_string())),
                Some(Tok::Str(s)) => out.push(TitleWord::Str(s.to_string())),
                _ => return out,
            }
            self.pos += 1;
        }
    }
}

/// How a symbol token is written.
fn symbol(t: Tok<'_>) -> &'static str {
    match t {
        Tok::LPar => "(",
        Tok::RPar => ")",
        Tok::LBrace => "{",
        Tok::RBrace => "}",
        Tok::LBrack => "[",
        Tok::RBrack => "]",
        Tok::Underscore => "_",
        Tok::Zero => "0",
        Tok::Bar => "|",
        Tok::Alt => "||",
        Tok::Amp => "&",
        Tok::AmpAmp => "&&",
        Tok::Star => "*",
        Tok::Tilde => "~",
        Tok::Plus => "+",
        Tok::PlusPlus => "++",
        Tok::Hat => "^",
        Tok::MinusOne => "-1",
        Tok::Backslash => "\\",
        Tok::Question => "?",
        Tok::Eq => "=",
        Tok::Semi => ";",
        Tok::Comma => ",",
        Tok::Arrow => "->",
        Tok::Comment(_) | Tok::Str(_) | Tok::Tag(_) | Tok::Name(_) => "token",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The expression of `let x = SRC`, printed with full brackets.
    fn shape(src: &str) -> String {
        let m = parse(0, &format!("let x = {src}")).unwrap();
        let InsKind::Let { bindings, .. } = &m.body[0].kind else {
            panic!()
        };
        show(&bindings[0].expr)
    }

    fn show(e: &Expr) -> String {
        match &e.kind {
            ExprKind::Var(v) => v.clone(),
            ExprKind::Empty => "0".into(),
            ExprKind::Universe => "_".into(),
            ExprKind::Unary(op, a) => format!("{op:?}({})", show(a)),
            ExprKind::Binary(op, a, b) => format!("({} {} {})", show(a), op.symbol(), show(b)),
            ExprKind::App(f, a) => format!("{}<{}>", show(f), show(a)),
            ExprKind::Tuple(items) => format!(
                "({})",
                items.iter().map(show).collect::<Vec<_>>().join(", ")
            ),
            other => format!("{other:?}"),
        }
    }

    #[test]
    fn precedence_follows_herd() {
        assert_eq!(shape("a | b ; c & d"), "(a | (b ; (c & d)))");
        assert_eq!(shape("po & (_ * B) ; po"), "((po & (_ * B)) ; po)");
        assert_eq!(shape("W * R & S & loc"), "((W * R) & (S & loc))");
        assert_eq!(shape("a ; b ; c"), "(a ; (b ; c))");
        assert_eq!(shape("a \\ b \\ c"), "(a \\ (b | c))");
        assert_eq!(shape("a | b | c | d"), "((a | b) | (c | d))");
        assert_eq!(shape("x & loc \\ y"), "((x & loc) \\ y)");
        assert_eq!(shape("rf^-1 ; co"), "(Inv(rf) ; co)");
        assert_eq!(shape("(rf ; rmw)* ; r"), "(Star((rf ; rmw)) ; r)");
        assert_eq!(shape("~a | b"), "(Compl(a) | b)");
        assert_eq!(shape("fencerel(MFENCE) | x"), "(fencerel<MFENCE> | x)");
        assert_eq!(shape("f x y ; z"), "(f<x><y> ; z)");
        assert_eq!(shape("hb? ; [F]"), "(Opt(hb) ; ToId(F))");
        assert_eq!(shape("WW(po) | RM(po)"), "(WW<po> | RM<po>)");
    }

    #[test]
    fn instructions_and_title() {
        let m = parse(
            0,
            "X86 TSO\ninclude \"x86fences.cat\"\nlet WW(r) = r & (W * W)\nand RM(r) = r & (R * M)\n\
             acyclic po | rf as tso\nflag ~empty dr as race\nshow a, b\nshow x as y\n\
             procedure p(a, b) = empty a \\ b end\ncall p(po, rf)\nwith s from linearisations(SC, hb)\n\
             if \"cos-opt\" include \"a.cat\" else include \"b.cat\" end",
        )
        .unwrap();
        assert_eq!(
            m.title,
            vec![TitleWord::Name("X86".into()), TitleWord::Name("TSO".into())]
        );
        assert_eq!(m.body.len(), 10);
        assert!(matches!(&m.body[1].kind, InsKind::Let { bindings, .. } if bindings.len() == 2));
        assert!(matches!(
            &m.body[3].kind,
            InsKind::Check {
                negated: true,
                kind: CheckKind::Flag,
                ..
            }
        ));
    }

    #[test]
    fn errors_point_at_the_token() {
        let e = parse(0, "let x = a |").unwrap_err();
        assert_eq!((e.span.start, e.span.end), (11, 11));
        let e = parse(0, "acyclic po as").unwrap_err();
        assert!(e.message.contains("end of file"), "{e:?}");
        let e = parse(0, "let = a").unwrap_err();
        assert_eq!(e.span.start, 4);
    }
}
