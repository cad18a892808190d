//! The lexer: logos tokens, fed to the lalrpop parser as an external lexer.
//!
//! Only the words that shape the syntax are keywords (`test init thread if
//! else while fork exists forall observe locations filter expect true
//! false`). Operation names (`load`, `store`, `fetch_add`, `Fence`, ...),
//! memory orders, fence kinds, RMW operators and verdicts are identifiers
//! that the parser resolves by name, so that a misspelt one gets a "did you
//! mean" instead of a bare syntax error.
//!
//! The test name after `test` is every non-blank character up to the next
//! blank or control character (book: language.md, Lexical structure; control
//! characters are then refused): the lexer switches to that rule
//! for exactly one token after the `test` keyword.
//!
//! The lexer never stops at a bad character: it records a [`LexError`] and
//! goes on, so that one file reports all its problems at once. Characters
//! that look like ASCII punctuation (a Unicode minus, curly quotes, a
//! non-breaking space, `∧`/`∨`) are named in the error.

use logos::Logos;

use relaxlab_semantics::ir::Span;

use crate::diag::{sspan, LexError, SyntaxError};
use crate::nesting::Nesting;

/// A token. Borrowed text points into the source.
#[derive(Logos, Clone, Copy, Debug, PartialEq, Eq)]
#[logos(skip r"[ \t\r\n\f]+")]
pub enum Token<'src> {
    /// `/* ... */`; the flag says whether it was closed. Kept by
    /// [`Lexer`] for the formatter, never passed to the parser.
    #[token("/*", block_comment)]
    BlockComment(bool),
    /// `// ...` up to the end of the line (a `\r` before the line break
    /// excluded).
    #[regex(r"//[^\n]*")]
    LineComment,

    #[token("test")]
    Test,
    #[token("init")]
    Init,
    #[token("thread")]
    Thread,
    #[token("if")]
    If,
    #[token("else")]
    Else,
    #[token("while")]
    While,
    #[token("fork")]
    #[token("Fork")]
    Fork,
    #[token("exists")]
    Exists,
    #[token("forall")]
    Forall,
    #[token("observe")]
    Observe,
    #[token("locations")]
    Locations,
    #[token("filter")]
    Filter,
    #[token("expect")]
    Expect,
    #[token("true")]
    True,
    #[token("false")]
    False,

    #[regex(r"[A-Za-z_][A-Za-z0-9_]*")]
    Ident(&'src str),
    /// A decimal or `0x` hexadecimal literal; `None` when it does not fit
    /// in 64 bits (the parser reports it).
    #[regex(r"[0-9]+", |lex| lex.slice().parse::<u64>().ok())]
    #[regex(r"0[xX][0-9a-fA-F]+", |lex| u64::from_str_radix(&lex.slice()[2..], 16).ok())]
    Int(Option<u64>),
    /// A double-quoted string without escapes (the doc of a test).
    #[regex(r#""[^"\n]*""#, |lex| { let s = lex.slice(); &s[1..s.len() - 1] })]
    Str(&'src str),
    /// Produced by [`Lexer`] after `test`, never by logos itself.
    TestName(&'src str),

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
    #[token(".")]
    Dot,
    #[token("=")]
    Assign,
    #[token("==")]
    EqEq,
    #[token("!=")]
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
    #[token("|")]
    Pipe,
    #[token("^")]
    Caret,
    #[token("&&")]
    AndAnd,
    #[token("||")]
    OrOr,
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
}

/// Skips a block comment; the flag says whether it was closed.
fn block_comment<'src>(lex: &mut logos::Lexer<'src, Token<'src>>) -> bool {
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

/// The token stream lalrpop consumes: `(start, token, end)` triples, with
/// lexical errors and comments set aside in [`Lexer::errors`] and
/// [`Lexer::comments`]. The stream ends early, with a
/// [`SyntaxError::TooDeep`] in [`Lexer::too_deep`], at the first token that
/// nests deeper than [`MAX_NESTING`](crate::nesting::MAX_NESTING): nothing
/// deeper reaches the parser.
pub(crate) struct Lexer<'src> {
    src: &'src str,
    inner: logos::Lexer<'src, Token<'src>>,
    after_test: bool,
    nesting: Nesting,
    /// Tokens passed to the parser so far.
    pub(crate) tokens: usize,
    pub(crate) errors: Vec<LexError>,
    /// Every comment, in source order: `(span, text)`.
    pub(crate) comments: Vec<(Span, &'src str)>,
    pub(crate) too_deep: Option<SyntaxError>,
}

/// The error type lalrpop sees from the lexer: there is none, since lexical
/// errors are collected on the side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Never {}

impl<'src> Lexer<'src> {
    pub(crate) fn new(src: &'src str) -> Self {
        Lexer {
            src,
            inner: Token::lexer(src),
            after_test: false,
            nesting: Nesting::default(),
            tokens: 0,
            errors: Vec::new(),
            comments: Vec::new(),
            too_deep: None,
        }
    }

    /// TEST NAME: after `test`, skip spaces and tabs and take every
    /// non-blank character up to the next blank. The name is on the line
    /// of `test`: a `test` alone on its line has none (the next line's
    /// `init` is not a name). A control character (ESC, DEL, ...) also
    /// ends the name, and is then an unexpected character: a name is
    /// printed to terminals, JSON and herd's format, where ESC would start
    /// a terminal escape sequence.
    fn test_name(&mut self) -> Option<(usize, Token<'src>, usize)> {
        let rest = self.inner.remainder();
        let skipped = rest.len() - rest.trim_start_matches([' ', '\t']).len();
        let name_len = rest[skipped..]
            .find(|c: char| c.is_whitespace() || c.is_control())
            .unwrap_or(rest.len() - skipped);
        let name = &rest[skipped..skipped + name_len];
        // A name starting with a quote is the doc string of a nameless
        // test: leave it to the ordinary rules.
        if name.is_empty() || name.starts_with('"') {
            return None;
        }
        let start = self.inner.span().end + skipped;
        self.inner.bump(skipped + name_len);
        Some((start, Token::TestName(name), start + name_len))
    }

    fn lex_error(&mut self, span: std::ops::Range<usize>) {
        let c = self.src[span.start..].chars().next().unwrap_or('\u{fffd}');
        let span = Span::new(span.start, span.start + c.len_utf8().max(1));
        self.errors.push(LexError::for_char(c, sspan(span)));
    }
}

impl<'src> Iterator for Lexer<'src> {
    type Item = Result<(usize, Token<'src>, usize), Never>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.too_deep.is_some() {
            return None;
        }
        let (start, tok, end) = self.next_token()?;
        if let Err(depth) = self.nesting.step(&tok) {
            self.too_deep = Some(SyntaxError::TooDeep {
                depth,
                max: crate::nesting::MAX_NESTING,
                span: sspan(Span::new(start, end)),
            });
            return None;
        }
        self.tokens += 1;
        Some(Ok((start, tok, end)))
    }
}

impl<'src> Lexer<'src> {
    /// The next token for the parser, comments and bad characters set
    /// aside.
    fn next_token(&mut self) -> Option<(usize, Token<'src>, usize)> {
        if std::mem::take(&mut self.after_test) {
            if let Some(t) = self.test_name() {
                return Some(t);
            }
        }
        loop {
            let tok = self.inner.next()?;
            let span = self.inner.span();
            match tok {
                Ok(Token::BlockComment(closed)) => {
                    if closed {
                        self.comments
                            .push((Span::new(span.start, span.end), self.inner.slice()));
                    } else {
                        self.errors.push(LexError::UnterminatedComment {
                            span: sspan(Span::new(span.start, span.start + 2)),
                        });
                    }
                }
                Ok(Token::LineComment) => {
                    let text = self.inner.slice().trim_end_matches('\r');
                    self.comments
                        .push((Span::new(span.start, span.start + text.len()), text));
                }
                Ok(tok) => {
                    self.after_test = tok == Token::Test;
                    return Some((span.start, tok, span.end));
                }
                Err(()) => self.lex_error(span),
            }
        }
    }
}

impl std::fmt::Display for Token<'_> {
    /// How a syntax error names the token: `` `store` ``, `integer 3`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = match self {
            Token::BlockComment(_) | Token::LineComment => "comment",
            Token::Test => "test",
            Token::Init => "init",
            Token::Thread => "thread",
            Token::If => "if",
            Token::Else => "else",
            Token::While => "while",
            Token::Fork => "fork",
            Token::Exists => "exists",
            Token::Forall => "forall",
            Token::Observe => "observe",
            Token::Locations => "locations",
            Token::Filter => "filter",
            Token::Expect => "expect",
            Token::True => "true",
            Token::False => "false",
            Token::Ident(s) => return write!(f, "name `{s}`"),
            Token::Int(Some(v)) => return write!(f, "integer `{v}`"),
            Token::Int(None) => return write!(f, "integer"),
            Token::Str(s) => return write!(f, "string \"{}\"", crate::clip::escaped(s)),
            Token::TestName(s) => return write!(f, "test name `{s}`"),
            Token::LParen => "(",
            Token::RParen => ")",
            Token::LBrace => "{",
            Token::RBrace => "}",
            Token::LBracket => "[",
            Token::RBracket => "]",
            Token::Semi => ";",
            Token::Comma => ",",
            Token::Colon => ":",
            Token::Dot => ".",
            Token::Assign => "=",
            Token::EqEq => "==",
            Token::NotEq => "!=",
            Token::Lt => "<",
            Token::Le => "<=",
            Token::Gt => ">",
            Token::Ge => ">=",
            Token::Shl => "<<",
            Token::Shr => ">>",
            Token::Plus => "+",
            Token::Minus => "-",
            Token::Star => "*",
            Token::Slash => "/",
            Token::Percent => "%",
            Token::Amp => "&",
            Token::Pipe => "|",
            Token::Caret => "^",
            Token::AndAnd => "&&",
            Token::OrOr => "||",
            Token::Bang => "!",
            Token::Tilde => "~",
            Token::Wedge => "/\\",
            Token::Vee => "\\/",
            Token::Implies => "=>",
        };
        write!(f, "`{text}`")
    }
}
