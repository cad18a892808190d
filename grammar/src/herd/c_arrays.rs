//! The rules herd7 7.58's C applies to a test with arrays, shared by the
//! translation (`c.rs`) and herd's C semantics (`kernel/`): herd7 reads
//! such a test with the size of every location of its init block
//! (herdtools7's `size_of` of its test types), which it knows for the
//! integer types of 8 to 32 bits and the pointer-sized ones only, and its C
//! parser reads one type word before an array (book: herd.md, C arrays).

use relaxlab_semantics::ir::Span;

use super::emit::HerdArray;
use super::error::HerdError;

/// A type of the init block of a C test with arrays, as herd7's C refuses
/// it: a test with an array is read with the size of every location, and
/// herd7 7.58 knows the size of `char`, `short`, `int`, `long`, `intN_t`
/// and `uintN_t` of 8 to 32 bits, `intptr_t`, `uintptr_t` and the kernel's
/// `atomic_t` only ("Cannot find the size of type atomic_int"), and stops
/// on 64-bit ones ("mask 32 bit value ... with quad mask")
/// (book: herd.md, Arrays).
pub(crate) fn c_type_refused(ty: &str, span: Span) -> Option<HerdError> {
    match ty {
        "int" | "long" | "int32_t" | "uint32_t" | "char" | "int8_t" | "uint8_t" | "short"
        | "int16_t" | "uint16_t" | "intptr_t" | "uintptr_t" | "atomic_t" => None,
        "int64_t" | "uint64_t" | "__int128_t" | "__uint128_t" | "__int128" | "__uint128"
        | "int128_t" | "uint128_t" => Some(HerdError::array(
            format!("a location of `{ty}` in a C test with arrays"),
            "herd7 refuses cells wider than 32 bits in C",
            span,
            "herd7 7.58 stops on it (\"mask 32 bit value with quad mask\"); declare \
             it `int`, which holds relaxlab's 64-bit values (book: herd.md, Arrays)",
        )),
        _ => Some(HerdError::array(
            format!("a location of `{ty}` in a C test with arrays"),
            "a type herd7 has no size for",
            span,
            "herd7 reads a C test with arrays with the size of every location of the init \
             block, and has none for this type (\"Cannot find the size of type\"); declare \
             it `int` and keep `atomic_int*` on the thread's parameter (book: herd.md, Arrays)",
        )),
    }
}

/// The first type of the init block that herd7 refuses in a C test with
/// arrays ([`c_type_refused`]).
pub(crate) fn c_init_types_refused(types: &[(String, Span)]) -> Option<HerdError> {
    types.iter().find_map(|(t, span)| c_type_refused(t, *span))
}

/// An array of the init block as herd7's C refuses it: a type of several
/// words (`unsigned int y[2]`, which its C parser does not read), or one
/// without a size ([`c_type_refused`]) (book: herd.md, Arrays).
pub(crate) fn c_array_refused(a: &HerdArray) -> Option<HerdError> {
    if a.type_words > 1 {
        return Some(HerdError::array(
            format!("the array `{}` has a type of several words", a.name),
            "herd7's C reads one type word before an array",
            a.span,
            "write one word: `int y[2];`, `uint32_t y[2];` (book: herd.md, Arrays)",
        ));
    }
    c_type_refused(&a.ty, a.span)
}
