//! The dependencies herd7 computes for C (herdtools7's
//! `ModelUtils.make_procrels`, without the `deps` variant), from one
//! thread run's event structure, register events included:
//!
//! - `dd_inside = (rf-reg | iico_data between register events)+`: data
//!   flowing through registers;
//! - `dd_pre = (iico_data from a memory read) ; dd_inside`;
//! - `data`: from a read to a write whose value it feeds (through a data
//!   port), directly or by `dd_pre`; plus the read-to-write `iico_data`
//!   inside a read-modify-write;
//! - `addr`: from a read to an access (a read, a lock event, or a write
//!   through its address port) whose location it feeds;
//! - `ctrl`: from a read to every access of a branch whose condition it
//!   feeds, directly or through registers, dependencies and nested
//!   conditions (herd's `control` relates a condition's events to those of
//!   its branch only, not to what follows the `if`).
//!
//! `po` is herd's too: instruction instances in order, and inside one
//! instance the transitive `iico` (unsequenced operands stay unordered).

use super::es::{EvKind, Port, ThreadEs};

/// A square boolean matrix over a run's events.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Mat {
    n: usize,
    words: usize,
    bits: Vec<u64>,
}

impl Mat {
    pub(crate) fn new(n: usize) -> Mat {
        let words = n.div_ceil(64).max(1);
        Mat {
            n,
            words,
            bits: vec![0; n * words],
        }
    }

    fn from_edges(n: usize, edges: &[(u32, u32)], keep: impl Fn(usize, usize) -> bool) -> Mat {
        let mut m = Mat::new(n);
        for &(a, b) in edges {
            let (a, b) = (a as usize, b as usize);
            if keep(a, b) {
                m.add(a, b);
            }
        }
        m
    }

    pub(crate) fn add(&mut self, a: usize, b: usize) {
        self.bits[a * self.words + b / 64] |= 1u64 << (b % 64);
    }

    pub(crate) fn has(&self, a: usize, b: usize) -> bool {
        self.bits[a * self.words + b / 64] & (1u64 << (b % 64)) != 0
    }

    fn row(&self, a: usize) -> &[u64] {
        &self.bits[a * self.words..(a + 1) * self.words]
    }

    fn union(&self, o: &Mat) -> Mat {
        let mut m = self.clone();
        for (x, y) in m.bits.iter_mut().zip(&o.bits) {
            *x |= *y;
        }
        m
    }

    fn filter(&self, keep: impl Fn(usize, usize) -> bool) -> Mat {
        let mut m = Mat::new(self.n);
        for a in 0..self.n {
            for b in 0..self.n {
                if self.has(a, b) && keep(a, b) {
                    m.add(a, b);
                }
            }
        }
        m
    }

    /// `self ; o`.
    fn seq(&self, o: &Mat) -> Mat {
        let mut m = Mat::new(self.n);
        for a in 0..self.n {
            for b in 0..self.n {
                if self.has(a, b) {
                    let w = self.words;
                    let (dst, src) = (a * w, b * w);
                    for k in 0..w {
                        m.bits[dst + k] |= o.bits[src + k];
                    }
                }
            }
        }
        m
    }

    /// The transitive closure (Warshall).
    pub(crate) fn plus(&self) -> Mat {
        let mut m = self.clone();
        let w = self.words;
        for k in 0..self.n {
            let row_k: Vec<u64> = m.row(k).to_vec();
            for a in 0..self.n {
                if m.has(a, k) {
                    for (i, x) in row_k.iter().enumerate() {
                        m.bits[a * w + i] |= *x;
                    }
                }
            }
        }
        m
    }
}

/// herd's `addr`, `data` and `ctrl` of a run, and its `po`.
pub(crate) struct RunDeps {
    pub addr: Mat,
    pub data: Mat,
    pub ctrl: Mat,
    pub po: Mat,
}

/// The dependencies of a run (see the module docs).
pub(crate) fn run_deps(es: &ThreadEs) -> RunDeps {
    let ev = &es.ev;
    let n = ev.len();
    let relevant = |e: usize| ev[e].is_mem() || ev[e].is_fence() || ev[e].is_additional_mem();
    let mem_load_total = |e: usize| ev[e].is_mem_load() || ev[e].is_additional_mem_load();
    let iico = Mat::from_edges(n, &es.iico_data, |_, _| true);
    let iico_ctrl = Mat::from_edges(n, &es.iico_ctrl, |_, _| true);
    // rf-reg: a register read reads the last write of its register by an
    // earlier instruction (none: the initial value).
    let mut rf_regs = Mat::new(n);
    for (r, e) in ev.iter().enumerate() {
        if let EvKind::RegRead(reg) = e.kind {
            if let Some(w) = (0..r)
                .rev()
                .find(|&w| ev[w].kind == EvKind::RegWrite(reg) && ev[w].inst < e.inst)
            {
                rf_regs.add(w, r);
            }
        }
    }
    let iico_regs = iico.filter(|a, b| !relevant(a) && !relevant(b));
    let dd_inside = rf_regs.union(&iico_regs).plus();
    // The read and write of one read-modify-write: atomic, same
    // instruction instance, same location.
    let mut rmw = Mat::new(n);
    for (r, er) in ev.iter().enumerate() {
        if let EvKind::Read { loc, .. } = er.kind {
            for (w, ew) in ev.iter().enumerate() {
                if er.atomic
                    && ew.atomic
                    && er.inst == ew.inst
                    && matches!(ew.kind, EvKind::Write { loc: l, .. } if l == loc)
                {
                    rmw.add(r, w);
                }
            }
        }
    }
    let iico_rmw = rmw.filter(|a, b| iico.has(a, b));
    let from_mem_load = iico.filter(|a, _| mem_load_total(a));
    let dd_pre = iico_ctrl
        .filter(|a, _| ev[a].is_mem_store())
        .union(&from_mem_load)
        .seq(&dd_inside);
    let last_data = iico.filter(|a, b| ev[b].is_mem_store() && ev[a].port == Port::Data);
    let data = last_data
        .filter(|a, _| mem_load_total(a))
        .union(&dd_pre.seq(&last_data))
        .union(&iico_rmw)
        .filter(|_, b| ev[b].is_mem());
    let last_addr = iico.filter(|a, b| {
        (ev[b].is_mem_load() || (ev[b].is_mem_store() && ev[a].port == Port::Addr))
            || ev[b].is_additional_mem()
    });
    let addr = last_addr
        .filter(|a, _| mem_load_total(a))
        .union(&dd_pre.seq(&last_addr));
    let control = Mat::from_edges(n, &es.control, |_, _| true);
    let ctrl_three =
        control.filter(|a, b| (ev[a].is_load() || ev[a].is_additional_mem_load()) && relevant(b));
    let dd = dd_pre.union(&addr).union(&data);
    let control_from_load = control.filter(|a, _| ev[a].is_load());
    let ddplus = from_mem_load.seq(&dd_inside.union(&control_from_load).plus());
    let ctrl = dd
        .seq(&ctrl_three)
        .union(&ddplus.seq(&control_from_load))
        .union(&control_from_load)
        .filter(|a, b| (mem_load_total(a) || ev[a].is_mem_store()) && relevant(b));
    // po: earlier instruction instances, or iico inside one instance.
    let iico_all = iico.union(&iico_ctrl).plus();
    let mut po = Mat::new(n);
    for a in 0..n {
        for b in 0..n {
            if ev[a].inst < ev[b].inst || (ev[a].inst == ev[b].inst && iico_all.has(a, b)) {
                po.add(a, b);
            }
        }
    }
    RunDeps {
        addr,
        data,
        ctrl,
        po,
    }
}
