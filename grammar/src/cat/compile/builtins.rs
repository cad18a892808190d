//! The names every model starts with (herd7 manual, "Pre-defined
//! identifiers"), as relaxlab's candidate executions provide them. Which
//! tags exist depends on the model's architecture: a C model sees the C11
//! orders, a hardware model the barriers of the program compiled for it.
//! Names herd7 defines for other architectures or features relaxlab does
//! not model are bound to [`Val::Missing`], so a model using them is
//! refused with a message naming the construct rather than "unknown".

use relaxlab_semantics::axiomatic::cat::{Arch, CatBuilder, NodeId, Op, RelPrim, SetPrim};
use relaxlab_semantics::axiomatic::{LockOp, Mode};
use relaxlab_semantics::ir::HwFence;

use super::value::{Env, Prim, Val};

/// Sets every architecture has.
const SETS: &[(&str, SetPrim)] = &[
    ("R", SetPrim::Reads),
    ("W", SetPrim::Writes),
    ("M", SetPrim::Memory),
    ("F", SetPrim::Fences),
    ("IW", SetPrim::Init),
    // herd7 defines `I` as `IW` for every architecture (its C models write
    // `asw = I * (M \ I)`).
    ("I", SetPrim::Init),
    ("FW", SetPrim::Final),
    ("B", SetPrim::Branches),
    ("RMW", SetPrim::Rmw),
    ("X", SetPrim::Locked),
    ("FORK", SetPrim::Fork),
    ("JOIN", SetPrim::Join),
    // herd7 defines these for every architecture: `Exp`, the explicit
    // memory accesses (all but AArch64's implicit ones), and `EXEC`, the
    // memory accesses that were not speculated.
    ("Exp", SetPrim::Memory),
    ("EXEC", SetPrim::Memory),
];

/// herd7's sets of every architecture that are empty in relaxlab's
/// executions: implicit accesses (`NExp`), speculated ones (`SPEC`) and
/// spurious events (`SPURIOUS`).
const EMPTY_SETS: &[&str] = &["NExp", "SPEC", "SPURIOUS"];

/// C11 order tags (C models).
const C_SETS: &[(&str, SetPrim)] = &[
    ("NA", SetPrim::Mode(Mode::Na)),
    ("RLX", SetPrim::Mode(Mode::Rlx)),
    ("ACQ", SetPrim::Mode(Mode::Acq)),
    ("REL", SetPrim::Mode(Mode::Rel)),
    ("ACQ_REL", SetPrim::Mode(Mode::AcqRel)),
    ("SC", SetPrim::Mode(Mode::Sc)),
    ("A", SetPrim::Atomic),
];

/// herd7's other C event sets: the Linux-kernel lock events (`LK` lock
/// reads and writes, `LKR`/`LKW` their read and write, `LF` a failed
/// trylock, `UL` unlock, `RL`/`RU` `spin_is_locked` returning true or
/// false) and `annot`, the annotated accesses and fences.
const C_HERD_SETS: &[(&str, SetPrim)] = &[
    ("LK", SetPrim::LockAny),
    ("LKR", SetPrim::Lock(LockOp::Read)),
    ("LKW", SetPrim::Lock(LockOp::Write)),
    ("LF", SetPrim::Lock(LockOp::Fail)),
    ("UL", SetPrim::Lock(LockOp::Unlock)),
    ("RL", SetPrim::Lock(LockOp::ReadLocked)),
    ("RU", SetPrim::Lock(LockOp::ReadUnlocked)),
    ("annot", SetPrim::Annotated),
];

/// herd7's C sets that are empty in relaxlab's executions: consume
/// accesses (`CON`; relaxlab has no consume order) and successful C11
/// mutex locks (`LS`; relaxlab has no C11 mutexes).
const C_EMPTY_SETS: &[&str] = &["CON", "LS"];

/// Hardware barriers (hardware models), with herd7's x86 names.
const HW_SETS: &[(&str, SetPrim)] = &[
    ("SS", SetPrim::HwFence(HwFence::SS)),
    ("SL", SetPrim::HwFence(HwFence::SL)),
    ("LL", SetPrim::HwFence(HwFence::LL)),
    ("LS", SetPrim::HwFence(HwFence::LS)),
    ("FULL", SetPrim::HwFence(HwFence::Full)),
    ("MFENCE", SetPrim::HwFence(HwFence::Full)),
    ("SFENCE", SetPrim::HwFence(HwFence::SS)),
    ("LFENCE", SetPrim::HwFence(HwFence::LL)),
];

const RELS: &[(&str, RelPrim)] = &[
    ("po", RelPrim::Po),
    ("asw", RelPrim::Asw),
    ("rf", RelPrim::Rf),
    ("co", RelPrim::Co),
    ("rmw", RelPrim::Rmw),
    ("loc", RelPrim::Loc),
    ("ext", RelPrim::Ext),
    ("int", RelPrim::Int),
    ("id", RelPrim::Id),
    ("addr", RelPrim::Addr),
    ("data", RelPrim::Data),
    ("ctrl", RelPrim::Ctrl),
];

/// herd7 names relaxlab does not provide, and why.
const MISSING: &[(&str, &str)] = &[
    (
        "classes",
        "`classes` (the classes of an equivalence relation) is not supported",
    ),
    (
        "tag2events",
        "`tag2events` (bell annotations) is not supported",
    ),
    (
        "tag2instrs",
        "`tag2instrs` (bell annotations) is not supported",
    ),
    ("tag2scope", "`tag2scope` (scopes) is not supported"),
    ("fromto", "`fromto` is not supported"),
    (
        "iico",
        "`iico` (intra-instruction order) does not exist in relaxlab's executions",
    ),
    (
        "iico_data",
        "`iico_data` (intra-instruction order) does not exist in relaxlab's executions",
    ),
    (
        "iico_ctrl",
        "`iico_ctrl` (intra-instruction order) does not exist in relaxlab's executions",
    ),
    ("same-instr", "`same-instr` is not provided"),
    (
        "sca",
        "`sca` (single-copy atomic classes, mixed-size) is not supported",
    ),
];

/// The initial environment of a model of architecture `arch`.
pub(crate) fn initial_env(b: &mut CatBuilder, arch: Arch) -> Env {
    let mut env = Env::default();
    for (name, why) in MISSING {
        env = env.bind(*name, Val::Missing(why));
    }
    let tags: &[(&str, SetPrim)] = match arch {
        Arch::C => C_SETS,
        Arch::Hardware(_) => HW_SETS,
    };
    for (name, p) in SETS.iter().chain(tags) {
        env = env.bind(*name, Val::Set(b.node(Op::Set(*p))));
    }
    for name in EMPTY_SETS {
        env = env.bind(*name, Val::Set(b.node(Op::EmptySet)));
    }
    if arch == Arch::C {
        for (name, p) in C_HERD_SETS {
            env = env.bind(*name, Val::Set(b.node(Op::Set(*p))));
        }
        for name in C_EMPTY_SETS {
            env = env.bind(*name, Val::Set(b.node(Op::EmptySet)));
        }
    }
    for (name, p) in RELS {
        env = env.bind(*name, Val::Rel(b.node(Op::Rel(*p))));
    }
    // herd7's `sm` is another name of `si`.
    let si = same_instruction(b);
    env = env.bind("si", Val::Rel(si));
    env = env.bind("sm", Val::Rel(si));
    env = env.bind("domain", Val::Prim(Prim::Domain));
    env = env.bind("range", Val::Prim(Prim::Range));
    env = env.bind("linearisations", Val::Prim(Prim::Linearisations));
    env = env.bind("map", Val::Prim(Prim::Map));
    env = env.bind("different-values", Val::Prim(Prim::DifferentValues));
    env = env.bind("classes-loc", Val::Prim(Prim::ClassesLoc));
    env = env.bind("cross", Val::Prim(Prim::Cross));
    env.bind("generate_orders", Val::Prim(Prim::GenerateOrders))
}

/// `si`, herd7's "same instruction instance": relaxlab's accesses are
/// never mixed-size, so an instruction makes one event, except a
/// read-modify-write (an X86 `XCHG` or locked instruction, a C RMW),
/// whose read and write `rmw` pairs: `si = id | rmw | rmw^-1`.
fn same_instruction(b: &mut CatBuilder) -> NodeId {
    let id = b.node(Op::Rel(RelPrim::Id));
    let rmw = b.node(Op::Rel(RelPrim::Rmw));
    let back = b.node(Op::Inverse(rmw));
    let pair = b.node(Op::Union(rmw, back));
    b.node(Op::Union(id, pair))
}

/// herd7's name of the event set of annotation `tag` (its
/// `BellName.tag2instrs_var`): the tag with its first letter in upper
/// case, `'once` giving `Once`.
pub(crate) fn tag_set_name(tag: &str) -> String {
    let mut c = tag.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// The tag names of the other architecture, for a "not in this
/// architecture" message.
pub(crate) fn other_arch_tag(arch: Arch, name: &str) -> Option<&'static str> {
    match arch {
        Arch::C if HW_SETS.iter().any(|(n, _)| *n == name) => Some(
            "a hardware barrier set: it exists in models whose title names a hardware architecture (SC, TSO, X86, PSO, PSLO)",
        ),
        Arch::Hardware(_) if C_SETS.iter().any(|(n, _)| *n == name) => Some(
            "a C11 order tag: it exists in models whose title names the C architecture; a hardware model sees the program compiled for it, where accesses are plain",
        ),
        Arch::Hardware(_)
            if C_EMPTY_SETS.contains(&name) || C_HERD_SETS.iter().any(|(n, _)| *n == name) =>
        {
            Some(
                "one of herd7's C event sets (locks, consume, annotations): it exists in models whose title names the C architecture",
            )
        }
        _ => None,
    }
}
