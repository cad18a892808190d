//! The relaxlab text an importer builds: `test`, `init`, one `thread` per
//! herd thread, then the condition, `filter` and `observe` trailers.

use std::collections::BTreeSet;
use std::fmt::Write;

use relaxlab_semantics::ir::Span;

/// The words of the relaxlab language that cannot name a register or a
/// location (book: language.md, Lexical structure).
const KEYWORDS: [&str; 16] = [
    "test",
    "init",
    "thread",
    "if",
    "else",
    "while",
    "fork",
    "Fork",
    "exists",
    "forall",
    "observe",
    "locations",
    "filter",
    "expect",
    "true",
    "false",
];

/// The relaxlab spelling of a herd register or location name: the name
/// itself, with `_` appended when it is a relaxlab keyword.
pub(crate) fn name(herd: &str) -> String {
    if KEYWORDS.contains(&herd) {
        format!("{herd}_")
    } else {
        herd.to_string()
    }
}

/// One translated thread.
#[derive(Debug, Default)]
pub(crate) struct ThreadOut {
    pub name: String,
    /// Statements put before the body: register initialisations from the
    /// init block and registers the condition reads but the code never
    /// writes (herd reads those as 0).
    pub prelude: Vec<String>,
    /// The body, one statement or brace per line, already indented.
    pub lines: Vec<String>,
    /// Every register the thread assigns (relaxlab spelling).
    pub regs: BTreeSet<String>,
}

/// A register whose initial value is the address of a location
/// (`0:EAX=x` in the init block): the X86 importers resolve indirect
/// operands through it; the others refuse it.
#[derive(Clone, Debug)]
pub(crate) struct RegAddr {
    pub thread: usize,
    /// The register (relaxlab spelling).
    pub reg: String,
    /// The location (relaxlab spelling).
    pub loc: String,
    /// The entry in the herd text.
    pub span: Span,
}

/// An array of the init block (`int64_t t[2]={1,-1};`): relaxlab's array
/// `t[2] = {1, -1};`, one location per cell (book: herd.md, Arrays).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct HerdArray {
    /// The relaxlab spelling.
    pub name: String,
    /// The name in the herd text.
    pub name_span: Span,
    pub len: usize,
    /// The size of a cell in bytes, from the element type.
    pub cell: u8,
    /// The element type, as written (its last word).
    pub ty: String,
    /// How many words the type has (`unsigned int`: 2).
    pub type_words: usize,
    /// One value per cell, or `None`: every cell starts at 0, as in herd.
    pub values: Option<Vec<i64>>,
    /// The declaration in the herd text.
    pub span: Span,
}

/// A translation in progress.
#[derive(Debug, Default)]
pub(crate) struct Out {
    pub name: String,
    pub doc: Option<String>,
    /// Shared locations with their initial values, in order of declaration
    /// (relaxlab spelling).
    pub locs: Vec<(String, i64)>,
    pub threads: Vec<ThreadOut>,
    /// Register initialisations of the init block: (thread, register,
    /// value), applied when the threads are known.
    pub reg_inits: Vec<(usize, String, i64)>,
    /// `exists (...)`, `filter (...)`, `observe { ... }`, in herd's order.
    pub trailers: Vec<String>,
    /// Registers whose initial value is an address (`0:EAX=x`).
    pub reg_addrs: Vec<RegAddr>,
    /// The arrays of the init block, in order of declaration.
    pub arrays: Vec<HerdArray>,
    /// A C test: its arrays have herd's C types (book: herd.md, Arrays).
    pub c: bool,
    /// The type of each typed location of the init block (its last type
    /// word), for the rules of C tests with arrays.
    pub init_types: Vec<(String, Span)>,
    /// The register a name in the init block or the condition stands for,
    /// when the architecture has aliases (`X86_64`: `0:EAX` is `rax`).
    pub reg_alias: Option<fn(&str) -> Option<&'static str>>,
}

impl Out {
    /// Declares a location (relaxlab spelling) with `value`, or updates its
    /// initial value if `value` is given.
    pub(crate) fn declare(&mut self, loc: &str, value: Option<i64>) {
        match self.locs.iter_mut().find(|(l, _)| l == loc) {
            Some(entry) => {
                if let Some(v) = value {
                    entry.1 = v;
                }
            }
            None => self.locs.push((loc.to_string(), value.unwrap_or(0))),
        }
    }

    /// The array named `loc` (relaxlab spelling), if it is one.
    pub(crate) fn array(&self, loc: &str) -> Option<&HerdArray> {
        self.arrays.iter().find(|a| a.name == loc)
    }

    /// The relaxlab name of the register `herd` names in the init block or
    /// the condition.
    pub(crate) fn reg_name(&self, herd: &str) -> String {
        match self.reg_alias.and_then(|alias| alias(herd)) {
            Some(r) => r.to_string(),
            None => name(herd),
        }
    }

    /// Puts the init block's register values at the start of their threads
    /// (herd: `0:r0 = 1` in the init block).
    pub(crate) fn apply_reg_inits(&mut self) {
        for (t, reg, v) in std::mem::take(&mut self.reg_inits) {
            if let Some(th) = self.threads.get_mut(t) {
                th.prelude.push(format!("{reg} = {v};"));
                th.regs.insert(reg);
            }
        }
    }

    /// Makes sure thread `t` has register `reg`: herd reads a register the
    /// code never writes as 0, relaxlab refuses to name it.
    pub(crate) fn ensure_reg(&mut self, t: usize, reg: &str) {
        if let Some(th) = self.threads.get_mut(t) {
            if th.regs.insert(reg.to_string()) {
                th.prelude.push(format!("{reg} = 0;"));
            }
        }
    }

    /// The relaxlab source text.
    pub(crate) fn render(&self) -> String {
        let mut s = String::new();
        let _ = write!(s, "test {}", self.name);
        if let Some(doc) = &self.doc {
            let _ = write!(s, " \"{}\"", doc.replace(['"', '\n'], " "));
        }
        s.push_str("\n\ninit {");
        for (l, v) in &self.locs {
            let _ = write!(s, " {l} = {v};");
        }
        for a in &self.arrays {
            match &a.values {
                Some(v) => {
                    let v: Vec<String> = v.iter().map(i64::to_string).collect();
                    let _ = write!(s, " {}[{}] = {{{}}};", a.name, a.len, v.join(", "));
                }
                None => {
                    let _ = write!(s, " {}[{}];", a.name, a.len);
                }
            }
        }
        s.push_str(" }\n");
        for th in &self.threads {
            let _ = writeln!(s, "\nthread {} {{", th.name);
            for line in th.prelude.iter() {
                let _ = writeln!(s, "  {line}");
            }
            for line in &th.lines {
                let _ = writeln!(s, "{line}");
            }
            s.push_str("}\n");
        }
        if !self.trailers.is_empty() {
            s.push('\n');
        }
        for t in &self.trailers {
            let _ = writeln!(s, "{t}");
        }
        s
    }
}
