//! LOOKALIKE CHARACTERS, shared by the litmus lexer ([`crate::lexer`]) and
//! the herd lexer ([`crate::herd`]).
//!
//! Text pasted from a word processor, a web page or a PDF (a paper's
//! litmus figure, typically) carries typographic characters that look like
//! the ASCII punctuation of the language: a Unicode minus or a dash for
//! `-`, curly quotes, a non-breaking space, the logic signs `∧ ∨ ¬` for
//! `/\ \/ ~`. Neither lexer accepts them; this table lets both name the
//! character, give its code point and say what to type instead, rather than
//! a bare "unexpected character".

/// A character that imitates ASCII: what it is and what was meant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Lookalike {
    /// How the diagnostic names the character (`a Unicode minus sign`).
    pub(crate) name: &'static str,
    /// What to type instead (`` `-` ``).
    pub(crate) instead: &'static str,
}

/// The look-alike entry of `c`, if it is one.
pub(crate) fn lookalike(c: char) -> Option<Lookalike> {
    let (name, instead) = match c {
        '\u{2212}' => ("a Unicode minus sign", "`-`"),
        '\u{2013}' => ("an en dash", "`-`"),
        '\u{2014}' => ("an em dash", "`-`"),
        '\u{201C}' | '\u{201D}' => ("a curly double quote", "`\"`"),
        '\u{2018}' | '\u{2019}' => ("a curly single quote", "a straight quote `'`"),
        '\u{00A0}' => ("a non-breaking space", "a plain space"),
        '\u{2227}' => ("the logical-and sign", "`/\\`"),
        '\u{2228}' => ("the logical-or sign", "`\\/`"),
        '\u{00AC}' => ("the negation sign", "`~`"),
        '\u{2260}' => ("the not-equal sign", "`!=`"),
        '\u{2264}' => ("the less-or-equal sign", "`<=`"),
        '\u{2265}' => ("the greater-or-equal sign", "`>=`"),
        '\u{21D2}' => ("a double arrow", "`=>`"),
        _ => return None,
    };
    Some(Lookalike { name, instead })
}
