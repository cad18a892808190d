//! The nesting bound: every stage after the parser (the tree's `Drop`,
//! lowering, the formatter, the IR's evaluation) walks nested constructs
//! by recursion, so the parser refuses a file that nests deeper than
//! [`MAX_NESTING`] before it builds anything that deep.
//!
//! The depth is measured on the token stream, as the tokens reach the
//! parser, so that the check costs one pass and the parser stops at the
//! first token past the bound. It is an upper bound on the depth of the
//! tree (book: language.md, Nesting):
//! - each open `(`, `{` and `[` counts one level until it closes;
//! - each prefix operator (`!`, `~`, and `-` where an operand is expected)
//!   counts one level until its operand ends, so `!!!x` is three;
//! - inside one bracket, binary operators count the levels of the tree
//!   precedence climbing builds: an operator that binds tighter than the
//!   pending one nests one level deeper (`a || b && c` is two, a chain of
//!   one operator is one however long), and each `=>`, which groups to the
//!   right, one more.
//!
//! What is flat in the tree costs nothing: statements of a block, `else
//! if` arms, a chain of binary operators (`1 + 1 + ... + 1`), of `/\` or
//! of `\/`.

use crate::lexer::Token;

/// The deepest nesting the parser accepts. Measured (book: language.md, Nesting):
/// the recursive stages survive more than ten times this depth on a 2 MiB
/// thread stack (rayon workers, the test harness) in a release build, and
/// more than twice in a debug build, on the worst shapes (nested blocks,
/// parentheses around right operands, prefix operators).
pub const MAX_NESTING: u32 = 1000;

/// The bracket levels open at the current token.
#[derive(Debug, Default)]
pub(crate) struct Nesting {
    frames: Vec<Frame>,
    /// The outermost level (no bracket open).
    top: Frame,
}

/// One bracket level.
#[derive(Debug, Default, Clone)]
struct Frame {
    /// The depth of the bracket itself: levels outside it, plus one.
    base: u32,
    /// Consecutive prefix operators before the operand being read.
    prefix: u32,
    /// Binding powers of the pending binary operators, loosest first
    /// (at most one per precedence level).
    pending: Vec<u8>,
    /// `=>` operators seen (each nests what follows it).
    implies: u32,
    /// The last token ended an operand, so a `-` is a binary minus.
    after_operand: bool,
}

impl Frame {
    fn depth(&self) -> u32 {
        self.base + self.prefix + self.pending.len() as u32 + self.implies
    }

    /// A new construct starts (after `;`, `,` or a keyword).
    fn reset(&mut self) {
        self.prefix = 0;
        self.pending.clear();
        self.implies = 0;
        self.after_operand = false;
    }
}

/// The binding power the depth count gives a binary operator token: C's for
/// expressions, with the condition language's `\/` and `/\` beside `||` and
/// `&&`, and `=` beside `==` (an atom of a condition).
fn binding(tok: &Token<'_>) -> Option<u8> {
    Some(match tok {
        Token::OrOr | Token::Vee => 1,
        Token::AndAnd | Token::Wedge => 2,
        Token::Pipe => 3,
        Token::Caret => 4,
        Token::Amp => 5,
        Token::EqEq | Token::NotEq | Token::Assign => 6,
        Token::Lt | Token::Le | Token::Gt | Token::Ge => 7,
        Token::Shl | Token::Shr => 8,
        Token::Plus | Token::Minus => 9,
        Token::Star | Token::Slash | Token::Percent => 10,
        _ => return None,
    })
}

impl Nesting {
    fn frame(&mut self) -> &mut Frame {
        self.frames.last_mut().unwrap_or(&mut self.top)
    }

    /// Accounts for `tok`; the depth it reaches when that exceeds
    /// [`MAX_NESTING`].
    pub(crate) fn step(&mut self, tok: &Token<'_>) -> Result<(), u32> {
        let f = self.frame();
        match tok {
            Token::LParen | Token::LBrace | Token::LBracket => {
                let base = f.depth() + 1;
                self.frames.push(Frame {
                    base,
                    ..Frame::default()
                });
                return check(base);
            }
            Token::RParen | Token::RBrace | Token::RBracket => {
                // A mismatched bracket is the parser's to report.
                self.frames.pop();
                let f = self.frame();
                f.prefix = 0;
                f.after_operand = true;
                if matches!(tok, Token::RBrace) {
                    f.reset();
                }
            }
            Token::Minus if !f.after_operand => {
                f.prefix += 1;
                return check(f.depth());
            }
            Token::Bang | Token::Tilde => {
                f.prefix += 1;
                f.after_operand = false;
                return check(f.depth());
            }
            Token::Implies => {
                f.pending.clear();
                f.prefix = 0;
                f.implies += 1;
                f.after_operand = false;
                return check(f.depth());
            }
            Token::Ident(_)
            | Token::Int(_)
            | Token::True
            | Token::False
            | Token::Str(_)
            | Token::TestName(_) => {
                f.prefix = 0;
                f.after_operand = true;
            }
            Token::Colon | Token::Dot => {}
            other => match binding(other) {
                Some(p) => {
                    while f.pending.last().is_some_and(|&q| q >= p) {
                        f.pending.pop();
                    }
                    f.pending.push(p);
                    f.prefix = 0;
                    f.after_operand = false;
                    return check(f.depth());
                }
                // `;`, `,` and the keywords start a new construct.
                None => f.reset(),
            },
        }
        Ok(())
    }
}

fn check(depth: u32) -> Result<(), u32> {
    if depth > MAX_NESTING {
        Err(depth)
    } else {
        Ok(())
    }
}
