//! herd's `X86_64` format: AT&T syntax, read into the instructions of the
//! `X86` importer ([`super::instr`]).
//!
//! ```text
//! X86_64 SB
//! { x=0; y=0; }
//!  P0             | P1             ;
//!  movl $1,(x)    | movl $1,(y)    ;
//!  movl (y),%eax  | movl (x),%eax  ;
//! exists (0:rax=0 /\ 1:rax=0)
//! ```
//!
//! AT&T differs from Intel syntax in spelling only, for the fragment
//! relaxlab reads:
//! - operands are written source first (`movl $1,(x)` is `MOV [x],$1`), so
//!   they are reversed into Intel order;
//! - registers are `%rax`, and the 32-, 16- and 8-bit names of a register
//!   (`%eax`, `%ax`, `%al`) name the same register, spelled as herd prints
//!   it in states and conditions: `rax` (also `r8` to `r15`, whose narrow
//!   forms are `r8d`, `r8w`, `r8b`). The high-byte registers `%ah`, `%bh`,
//!   `%ch`, `%dh` are refused: they are not a whole register;
//! - memory is `(x)`; a base, index or displacement (`0(%rax)`) reaches a
//!   location through registers ([`super::operand`]);
//! - mnemonics carry a size suffix (`movb`, `movw`, `movl`, `movq`), which
//!   is dropped: relaxlab values are 64-bit integers. A location accessed
//!   with two different sizes would be a mixed-size test, whose bytes
//!   overlap, and is refused;
//! - `nop` in every form (`nopl 0(%rax,%rax,1)`) and `endbr64` do nothing.
//!
//! Registers in the init block and the condition (`0:RAX`, `0:eax`) are
//! read with the same aliases, case-insensitively.

use relaxlab_semantics::ir::Span;

use crate::herd::error::HerdError;

/// herd's `X86_64` general-purpose registers, in the order of its register
/// type, as herd prints them.
pub(crate) const REGISTERS: [&str; 16] = [
    "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp", "r8", "r9", "r10", "r11", "r12", "r13",
    "r14", "r15",
];

/// The 64-bit register that `r` (without `%`, any case) names, if it is a
/// general-purpose register or one of its low parts.
pub(crate) fn register(r: &str) -> Option<&'static str> {
    let r = r.to_ascii_lowercase();
    let legacy = [
        ["rax", "eax", "ax", "al"],
        ["rbx", "ebx", "bx", "bl"],
        ["rcx", "ecx", "cx", "cl"],
        ["rdx", "edx", "dx", "dl"],
        ["rsi", "esi", "si", "sil"],
        ["rdi", "edi", "di", "dil"],
        ["rbp", "ebp", "bp", "bpl"],
        ["rsp", "esp", "sp", "spl"],
    ];
    if let Some(i) = legacy.iter().position(|names| names.contains(&r.as_str())) {
        return Some(REGISTERS[i]);
    }
    // r8 .. r15, with the suffixes d, w, b.
    let base = r.trim_end_matches(['d', 'w', 'b']);
    if base.len() + 1 < r.len() {
        return None;
    }
    REGISTERS[8..].iter().copied().find(|n| *n == base)
}

/// The width in bytes of the register name `r` (one that [`register`]
/// knows): `rax` 8, `eax` 4, `ax` 2, `al` 1.
pub(crate) fn width(r: &str) -> u8 {
    let r = r.to_ascii_lowercase();
    let legacy_index = |names: &[&str]| names.contains(&r.as_str());
    if r.starts_with('r') && (r.len() == 3 && !r[1..].starts_with(char::is_numeric)) {
        return 8;
    }
    if r.starts_with('r') && r[1..].starts_with(char::is_numeric) {
        return match r.chars().last() {
            Some('d') => 4,
            Some('w') => 2,
            Some('b') => 1,
            _ => 8,
        };
    }
    if r.starts_with('e') {
        4
    } else if legacy_index(&["al", "bl", "cl", "dl", "sil", "dil", "bpl", "spl"]) {
        1
    } else {
        2
    }
}

/// A high-byte register (`ah`, ...): a part no other name covers.
pub(crate) fn is_high_byte(r: &str) -> bool {
    matches!(r.to_ascii_lowercase().as_str(), "ah" | "bh" | "ch" | "dh")
}

/// The instructions whose AT&T mnemonic may carry a size suffix.
const SIZED: [&str; 17] = [
    "MOV", "ADD", "SUB", "AND", "OR", "XOR", "SHL", "INC", "DEC", "XCHG", "UXCH", "XADD",
    "CMPXCHG", "CMP", "TEST", "CMOVC", "MOVNTI",
];

/// An AT&T mnemonic as the `X86` importer spells it (`movl` is `MOV`),
/// with its access size in bytes when a suffix gave one.
pub(crate) fn mnemonic(m: &str) -> (String, Option<u8>) {
    let upper = m.to_ascii_uppercase();
    if SIZED.contains(&upper.as_str()) {
        return (upper, None);
    }
    let size = match upper.chars().last() {
        Some('B') => 1,
        Some('W') => 2,
        Some('L') => 4,
        Some('Q') => 8,
        _ => return (upper, None),
    };
    let stem = &upper[..upper.len() - 1];
    if SIZED.contains(&stem) {
        (stem.to_string(), Some(size))
    } else {
        (upper, None)
    }
}

/// Is this mnemonic one that does nothing (`nop`, `nopl`, `endbr64`)?
pub(crate) fn is_no_op(m: &str) -> bool {
    matches!(
        m.to_ascii_uppercase().as_str(),
        "NOP" | "NOPB" | "NOPW" | "NOPL" | "NOPQ" | "ENDBR64" | "ENDBR32"
    )
}

/// The sizes each location is accessed with, to refuse mixed sizes.
#[derive(Debug, Default)]
pub(crate) struct Sizes {
    seen: Vec<(String, u8, Span)>,
}

impl Sizes {
    /// Records that `loc` is accessed with `size` bytes at `span`; an error
    /// if it was accessed with another size before.
    pub(crate) fn record(&mut self, loc: &str, size: u8, span: Span) -> Result<(), HerdError> {
        match self.seen.iter().find(|(l, _, _)| l == loc) {
            Some((_, s, _)) if *s != size => Err(HerdError::unsupported(
                format!(
                    "a mixed-size access ({} to `{loc}`, accessed with {} elsewhere)",
                    bytes(size),
                    bytes(*s)
                ),
                span,
                "relaxlab locations hold one integer; access each location with one size",
            )),
            Some(_) => Ok(()),
            None => {
                self.seen.push((loc.to_string(), size, span));
                Ok(())
            }
        }
    }
}

/// `1 byte`, `4 bytes`.
fn bytes(n: u8) -> String {
    if n == 1 {
        "1 byte".to_string()
    } else {
        format!("{n} bytes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_alias_names_its_register() {
        assert_eq!(register("EAX"), Some("rax"));
        assert_eq!(register("al"), Some("rax"));
        assert_eq!(register("rsp"), Some("rsp"));
        assert_eq!(register("sil"), Some("rsi"));
        assert_eq!(register("r8d"), Some("r8"));
        assert_eq!(register("R15B"), Some("r15"));
        assert_eq!(register("r10"), Some("r10"));
        assert_eq!(register("r16"), None);
        assert_eq!(register("r8dd"), None);
        assert_eq!(register("x"), None);
        assert_eq!(register("ah"), None);
        for (r, w) in [
            ("rax", 8),
            ("eax", 4),
            ("ax", 2),
            ("al", 1),
            ("sil", 1),
            ("si", 2),
        ] {
            assert_eq!(width(r), w, "{r}");
        }
        for (r, w) in [("r8", 8), ("r9d", 4), ("r10w", 2), ("r15b", 1), ("rsp", 8)] {
            assert_eq!(width(r), w, "{r}");
        }
    }

    #[test]
    fn suffixes_are_dropped_from_known_mnemonics_only() {
        assert_eq!(mnemonic("movl"), ("MOV".to_string(), Some(4)));
        assert_eq!(mnemonic("movq"), ("MOV".to_string(), Some(8)));
        assert_eq!(mnemonic("xchgb"), ("XCHG".to_string(), Some(1)));
        assert_eq!(mnemonic("mov"), ("MOV".to_string(), None));
        assert_eq!(mnemonic("mfence"), ("MFENCE".to_string(), None));
        // `sub` ends in a size letter but is a known mnemonic itself.
        assert_eq!(mnemonic("sub"), ("SUB".to_string(), None));
        assert_eq!(mnemonic("subw"), ("SUB".to_string(), Some(2)));
        assert_eq!(mnemonic("shl"), ("SHL".to_string(), None));
    }
}
