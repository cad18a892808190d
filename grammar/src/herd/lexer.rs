//! The lexer shared by the C and X86 importers, the test header, and a
//! token cursor for the hand-written recursive-descent parsers.
//!
//! herd7's lexers accept OCaml comments `(* ... *)` everywhere and C
//! comments in C code. `(*` opens a comment only when a blank or `*`
//! follows it, so that the C expression `(*x)` still lexes as a
//! parenthesised dereference.
//!
//! The lexer never fails: an unknown character becomes [`Tok::Bad`], which
//! is an error only if a parser reaches it. This matters for the free-form
//! `key=value` lines after a test's name, which the parsers skip. A pasted
//! look-alike of ASCII punctuation that a parser reaches is named as the
//! front end names it ([`crate::lookalike`]).

use logos::Logos;
use relaxlab_semantics::ir::Span;

use super::error::HerdError;

/// A token of a herd file. Borrowed text points into the source.
#[derive(Logos, Clone, Copy, Debug, PartialEq, Eq)]
#[logos(skip r"[ \t\r\n\f]+")]
#[logos(skip r"//[^\n]*")]
pub(crate) enum Tok<'s> {
    /// A comment: `true` when it is closed. Filtered out by [`lex`].
    #[token("/*", c_comment)]
    #[regex(r"\(\*[ \t\r\n*]", ocaml_comment)]
    Comment(bool),
    #[regex(r"[A-Za-z_][A-Za-z0-9_]*")]
    Ident(&'s str),
    /// A decimal or `0x` literal; `None` when it does not fit in 64 bits.
    #[regex(r"[0-9]+", |lex| lex.slice().parse::<u64>().ok())]
    #[regex(r"0[xX][0-9a-fA-F]+", |lex| u64::from_str_radix(&lex.slice()[2..], 16).ok())]
    Int(Option<u64>),
    #[regex(r#""[^"]*""#, |lex| { let s = lex.slice(); &s[1..s.len() - 1] })]
    Str(&'s str),
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("{")]
    LBrace,
    #[token("}")]
    RBrace,
    #[token("[")]
    LBracket,
    #[token("]")]
    RBracket,
    #[token(";")]
    Semi,
    #[token(",")]
    Comma,
    #[token(":")]
    Colon,
    #[token("=")]
    Assign,
    #[token("==")]
    EqEq,
    #[token("!=")]
    #[token("<>")]
    NotEq,
    #[token("<")]
    Lt,
    #[token("<=")]
    Le,
    #[token(">")]
    Gt,
    #[token(">=")]
    Ge,
    #[token("<<")]
    Shl,
    #[token(">>")]
    Shr,
    #[token("+")]
    Plus,
    #[token("-")]
    Minus,
    #[token("*")]
    Star,
    #[token("/")]
    Slash,
    #[token("%")]
    Percent,
    #[token("&")]
    Amp,
    #[token("&&")]
    AndAnd,
    #[token("|")]
    Bar,
    #[token("||")]
    OrOr,
    #[token("^")]
    Caret,
    #[token("!")]
    Bang,
    #[token("~")]
    Tilde,
    #[token("/\\")]
    Wedge,
    #[token("\\/")]
    Vee,
    #[token("=>")]
    Implies,
    #[token("$")]
    Dollar,
    #[token(".")]
    Dot,
    #[token("?")]
    Question,
    /// A character no rule accepts.
    Bad(char),
    /// The end of the input (the cursor returns it forever).
    Eof,
}

/// `/* ... */`, not nested.
fn c_comment<'s>(lex: &mut logos::Lexer<'s, Tok<'s>>) -> bool {
    match lex.remainder().find("*/") {
        Some(i) => {
            lex.bump(i + 2);
            true
        }
        None => {
            lex.bump(lex.remainder().len());
            false
        }
    }
}

/// `(* ... *)`, nested as in OCaml.
fn ocaml_comment<'s>(lex: &mut logos::Lexer<'s, Tok<'s>>) -> bool {
    let rest = lex.remainder().as_bytes();
    // The regex consumed one character after `(*`; if it was `*` it may be
    // the start of `*)`, so look from that character again.
    let mut depth = 1usize;
    let mut i = 0usize;
    let back = usize::from(lex.slice().ends_with('*'));
    let mut pending_star = back == 1;
    while i < rest.len() {
        if pending_star && rest[i] == b')' {
            depth -= 1;
            if depth == 0 {
                lex.bump(i + 1);
                return true;
            }
        }
        if rest[i] == b'(' && rest.get(i + 1) == Some(&b'*') {
            depth += 1;
            i += 2;
            pending_star = false;
            continue;
        }
        pending_star = rest[i] == b'*';
        i += 1;
    }
    lex.bump(rest.len());
    false
}

impl Tok<'_> {
    /// How a diagnostic names the token.
    pub(crate) fn describe(&self) -> String {
        match self {
            Tok::Ident(s) => format!("`{s}`"),
            Tok::Int(_) => "integer".to_string(),
            Tok::Str(_) => "string".to_string(),
            Tok::Bad(c) => format!("`{c}`"),
            Tok::Eof => "end of file".to_string(),
            Tok::Comment(_) => "comment".to_string(),
            other => format!("`{}`", other.punct()),
        }
    }

    /// The spelling of a punctuation token.
    fn punct(&self) -> &'static str {
        match self {
            Tok::LParen => "(",
            Tok::RParen => ")",
            Tok::LBrace => "{",
            Tok::RBrace => "}",
            Tok::LBracket => "[",
            Tok::RBracket => "]",
            Tok::Semi => ";",
            Tok::Comma => ",",
            Tok::Colon => ":",
            Tok::Assign => "=",
            Tok::EqEq => "==",
            Tok::NotEq => "!=",
            Tok::Lt => "<",
            Tok::Le => "<=",
            Tok::Gt => ">",
            Tok::Ge => ">=",
            Tok::Shl => "<<",
            Tok::Shr => ">>",
            Tok::Plus => "+",
            Tok::Minus => "-",
            Tok::Star => "*",
            Tok::Slash => "/",
            Tok::Percent => "%",
            Tok::Amp => "&",
            Tok::AndAnd => "&&",
            Tok::Bar => "|",
            Tok::OrOr => "||",
            Tok::Caret => "^",
            Tok::Bang => "!",
            Tok::Tilde => "~",
            Tok::Wedge => "/\\",
            Tok::Vee => "\\/",
            Tok::Implies => "=>",
            Tok::Dollar => "$",
            Tok::Dot => ".",
            Tok::Question => "?",
            _ => "?",
        }
    }
}

/// The header of a herd test: `ARCH NAME`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Header<'s> {
    pub arch: &'s str,
    pub arch_span: Span,
    pub name: &'s str,
    pub name_span: Span,
    /// Where the tokens after the name start.
    pub rest: usize,
}

/// Skips blanks and comments from `i`.
fn skip_blank(src: &str, mut i: usize) -> usize {
    let b = src.as_bytes();
    loop {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if src[i..].starts_with("(*") {
            match src[i..].find("*)") {
                Some(j) => i += j + 2,
                None => return b.len(),
            }
        } else if src[i..].starts_with("//") {
            i += src[i..].find('\n').unwrap_or(src.len() - i);
        } else {
            return i;
        }
    }
}

/// Reads `ARCH NAME`: the architecture word, then every non-blank character
/// of the name (herd names contain `+`, `.` and `-`).
pub(crate) fn header(src: &str) -> Header<'_> {
    let word_end = |from: usize| {
        from + src[from..]
            .find(|c: char| c.is_whitespace())
            .unwrap_or(src.len() - from)
    };
    let a = skip_blank(src, 0);
    let a_end = word_end(a);
    let mut n = a_end;
    while n < src.len() && matches!(src.as_bytes()[n], b' ' | b'\t') {
        n += 1;
    }
    let n_end = word_end(n);
    Header {
        arch: &src[a..a_end],
        arch_span: Span::new(a, a_end),
        name: &src[n..n_end],
        name_span: Span::new(n, n_end),
        rest: n_end,
    }
}

/// Lexes `src` from byte `from`; spans are offsets into `src`. Closed
/// comments are dropped; an unclosed one is an error.
pub(crate) fn lex(src: &str, from: usize) -> Result<Vec<(Tok<'_>, Span)>, HerdError> {
    let mut out = Vec::new();
    let mut lexer = Tok::lexer(&src[from..]);
    while let Some(tok) = lexer.next() {
        let r = lexer.span();
        let span = Span::new(from + r.start, from + r.end);
        match tok {
            Ok(Tok::Comment(true)) => {}
            Ok(Tok::Comment(false)) => {
                return Err(HerdError::unsupported(
                    "an unterminated comment",
                    Span::new(span.start as usize, span.start as usize + 2),
                    "close the comment (`*/` or `*)`)",
                ))
            }
            Ok(t) => out.push((t, span)),
            Err(()) => {
                let c = src[from + r.start..].chars().next().unwrap_or('?');
                out.push((Tok::Bad(c), span));
            }
        }
    }
    Ok(out)
}

/// The deepest nesting the herd importers accept: half the front end's
/// bound ([`crate::MAX_NESTING`]), since a translation nests deeper than
/// its source (an `if` body gets braces, `~e` becomes `(e) ^ -1`, and the
/// front end counts operator precedence levels too).
pub(crate) const MAX_HERD_NESTING: u32 = crate::MAX_NESTING / 2;

/// A cursor over tokens, for recursive descent.
#[derive(Debug)]
pub(crate) struct Cursor<'s> {
    src: &'s str,
    toks: Vec<(Tok<'s>, Span)>,
    pos: usize,
    /// The span of the end of the input.
    eof: Span,
    /// How many nested constructs the descent is inside ([`Cursor::enter`]).
    depth: u32,
}

impl<'s> Cursor<'s> {
    pub(crate) fn new(src: &'s str, toks: Vec<(Tok<'s>, Span)>) -> Self {
        Cursor {
            src,
            toks,
            pos: 0,
            eof: Span::new(src.len(), src.len()),
            depth: 0,
        }
    }

    /// A cursor over some tokens of `src` whose end is at byte `end`.
    pub(crate) fn sub(src: &'s str, toks: Vec<(Tok<'s>, Span)>, end: usize) -> Self {
        Cursor {
            src,
            toks,
            pos: 0,
            eof: Span::new(end, end),
            depth: 0,
        }
    }

    /// Enters a nested construct (a block, an `if` body, a parenthesis, a
    /// prefix operator, the right of `=>`): every recursion of the descent
    /// passes here, so the depth of the recursion, and of the trees it
    /// builds, stays below [`MAX_HERD_NESTING`]. Pair with
    /// [`Cursor::leave`] on success; an error ends the descent.
    pub(crate) fn enter(&mut self) -> Result<(), HerdError> {
        if self.depth >= MAX_HERD_NESTING {
            return Err(HerdError::TooDeep {
                max: MAX_HERD_NESTING,
                span: super::error::at(self.span()),
            });
        }
        self.depth += 1;
        Ok(())
    }

    /// Leaves what [`Cursor::enter`] entered.
    pub(crate) fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// Forgets the nesting, when the descent restarts after an error.
    pub(crate) fn reset_depth(&mut self) {
        self.depth = 0;
    }

    /// The whole source text.
    pub(crate) fn src(&self) -> &'s str {
        self.src
    }

    /// The source text of `span`.
    pub(crate) fn text(&self, span: Span) -> &'s str {
        self.src
            .get(span.start as usize..span.end as usize)
            .unwrap_or("")
    }

    /// The current token (`Eof` at the end).
    pub(crate) fn peek(&self) -> Tok<'s> {
        self.peek_at(0)
    }

    /// The token `k` places ahead.
    pub(crate) fn peek_at(&self, k: usize) -> Tok<'s> {
        self.toks.get(self.pos + k).map_or(Tok::Eof, |t| t.0)
    }

    /// The span of the current token.
    pub(crate) fn span(&self) -> Span {
        self.toks.get(self.pos).map_or(self.eof, |t| t.1)
    }

    /// The span of the previous token.
    pub(crate) fn prev_span(&self) -> Span {
        match self.pos {
            0 => Span::new(0, 0),
            p => self.toks.get(p - 1).map_or(self.eof, |t| t.1),
        }
    }

    /// Consumes and returns the current token with its span.
    pub(crate) fn bump(&mut self) -> (Tok<'s>, Span) {
        let t = (self.peek(), self.span());
        if self.pos < self.toks.len() {
            self.pos += 1;
        }
        t
    }

    /// The current position, for [`Cursor::reset`].
    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    /// Goes back (or forward) to a position, such as one from [`Cursor::after_matching_brace`].
    pub(crate) fn reset(&mut self, pos: usize) {
        self.pos = pos.min(self.toks.len());
    }

    /// The position just after the `}` matching the `{` at the current
    /// position (or the end), counting nested braces.
    pub(crate) fn after_matching_brace(&self) -> usize {
        let mut depth = 0usize;
        for (i, (t, _)) in self.toks.iter().enumerate().skip(self.pos) {
            match t {
                Tok::LBrace => depth += 1,
                Tok::RBrace => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return i + 1;
                    }
                }
                _ => {}
            }
        }
        self.toks.len()
    }

    /// Every identifier of the file, to keep fresh names fresh.
    pub(crate) fn idents(&self) -> std::collections::BTreeSet<&'s str> {
        self.toks
            .iter()
            .filter_map(|(t, _)| match t {
                Tok::Ident(s) => Some(*s),
                _ => None,
            })
            .collect()
    }

    /// Consumes the current token if it is `t`.
    pub(crate) fn eat(&mut self, t: Tok<'s>) -> bool {
        if self.peek() == t {
            self.bump();
            true
        } else {
            false
        }
    }

    /// Is the current token the identifier `word`?
    pub(crate) fn at_word(&self, word: &str) -> bool {
        matches!(self.peek(), Tok::Ident(w) if w == word)
    }

    /// The error for the current token when `expected` was expected.
    pub(crate) fn error(&self, expected: &str) -> HerdError {
        match self.peek() {
            Tok::Bad(c) => HerdError::bad_char(c, self.span()),
            Tok::Int(_) => HerdError::syntax(
                format!("integer `{}`", self.text(self.span())),
                expected,
                self.span(),
            ),
            t => HerdError::syntax(t.describe(), expected, self.span()),
        }
    }

    /// Consumes `t` or fails naming `expected`.
    pub(crate) fn expect(&mut self, t: Tok<'s>, expected: &str) -> Result<Span, HerdError> {
        if self.peek() == t {
            Ok(self.bump().1)
        } else {
            Err(self.error(expected))
        }
    }

    /// Consumes an identifier.
    pub(crate) fn ident(&mut self, expected: &str) -> Result<(&'s str, Span), HerdError> {
        match self.peek() {
            Tok::Ident(s) => Ok((s, self.bump().1)),
            _ => Err(self.error(expected)),
        }
    }

    /// Consumes an optionally negative integer literal.
    pub(crate) fn int(&mut self, expected: &str) -> Result<(i64, Span), HerdError> {
        let start = self.span();
        let neg = self.eat(Tok::Minus);
        match self.peek() {
            Tok::Int(v) => {
                let (_, s) = self.bump();
                let span = Span::new(start.start as usize, s.end as usize);
                let value = v.and_then(|v| {
                    if neg {
                        0i64.checked_sub_unsigned(v)
                    } else {
                        i64::try_from(v).ok()
                    }
                });
                value.map(|v| (v, span)).ok_or(HerdError::IntTooLarge {
                    text: self.text(span).to_string(),
                    span: super::error::at(span),
                })
            }
            _ => Err(self.error(expected)),
        }
    }

    /// Skips tokens up to (not including) the first `t`; false at the end.
    pub(crate) fn skip_to(&mut self, t: Tok<'s>) -> bool {
        while self.peek() != t {
            if self.peek() == Tok::Eof {
                return false;
            }
            self.bump();
        }
        true
    }
}
