//! The importers of herd7's X86 (Intel syntax) and X86_64 (AT&T syntax)
//! litmus formats (book: herd.md, The supported subset).
//!
//! ```text
//! X86 SB
//! { x=0; y=0; }
//!  P0          | P1          ;
//!  MOV [x],$1  | MOV [y],$1  ;
//!  MOV EAX,[y] | MOV EAX,[x] ;
//! exists (0:EAX=0 /\ 1:EAX=0)
//! ```
//!
//! A test is read in four steps, following herd7's own reader:
//! 1. [`columns`]: the header, the init block and the column layout, cut
//!    into one list of cells per thread (herd's `splitter` and its
//!    X86 parsers' `main` rule);
//! 2. [`instr`]: each cell into labels and one instruction, its operands
//!    parsed by [`operand`] (Intel `[x]`, `EAX`, `$1` or `1`; AT&T `(x)`,
//!    `%eax`, `$1`), with the names of [`att`];
//! 3. [`sem`]: each instruction into relaxlab statements, after herd's
//!    `X86Sem`/`X86_64Sem`: plain `MOV`s are `rlx` accesses, locked
//!    instructions `sc` RMWs, and the flags `ZF`, `SF`, `CF` registers
//!    written by compares and arithmetic when some jump, `SETNB`, `CMOVC`
//!    or the condition reads them;
//! 4. [`flow`]: the jumps of a thread into relaxlab's `if` and `while`.
//!
//! Every error points into the herd text.

mod att;
mod columns;
mod flow;
mod instr;
mod operand;
mod sem;

pub(crate) use columns::translate_x86;
