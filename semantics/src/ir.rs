//! The intermediate representation every engine consumes.
//!
//! A [`Program`] is what the front end (`relaxlab-grammar`) lowers a litmus
//! file to: shared locations with their initial values, one instruction
//! vector per thread with explicit jump targets, the final condition, the
//! observed columns and the `expect` entries. Nothing here knows about
//! syntax; each instruction carries its source [`Span`] and a rendering of
//! its source text so that traces and reports can speak about the program
//! without the parser.
//!
//! Orders are split by access kind ([`ReadOrd`], [`WriteOrd`], [`RmwOrd`],
//! [`FenceKind`]) so an illegal order (an acquire store, a release load) is
//! unrepresentable: the front end rejects it with a diagnostic.

use std::fmt;

use serde::Serialize;

/// A value of a register or a shared location. Arithmetic wraps.
pub type Value = i64;

macro_rules! newtype_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
        pub struct $name(pub u32);

        impl $name {
            /// The id as an index into the vector it names an element of.
            #[inline]
            pub fn index(self) -> usize {
                self.0 as usize
            }
            /// The id of the element at `index`.
            #[inline]
            pub fn new(index: usize) -> Self {
                Self(u32::try_from(index).expect("relaxlab internal error: id overflow"))
            }
        }
    };
}

newtype_id!(
    /// A thread: an index into [`Program::threads`]. Top-level threads come
    /// first, numbered in the order written; forked threads follow in the
    /// order their `fork` statements appear in the source.
    ThreadId
);
newtype_id!(
    /// A shared location: an index into [`Program::locations`].
    LocId
);
newtype_id!(
    /// A register of one thread: an index into [`ThreadCode::regs`].
    RegId
);
newtype_id!(
    /// An instruction of one thread: an index into [`ThreadCode::code`].
    InstrId
);

/// A byte range of the source text, `start..end`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Self {
        Span {
            start: start as u32,
            end: end as u32,
        }
    }
}

/// Order of a load.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum ReadOrd {
    Na,
    Rlx,
    Acq,
    Sc,
}

/// Order of a store.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum WriteOrd {
    Na,
    Rlx,
    Rel,
    Sc,
}

/// Order of a read-modify-write (always atomic).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum RmwOrd {
    Rlx,
    Acq,
    Rel,
    AcqRel,
    Sc,
}

impl RmwOrd {
    /// Does this order have an acquire part (acq, acq_rel, sc)?
    pub fn is_acquire(self) -> bool {
        matches!(self, RmwOrd::Acq | RmwOrd::AcqRel | RmwOrd::Sc)
    }
    /// Does this order have a release part (rel, acq_rel, sc)?
    pub fn is_release(self) -> bool {
        matches!(self, RmwOrd::Rel | RmwOrd::AcqRel | RmwOrd::Sc)
    }
    /// The order of the read half: the release part removed. This is also
    /// the default failure order of a `cas` (C11 §29.6.5p21).
    pub fn read_part(self) -> ReadOrd {
        match self {
            RmwOrd::Rlx | RmwOrd::Rel => ReadOrd::Rlx,
            RmwOrd::Acq | RmwOrd::AcqRel => ReadOrd::Acq,
            RmwOrd::Sc => ReadOrd::Sc,
        }
    }
    /// The order of the write half: the acquire part removed.
    pub fn write_part(self) -> WriteOrd {
        match self {
            RmwOrd::Rlx | RmwOrd::Acq => WriteOrd::Rlx,
            RmwOrd::Rel | RmwOrd::AcqRel => WriteOrd::Rel,
            RmwOrd::Sc => WriteOrd::Sc,
        }
    }
}

/// C11 fences (`atomic_thread_fence`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum C11Fence {
    Acq,
    Rel,
    AcqRel,
    Sc,
}

/// Hardware barriers of RELAXER (Sec. 3): `ss` orders earlier stores before
/// later stores, `sl` stores before loads, `ll` loads before loads, `ls`
/// loads before stores; `full` (`mfence`) orders everything.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum HwFence {
    SS,
    SL,
    LL,
    LS,
    Full,
}

/// A fence of either family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum FenceKind {
    C11(C11Fence),
    Hw(HwFence),
}

/// The operation of a read-modify-write. `Xchg` ignores the old value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum RmwOp {
    Add,
    Sub,
    And,
    Or,
    Xor,
    Max,
    Min,
    Xchg,
}

impl RmwOp {
    /// The value an RMW writes when it read `old` with operand `operand`.
    pub fn apply(self, old: Value, operand: Value) -> Value {
        match self {
            RmwOp::Add => old.wrapping_add(operand),
            RmwOp::Sub => old.wrapping_sub(operand),
            RmwOp::And => old & operand,
            RmwOp::Or => old | operand,
            RmwOp::Xor => old ^ operand,
            RmwOp::Max => old.max(operand),
            RmwOp::Min => old.min(operand),
            RmwOp::Xchg => operand,
        }
    }
}

/// Unary operators of expressions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum UnOp {
    /// `-e`, wrapping.
    Neg,
    /// `!e`: 1 if `e` is 0, else 0.
    Not,
}

/// Binary operators of expressions, with C meaning on `i64` (wrapping).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum BinOp {
    Mul,
    Div,
    Rem,
    Add,
    Sub,
    Shl,
    Shr,
    BitAnd,
    BitXor,
    BitOr,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
}

/// A register expression: it reads registers and literals only.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Expr {
    Const(Value),
    Reg(RegId),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `first op1 e1 op2 e2 ...` grouped from the left,
    /// `((first op1 e1) op2 e2) ...`: a chain of operators kept flat, so
    /// that evaluating (or dropping, cloning, hashing) a long one such as
    /// `1 + 1 + ... + 1` takes no recursion per operator. The front end
    /// lowers a chain of two or more operators to this, one operator to
    /// [`Expr::Binary`].
    Chain(Box<Expr>, Vec<(BinOp, Expr)>),
}

/// A run-time error of one execution: reported like a failed assertion.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum EvalError {
    DivisionByZero,
}

impl Expr {
    /// Evaluates the expression over a thread's registers.
    ///
    /// Shifts use the amount modulo 64 (C leaves larger ones undefined; a
    /// litmus test should not depend on them, and wrapping is what every
    /// engine here does alike). `&&`/`||` short-circuit as in C, so
    /// `r != 0 && 10 / r` never divides by zero.
    pub fn eval(&self, regs: &[Value]) -> Result<Value, EvalError> {
        Ok(match self {
            Expr::Const(v) => *v,
            Expr::Reg(r) => regs[r.index()],
            Expr::Unary(UnOp::Neg, e) => e.eval(regs)?.wrapping_neg(),
            Expr::Unary(UnOp::Not, e) => Value::from(e.eval(regs)? == 0),
            Expr::Binary(BinOp::And, a, b) => Value::from(a.eval(regs)? != 0 && b.eval(regs)? != 0),
            Expr::Binary(BinOp::Or, a, b) => Value::from(a.eval(regs)? != 0 || b.eval(regs)? != 0),
            Expr::Binary(op, a, b) => apply(*op, a.eval(regs)?, b.eval(regs)?)?,
            Expr::Chain(first, rest) => {
                let mut acc = first.eval(regs)?;
                for (op, e) in rest {
                    acc = match op {
                        BinOp::And => Value::from(acc != 0 && e.eval(regs)? != 0),
                        BinOp::Or => Value::from(acc != 0 || e.eval(regs)? != 0),
                        op => apply(*op, acc, e.eval(regs)?)?,
                    };
                }
                acc
            }
        })
    }

    /// Every register the expression reads.
    pub fn regs(&self, out: &mut Vec<RegId>) {
        match self {
            Expr::Const(_) => {}
            Expr::Reg(r) => out.push(*r),
            Expr::Unary(_, e) => e.regs(out),
            Expr::Binary(_, a, b) => {
                a.regs(out);
                b.regs(out);
            }
            Expr::Chain(first, rest) => {
                first.regs(out);
                for (_, e) in rest {
                    e.regs(out);
                }
            }
        }
    }
}

/// `a op b` on two evaluated operands (`&&` and `||` without their short
/// circuit, which [`Expr::eval`] applies before calling this).
#[inline]
fn apply(op: BinOp, a: Value, b: Value) -> Result<Value, EvalError> {
    Ok(match op {
        BinOp::Mul => a.wrapping_mul(b),
        BinOp::Div if b == 0 => return Err(EvalError::DivisionByZero),
        BinOp::Div => a.wrapping_div(b),
        BinOp::Rem if b == 0 => return Err(EvalError::DivisionByZero),
        BinOp::Rem => a.wrapping_rem(b),
        BinOp::Add => a.wrapping_add(b),
        BinOp::Sub => a.wrapping_sub(b),
        BinOp::Shl => a.wrapping_shl((b & 63) as u32),
        BinOp::Shr => a.wrapping_shr((b & 63) as u32),
        BinOp::BitAnd => a & b,
        BinOp::BitXor => a ^ b,
        BinOp::BitOr => a | b,
        BinOp::Eq => Value::from(a == b),
        BinOp::Ne => Value::from(a != b),
        BinOp::Lt => Value::from(a < b),
        BinOp::Le => Value::from(a <= b),
        BinOp::Gt => Value::from(a > b),
        BinOp::Ge => Value::from(a >= b),
        BinOp::And => Value::from(a != 0 && b != 0),
        BinOp::Or => Value::from(a != 0 || b != 0),
    })
}

/// One instruction of a thread.
///
/// Control flow is explicit: `Branch` jumps to `target` when its condition
/// is **zero** (false) and falls through otherwise; `Jump` always jumps.
/// Every thread's code ends with `End`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Instr {
    /// `dst = load(loc, ord)`.
    Load {
        dst: RegId,
        loc: LocId,
        ord: ReadOrd,
    },
    /// `store(loc, val, ord)`.
    Store {
        loc: LocId,
        val: Expr,
        ord: WriteOrd,
    },
    /// `dst = rmw(loc, op, operand, ord)`: returns the old value.
    Rmw {
        dst: RegId,
        loc: LocId,
        op: RmwOp,
        operand: Expr,
        ord: RmwOrd,
    },
    /// `dst = cas(loc, expected, desired, ord, fail)`: strong CAS returning
    /// the value read; it writes `desired` iff that value equals `expected`.
    /// `weak` (`cas_weak`, C11's `compare_exchange_weak`): it may also fail
    /// when the value read equals `expected`, writing nothing (C11
    /// §7.17.7.4; book: language.md, Read-modify-writes and compare-and-swap). The hardware
    /// mapping makes every CAS strong (x86's `lock cmpxchg` does not fail
    /// spuriously). `ok` (`dst, ok = cas(..)`) receives the success flag:
    /// 1 when the CAS wrote, 0 when it failed.
    Cas {
        dst: RegId,
        loc: LocId,
        expected: Expr,
        desired: Expr,
        ord: RmwOrd,
        fail: ReadOrd,
        weak: bool,
        ok: Option<RegId>,
    },
    /// `fence(kind)`.
    Fence { kind: FenceKind },
    /// `dst = val`: a local step.
    Assign { dst: RegId, val: Expr },
    /// If `cond` is zero, jump to `target`; else fall through. Local.
    Branch { cond: Expr, target: InstrId },
    /// Jump to `target`. Local.
    Jump { target: InstrId },
    /// An execution where `cond` is zero fails here.
    Assert { cond: Expr },
    /// An execution where `cond` is zero is discarded.
    Assume { cond: Expr },
    /// Start thread `child`; `dst` receives its handle ([`handle_of`]).
    Fork { dst: RegId, child: ThreadId },
    /// Wait until the thread whose handle is in `handle` has finished.
    Join { handle: RegId },
    /// The thread has finished.
    End,
}

/// The value a `fork` stores in its handle register for thread `t`:
/// `t + 1`, so that a register still holding its initial 0 is never a
/// valid handle.
pub fn handle_of(t: ThreadId) -> Value {
    Value::from(t.0) + 1
}

/// The thread a handle value names, if any.
pub fn thread_of_handle(v: Value) -> Option<ThreadId> {
    u32::try_from(v.checked_sub(1)?).ok().map(ThreadId)
}

impl Instr {
    /// The shared location this instruction accesses, if any.
    pub fn location(&self) -> Option<LocId> {
        match self {
            Instr::Load { loc, .. }
            | Instr::Store { loc, .. }
            | Instr::Rmw { loc, .. }
            | Instr::Cas { loc, .. } => Some(*loc),
            _ => None,
        }
    }

    /// Is this a local instruction (touching no shared memory and no other
    /// thread)? Local instructions may be executed eagerly.
    pub fn is_local(&self) -> bool {
        matches!(
            self,
            Instr::Assign { .. }
                | Instr::Branch { .. }
                | Instr::Jump { .. }
                | Instr::Assert { .. }
                | Instr::Assume { .. }
        )
    }
}

/// Where an instruction came from, when a pass inserted it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Origin {
    /// Written in the source.
    Source,
    /// Inserted by the compilation mapping (book: mapping.md) for the
    /// instruction at the same span.
    Mapping,
    /// Inserted by loop unrolling.
    Unroll,
}

/// An instruction with what traces and diagnostics need to speak of it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Instruction {
    pub instr: Instr,
    /// The source range of the statement.
    pub span: Span,
    /// The 1-based source line of the statement (RELAXER labels statements
    /// by line).
    pub line: u32,
    /// The statement as the formatter prints it, e.g. `r0 = load(y, rlx)`.
    pub text: String,
    pub origin: Origin,
}

/// Is a thread declared at top level or forked by another?
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum ThreadKind {
    /// Started after the init writes, joined at the end.
    TopLevel,
    /// Started by the `fork` instruction `at` of thread `parent`.
    Forked { parent: ThreadId, at: InstrId },
}

/// The code of one thread.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct ThreadCode {
    pub name: String,
    pub kind: ThreadKind,
    /// Register names, indexed by [`RegId`]. Registers start at 0.
    pub regs: Vec<String>,
    /// Invariant: non-empty, ends with `End`, every jump target in range.
    pub code: Vec<Instruction>,
    pub span: Span,
}

/// Whether a location is accessed atomically, inferred from its uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Atomicity {
    /// Never accessed, or accessed only with atomic orders.
    Atomic,
    /// Accessed only with `na`.
    NonAtomic,
    /// Accessed both ways: an error under the C11 models.
    Mixed,
}

/// A shared location.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Location {
    pub name: String,
    pub init: Value,
    pub atomicity: Atomicity,
    /// Where it was declared (or first used, for imported tests).
    pub span: Span,
}

/// An array of the init block (`t[2] = {1, -1};`, herd's `int64_t
/// t[2]={1,-1};`): each cell is a location of its own, named `t[0]`,
/// `t[1]`, ..., which every model sees as any other location
/// (book: language.md, Arrays). What an array adds is how outcomes are printed in
/// herd's format: a whole array that `observe` names as `t={1,-1}`, its
/// cells as `t[0]=1` (book: herd.md, Arrays).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Array {
    pub name: String,
    /// The cells, in order of index.
    pub cells: Vec<LocId>,
    /// Does `observe` name the whole array? Then its cells are columns.
    pub observed_whole: bool,
    /// The cells the condition, the filter or `observe` name one by one.
    pub observed_cells: Vec<LocId>,
}

/// Something an outcome records: a register of a thread or a location.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Observable {
    Reg(ThreadId, RegId),
    Loc(LocId),
}

/// Comparison of an atom of a condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum CmpOp {
    Eq,
    Ne,
}

/// A proposition over the final values of observables.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Prop {
    True,
    False,
    Atom(Observable, CmpOp, Value),
    Not(Box<Prop>),
    And(Box<Prop>, Box<Prop>),
    Or(Box<Prop>, Box<Prop>),
    Implies(Box<Prop>, Box<Prop>),
}

impl Prop {
    /// Evaluates the proposition, reading observables through `value`.
    pub fn eval(&self, value: &impl Fn(Observable) -> Value) -> bool {
        match self {
            Prop::True => true,
            Prop::False => false,
            Prop::Atom(o, CmpOp::Eq, v) => value(*o) == *v,
            Prop::Atom(o, CmpOp::Ne, v) => value(*o) != *v,
            Prop::Not(p) => !p.eval(value),
            Prop::And(a, b) => a.eval(value) && b.eval(value),
            Prop::Or(a, b) => a.eval(value) || b.eval(value),
            Prop::Implies(a, b) => !a.eval(value) || b.eval(value),
        }
    }

    /// Every observable the proposition mentions, in order of appearance.
    pub fn observables(&self, out: &mut Vec<Observable>) {
        match self {
            Prop::True | Prop::False => {}
            Prop::Atom(o, _, _) => out.push(*o),
            Prop::Not(p) => p.observables(out),
            Prop::And(a, b) | Prop::Or(a, b) | Prop::Implies(a, b) => {
                a.observables(out);
                b.observables(out);
            }
        }
    }
}

/// herd7's quantifiers of the final condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Quantifier {
    /// `exists P`: the test asks whether P can hold.
    Exists,
    /// `~exists P`: P must never hold.
    NotExists,
    /// `forall P`: P must always hold.
    Forall,
}

/// The final condition of a test.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Condition {
    pub quantifier: Quantifier,
    pub prop: Prop,
    /// The condition as written, for herd's `Condition` line.
    pub text: String,
}

/// herd7's words for how often a proposition holds over the outcomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Verdict {
    /// In no outcome.
    Never,
    /// In some outcome but not all.
    Sometimes,
    /// In every outcome (and there is at least one).
    Always,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Never => "never",
            Verdict::Sometimes => "sometimes",
            Verdict::Always => "always",
        }
    }
    /// The verdict of a proposition that held in `positive` of
    /// `positive + negative` outcomes. No outcome at all is `Never`.
    pub fn from_counts(positive: usize, negative: usize) -> Verdict {
        match (positive, negative) {
            (0, _) => Verdict::Never,
            (_, 0) => Verdict::Always,
            _ => Verdict::Sometimes,
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

// The models an `expect` entry names are the registry's.
pub use crate::registry::{AxModel, ModelKey, OpModel};

/// What an `expect` entry speaks of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Subject {
    /// `MODEL: VERDICT`: how often the final condition's proposition holds
    /// over the outcomes.
    Condition,
    /// `MODEL.assert: never|sometimes`: whether some execution fails (a
    /// failed `assert`, a division by zero or a deadlock).
    Failure,
}

/// One entry of `expect { ... }`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Expectation {
    pub model: ModelKey,
    pub subject: Subject,
    pub verdict: Verdict,
    pub span: Span,
}

/// A lowered litmus test.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Program {
    pub name: String,
    pub doc: Option<String>,
    pub locations: Vec<Location>,
    /// Top-level threads first (`0..toplevel`), then forked threads.
    pub threads: Vec<ThreadCode>,
    /// How many of `threads` are top-level.
    pub toplevel: usize,
    pub condition: Option<Condition>,
    /// herd7's `filter`: executions whose outcome does not satisfy it are
    /// discarded, as if they failed an `assume`.
    pub filter: Option<Prop>,
    /// The observables of `observed` that only the filter names: relaxlab
    /// decides the filter on the outcome, so they are columns, but herd7
    /// lists them in no state (book: herd.md, herd's output format).
    pub filter_only: Vec<Observable>,
    /// The columns of the outcome table, in order: the observables of the
    /// condition, then those of the filter, then those of
    /// `observe`/`locations`, without duplicates;
    /// when the test names none, every register of every thread and then
    /// every location.
    pub observed: Vec<Observable>,
    pub expectations: Vec<Expectation>,
    /// The arrays of the init block, whose cells are among `locations`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub arrays: Vec<Array>,
    /// A herd C test that only herd7's C semantics expresses (kernel
    /// primitives, pointers, unsequenced accesses): its threads as herd
    /// reads them. Then each thread's `code` is just `End`, and only the
    /// axiomatic engine runs the program.
    pub c: Option<std::sync::Arc<crate::csem::CProgram>>,
    /// A plain herd C test translated to relaxlab's instructions (this
    /// program) read also in herd7's C semantics, where the operands of an
    /// operator are unsequenced (book: herd.md, Unsequenced operands):
    /// herd's C cat models run that reading, every other model this one.
    #[serde(skip)]
    pub herd_reading: Option<std::sync::Arc<Program>>,
}

impl Program {
    pub fn thread(&self, t: ThreadId) -> &ThreadCode {
        &self.threads[t.index()]
    }
    pub fn instruction(&self, t: ThreadId, i: InstrId) -> &Instruction {
        &self.threads[t.index()].code[i.index()]
    }
    pub fn location(&self, l: LocId) -> &Location {
        &self.locations[l.index()]
    }
    /// Does any thread contain a backward jump (a `while` loop)?
    pub fn has_loops(&self) -> bool {
        self.first_loop().is_some()
    }

    /// The first loop of the program: its thread, and its head (the
    /// instruction the first backward jump goes to).
    pub fn first_loop(&self) -> Option<(ThreadId, InstrId)> {
        self.threads.iter().enumerate().find_map(|(t, th)| {
            th.code
                .iter()
                .enumerate()
                .find_map(|(i, ins)| match &ins.instr {
                    Instr::Branch { target, .. } | Instr::Jump { target }
                        if target.index() <= i =>
                    {
                        Some((ThreadId::new(t), *target))
                    }
                    _ => None,
                })
        })
    }
    /// A value as outcomes print it: a location's address (in a herd C
    /// test, where locations are values) by the location's name, as herd7
    /// prints pointers; any other value in decimal.
    pub fn value_text(&self, v: Value) -> String {
        if self.c.is_some() {
            if let Some(l) = crate::csem::location_at(v, self.locations.len()) {
                // An array's address is its first cell's, printed as
                // herd7 prints it: the array's name.
                if let Some(a) = self.arrays.iter().find(|a| a.cells.first() == Some(&l)) {
                    return a.name.clone();
                }
                return self.locations[l.index()].name.clone();
            }
        }
        v.to_string()
    }

    /// The name of an observable as tables print it: `P0:r0` or `x`.
    pub fn observable_name(&self, o: Observable) -> String {
        match o {
            Observable::Reg(t, r) => {
                let th = self.thread(t);
                format!("{}:{}", th.name, th.regs[r.index()])
            }
            Observable::Loc(l) => self.location(l).name.clone(),
        }
    }
}
