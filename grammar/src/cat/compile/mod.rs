//! From cat syntax to a relation program (`relaxlab_semantics::axiomatic::cat`).
//!
//! The model is evaluated statically, in order, as herd7 runs it, except
//! that nothing here depends on an execution: event sets and relations
//! become nodes of the relation program; tags, tuples, functions and
//! procedures are evaluated away (a function is unfolded where it is
//! applied, a procedure where it is called); `include` reads the file and
//! runs its instructions; `if variant` takes its `else` branch (relaxlab
//! sets no variant); `try e with d` is `d` when `e` fails to compile
//! (herd7 catches any error of `e`). What is left is checks, in program
//! order, `let rec` fixed points and `with` choices.
//!
//! What is refused, always with a diagnostic naming it: pattern matching
//! on sets, explicit sets of values and `++`, recursive functions whose
//! unfolding does not end statically, `forall`, `if ... then ... else`,
//! `debug`, bell declarations (`instructions`, `default`), `let rec ...
//! when`, the herd7 primitives listed in `builtins`, and `with` over
//! anything but `linearisations(S, r)` and `generate_orders(S, r)` (herd7's
//! `cross.cat`, built in).

mod builtins;
mod compiler;
mod expr;
mod failures;
mod instructions;
mod let_rec;
mod value;

pub use compiler::{
    compile, compile_with, CatLoader, CompileOptions, Compiled, Loaded, NotFound, BUILT_IN_FILES,
};
