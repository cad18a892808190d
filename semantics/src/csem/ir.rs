//! Threads as herd7's C semantics reads them (herdtools7's `CBase` after
//! macro expansion): statements whose expressions may access memory, with
//! herd's annotations (tags) on every access and fence, and locations as
//! values (pointers).
//!
//! A herd C test that uses the Linux-kernel primitives (`READ_ONCE`,
//! `smp_mb`, `spin_lock`, ... expanded by the model's `.def` file into
//! herd's `__load{once}`, `__fence{mb}`, `__lock`, ...), pointers or any
//! construct whose meaning is herd's event structure rather than a
//! sequence of relaxlab instructions is lowered to this form
//! ([`crate::ir::Program::c`]). The axiomatic engine runs it with herd's
//! semantics ([`super::paths`]); the operational models refuse it.

use serde::Serialize;

use crate::axiomatic::Mode;
use crate::ir::{BinOp, RegId, Span, Value};

/// The annotations of the test, a bit each: `tags[i]` is bit `i` of an
/// event's [`crate::axiomatic::Event::tags`]. At most 64.
pub type Tags = u64;

/// The operation of an atomic read-modify-write (`__atomic_op`): herd's
/// `+`, `-`, `&`, `|`, `^` and `&~`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum AtomicOp {
    Add,
    Sub,
    And,
    Or,
    Xor,
    AndNot,
}

impl AtomicOp {
    pub fn symbol(self) -> &'static str {
        match self {
            AtomicOp::Add => "+",
            AtomicOp::Sub => "-",
            AtomicOp::And => "&",
            AtomicOp::Or => "|",
            AtomicOp::Xor => "^",
            AtomicOp::AndNot => "&~",
        }
    }
}

/// What an atomic operation returns (herd's `__atomic_op_return` and
/// `__atomic_fetch_op`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Returns {
    /// The new value.
    New,
    /// The old value.
    Old,
}

/// An expression; evaluating it may access memory. The operands of an
/// operator are unsequenced, as herd7 evaluates them (in parallel, with no
/// order between their events).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum CExpr {
    Const(Value),
    /// A register; a thread parameter is a register holding its location's
    /// address.
    Reg(RegId),
    /// `__load{tags}(*a)`, or `*a` (no tags): a read of the location `a`
    /// points to. `deref` marks herd's `__load{deref}`, a read followed by
    /// an `rb_dep` fence.
    Load {
        addr: Box<CExpr>,
        tags: Tags,
        deref: bool,
    },
    Op(BinOp, Box<CExpr>, Box<CExpr>),
    /// `__xchg{tags}(a, v)`: returns the old value.
    Xchg {
        addr: Box<CExpr>,
        val: Box<CExpr>,
        tags: Tags,
    },
    /// `__cmpxchg{tags}(a, old, new)`: returns the value read.
    CmpXchg {
        addr: Box<CExpr>,
        old: Box<CExpr>,
        new: Box<CExpr>,
        tags: Tags,
    },
    /// `__atomic_op_return{tags}(a, op, v)` and `__atomic_fetch_op`.
    AtomicReturn {
        addr: Box<CExpr>,
        op: AtomicOp,
        val: Box<CExpr>,
        tags: Tags,
        returns: Returns,
    },
    /// `__atomic_add_unless{tags}(a, v, u)`: adds v unless the value is u;
    /// returns whether it added.
    AddUnless {
        addr: Box<CExpr>,
        add: Box<CExpr>,
        unless: Box<CExpr>,
        tags: Tags,
    },
    /// `__trylock(a)`: 1 when it took the lock, 0 when it failed.
    TryLock(Box<CExpr>),
    /// `__islocked(a)`: 1 when the lock is held.
    IsLocked(Box<CExpr>),
    /// A C11 fetch operation (`op`: `Some`) or exchange (`None`): herd's
    /// `Fetch` and `Exchange`, one event in `R` and `W` in herd7, a read
    /// and a write here ([`Rmw`]); returns the old value.
    C11Rmw {
        addr: Box<CExpr>,
        op: Option<AtomicOp>,
        val: Box<CExpr>,
        rmw: Rmw,
    },
    /// A C11 compare-exchange (herd's `ECas`): reads `*expected`, then
    /// either fails (reads the object with the `failure` order, writes
    /// the value read to `*expected`, returns 0; a `strong` one only when
    /// the value read is not the expected one) or succeeds (one
    /// read-modify-write of the object from the expected value to
    /// `desired` with the `success` order, returns 1).
    C11Cas {
        obj: Box<CExpr>,
        expected: Box<CExpr>,
        desired: Box<CExpr>,
        success: Rmw,
        failure: Tags,
        strong: bool,
    },
    /// `__srcu{tags}(a)` as an expression: an SRCU event, whose value is
    /// herd's for `srcu-lock` (a number per thread and instruction) and 0
    /// otherwise.
    Srcu {
        addr: Box<CExpr>,
        tags: Tags,
    },
}

/// The annotations of the read and of the write that stand for herd's one
/// event of a C11 read-modify-write: the halves of its order (an
/// `acq_rel` one is an acquire read and a release write), from which the
/// cat machine joins them back into one event of the whole order
/// (book: cat.md, One event per read-modify-write).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Rmw {
    pub read: Tags,
    pub write: Tags,
}

/// A statement of a thread.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum CStmt {
    Block(Vec<CNode>),
    If {
        cond: CExpr,
        then: Box<CNode>,
        otherwise: Option<Box<CNode>>,
    },
    /// Unrolled as herd7 does: the body at most `unroll` times, the
    /// executions needing more are cut off.
    While {
        cond: CExpr,
        body: Box<CNode>,
    },
    /// `r = e;` (`dst`), or `e;` evaluated for its accesses.
    Eval {
        dst: Option<RegId>,
        e: CExpr,
    },
    /// `__store{tags}(*a, v)`, or `*a = v` (no tags).
    Store {
        addr: CExpr,
        val: CExpr,
        tags: Tags,
    },
    /// `__fence{tags}`.
    Fence {
        tags: Tags,
    },
    /// `__lock(a)`: herd's lock read and lock write.
    Lock(CExpr),
    /// `__unlock(a)`.
    Unlock(CExpr),
    /// `__atomic_op{tags}(a, op, v)`, returning nothing.
    AtomicOp {
        addr: CExpr,
        op: AtomicOp,
        val: CExpr,
        tags: Tags,
    },
    /// `__srcu{tags}(a)` or `__srcu{tags}(a, v)` as an instruction.
    Srcu {
        addr: CExpr,
        tags: Tags,
        val: Option<CExpr>,
    },
}

/// A statement with where it is written.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct CNode {
    pub stmt: CStmt,
    pub span: Span,
    /// The 1-based source line.
    pub line: u32,
}

/// The herd C side of a program: each thread's statements, the tag table,
/// and what herd's semantics needs to know of the test.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct CProgram {
    /// Per thread (in `Program::threads` order), its body.
    pub threads: Vec<Vec<CNode>>,
    /// Per thread, its registers' initial values: a parameter holds its
    /// location's address ([`super::address`]), an init entry `0:r=v` its
    /// value, any other register 0.
    pub init_regs: Vec<Vec<Value>>,
    /// The annotation names, by bit.
    pub tags: Vec<String>,
    /// herd's `lkmmv2` variant: the Linux-kernel read-modify-writes carry
    /// their annotation on both events (`lkmmv1`: fences around them and
    /// `once` events).
    pub lkmmv2: bool,
    /// How many times a `while` body is unrolled (herd's `-unroll`,
    /// default 2).
    pub unroll: u32,
}

impl CProgram {
    /// The bit of tag `name`, if the test uses it.
    pub fn tag(&self, name: &str) -> Option<Tags> {
        self.tags.iter().position(|t| t == name).map(|i| 1u64 << i)
    }

    /// The C11 order of an event annotated `tags`: a C11 access or fence
    /// (`atomic_load_explicit`, `atomic_store_explicit`,
    /// `atomic_thread_fence` and their forms without `_explicit`, which are
    /// `seq_cst`) carries its `memory_order_*` name as its annotation, and
    /// herd's C11 models read the order from it (`RLX`, `ACQ`, ..., `A`);
    /// any other event is `Na`, a plain access as herd's C models see it.
    pub fn mode_of(&self, tags: Tags) -> Mode {
        self.tag_names(tags)
            .find_map(|name| match name {
                "memory_order_relaxed" => Some(Mode::Rlx),
                "memory_order_acquire" => Some(Mode::Acq),
                "memory_order_release" => Some(Mode::Rel),
                "memory_order_acq_rel" => Some(Mode::AcqRel),
                "memory_order_seq_cst" => Some(Mode::Sc),
                _ => None,
            })
            .unwrap_or(Mode::Na)
    }

    /// Does some statement make two memory accesses or more (its reads and
    /// writes, not counting the statements nested in it)? herd leaves them
    /// unordered by `po`, where a translation to one instruction per
    /// access would order them.
    pub fn has_unsequenced_accesses(&self) -> bool {
        let mut stack: Vec<&CNode> = self.threads.iter().flatten().collect();
        while let Some(node) = stack.pop() {
            let accesses = match &node.stmt {
                CStmt::Block(body) => {
                    stack.extend(body);
                    0
                }
                CStmt::If {
                    cond,
                    then,
                    otherwise,
                } => {
                    stack.push(then);
                    stack.extend(otherwise.as_deref());
                    accesses(cond)
                }
                CStmt::While { cond, body } => {
                    stack.push(body);
                    accesses(cond)
                }
                CStmt::Eval { e, .. } => accesses(e),
                CStmt::Store { addr, val, .. } => 1 + accesses(addr) + accesses(val),
                CStmt::AtomicOp { addr, val, .. } => 2 + accesses(addr) + accesses(val),
                CStmt::Srcu { addr, val, .. } => accesses(addr) + val.as_ref().map_or(0, accesses),
                CStmt::Lock(a) | CStmt::Unlock(a) => 2 + accesses(a),
                CStmt::Fence { .. } => 0,
            };
            if accesses >= 2 {
                return true;
            }
        }
        false
    }

    /// The names of the tags in `tags`, in table order.
    pub fn tag_names(&self, tags: Tags) -> impl Iterator<Item = &str> {
        self.tags
            .iter()
            .enumerate()
            .filter(move |(i, _)| tags & (1u64 << i) != 0)
            .map(|(_, t)| t.as_str())
    }
}

/// The memory accesses an expression makes (a read-modify-write counts
/// its read and its write, but a C11 one, one event in herd7, counts one).
fn accesses(e: &CExpr) -> usize {
    match e {
        CExpr::Const(_) | CExpr::Reg(_) => 0,
        CExpr::Load { addr, .. } => 1 + accesses(addr),
        CExpr::Op(_, a, b) => accesses(a) + accesses(b),
        CExpr::Xchg { addr, val, .. } => 2 + accesses(addr) + accesses(val),
        CExpr::CmpXchg { addr, old, new, .. } => 2 + accesses(addr) + accesses(old) + accesses(new),
        CExpr::AtomicReturn { addr, val, .. } => 2 + accesses(addr) + accesses(val),
        CExpr::AddUnless {
            addr, add, unless, ..
        } => 2 + accesses(addr) + accesses(add) + accesses(unless),
        CExpr::TryLock(a) | CExpr::IsLocked(a) | CExpr::Srcu { addr: a, .. } => 1 + accesses(a),
        // herd's one event.
        CExpr::C11Rmw { addr, val, .. } => 1 + accesses(addr) + accesses(val),
        // The read of `*expected`, then the object's.
        CExpr::C11Cas {
            obj,
            expected,
            desired,
            ..
        } => 2 + accesses(obj) + accesses(expected) + accesses(desired),
    }
}
