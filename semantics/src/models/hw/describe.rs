//! The hardware models' states drawn for people ([`Describe`]): memory,
//! then each thread's store buffers (TSO: one FIFO; PSO and PSLO: one per
//! location) and, under PSLO, its load histories. Buffers and histories
//! are drawn oldest entry first, as RELAXER Figs. 4-6 write them.

use crate::ir::{LocId, Program, ThreadId, Value};
use crate::picture::{loc_name, memory_cells, Cell, Describe, Group, MemoryPicture};

use super::flat::Segs;
use super::pslo::hist;
use super::pso::buf;
use super::{Pslo, Pso, Sc, ScAsWritten, Tso};

/// Memory `m` of a hardware state (segment 0 of TSO, PSO and PSLO).
fn memory(program: &Program, m: &[Value]) -> Vec<Group> {
    vec![Group::new("memory", memory_cells(program, m))]
}

/// `v` as a cell of the buffer or history of `loc`.
fn values(values: &[Value]) -> Vec<Cell> {
    values.iter().map(|v| Cell::plain(v.to_string())).collect()
}

impl Describe for Sc {
    fn describe(&self, program: &Program, m: &Box<[Value]>) -> MemoryPicture {
        MemoryPicture {
            shared: memory(program, m),
            threads: vec![Vec::new(); program.threads.len()],
        }
    }
}

impl Describe for ScAsWritten {
    fn describe(&self, program: &Program, m: &Box<[Value]>) -> MemoryPicture {
        Sc.describe(program, m)
    }
}

impl Describe for Tso {
    /// Memory, and each thread's FIFO store buffer `B[p]` of `(loc, value)`.
    fn describe(&self, program: &Program, s: &Segs) -> MemoryPicture {
        let threads = (0..program.threads.len())
            .map(|p| {
                let cells = s
                    .seg(1 + p)
                    .chunks_exact(2)
                    .map(|e| {
                        let loc = LocId(e[0] as u32);
                        Cell::plain(format!("{} = {}", loc_name(program, loc), e[1]))
                    })
                    .collect();
                vec![Group::hinted("store buffer", "oldest first", cells)]
            })
            .collect();
        MemoryPicture {
            shared: memory(program, s.seg(0)),
            threads,
        }
    }
}

/// Each thread's per-location buffers `B[p][a]` (PSO and PSLO), one group
/// per location.
fn pso_buffers(program: &Program, s: &Segs, p: ThreadId) -> Vec<Group> {
    (0..program.locations.len())
        .map(|a| {
            let a = LocId::new(a);
            Group::hinted(
                format!("store buffer of {}", loc_name(program, a)),
                "oldest first",
                values(s.seg(buf(s, p, a))),
            )
        })
        .collect()
}

impl Describe for Pso {
    fn describe(&self, program: &Program, s: &Segs) -> MemoryPicture {
        MemoryPicture {
            shared: memory(program, s.seg(0)),
            threads: (0..program.threads.len())
                .map(|p| pso_buffers(program, s, ThreadId::new(p)))
                .collect(),
        }
    }
}

impl Describe for Pslo {
    /// PSO's picture, plus each thread's load histories `S[p][a]`: the
    /// values a load of `a` may still read, oldest first (the newest is
    /// memory). An empty history is not drawn: the thread is not running,
    /// or will never load the location again (the model forgets it, see
    /// the `pslo` module docs, deviation 3).
    fn describe(&self, program: &Program, s: &Segs) -> MemoryPicture {
        let threads = (0..program.threads.len())
            .map(|p| {
                let p = ThreadId::new(p);
                let mut groups = pso_buffers(program, s, p);
                for a in 0..program.locations.len() {
                    let a = LocId::new(a);
                    let h = s.seg(hist(s, p, a));
                    if !h.is_empty() {
                        groups.push(Group::hinted(
                            format!("history of {}", loc_name(program, a)),
                            "oldest first; a load may read any entry",
                            values(h),
                        ));
                    }
                }
                groups
            })
            .collect();
        MemoryPicture {
            shared: memory(program, s.seg(0)),
            threads,
        }
    }
}
