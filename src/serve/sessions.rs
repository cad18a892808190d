//! The stepper's sessions: one walk each, kept in memory, the least
//! recently used dropped first once there are too many.

use std::collections::HashMap;
use std::hash::{BuildHasher, RandomState};
use std::sync::Arc;

use relaxlab_semantics::ir::{OpModel, Program};

/// One walk of the stepper.
#[derive(Debug, Clone)]
pub(crate) struct Session {
    /// The program the model runs (after the mapping).
    pub program: Arc<Program>,
    pub model: OpModel,
    /// The source sent, to place instruction spans in the editor; `None`
    /// when spans refer to another text (a herd7 test's translation).
    pub source: Option<Arc<String>>,
    /// Every choice of the walk, those after `position` included.
    pub choices: Vec<u32>,
    /// How many choices the state shown has taken.
    pub position: usize,
}

/// The sessions, by id.
#[derive(Debug)]
pub(crate) struct Sessions {
    map: HashMap<String, (u64, Session)>,
    /// A use counter: the session with the smallest last use goes first.
    clock: u64,
    max: usize,
    /// Keyed hashing of a counter makes session ids unguessable.
    keys: RandomState,
}

impl Sessions {
    pub fn new(max: usize) -> Self {
        Sessions {
            map: HashMap::new(),
            clock: 0,
            max: max.max(1),
            keys: RandomState::new(),
        }
    }

    /// Stores a new session and returns its id.
    pub fn insert(&mut self, session: Session) -> String {
        self.clock += 1;
        while self.map.len() >= self.max {
            let oldest = self
                .map
                .iter()
                .min_by_key(|(_, (used, _))| *used)
                .map(|(id, _)| id.clone());
            match oldest {
                Some(id) => self.map.remove(&id),
                None => break,
            };
        }
        let id = format!("{:016x}{:08x}", self.keys.hash_one(self.clock), self.clock);
        self.map.insert(id.clone(), (self.clock, session));
        id
    }

    /// A copy of session `id`, now the most recently used.
    pub fn get(&mut self, id: &str) -> Option<Session> {
        self.clock += 1;
        let clock = self.clock;
        self.map.get_mut(id).map(|(used, s)| {
            *used = clock;
            s.clone()
        })
    }

    /// Replaces session `id` (if it is still kept).
    pub fn put(&mut self, id: &str, session: Session) {
        if let Some((_, s)) = self.map.get_mut(id) {
            *s = session;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session() -> Session {
        Session {
            program: Arc::new(Program {
                name: "T".into(),
                doc: None,
                locations: vec![],
                threads: vec![],
                toplevel: 0,
                condition: None,
                filter: None,
                filter_only: Vec::new(),
                observed: vec![],
                expectations: vec![],
                c: None,
                herd_reading: None,
                arrays: Vec::new(),
            }),
            model: OpModel::Sc,
            source: None,
            choices: vec![],
            position: 0,
        }
    }

    #[test]
    fn the_least_recently_used_session_goes_first() {
        let mut s = Sessions::new(2);
        let a = s.insert(session());
        let b = s.insert(session());
        assert!(s.get(&a).is_some());
        let c = s.insert(session());
        assert!(s.get(&a).is_some() && s.get(&c).is_some());
        assert!(s.get(&b).is_none(), "b was the least recently used");
        assert_ne!(a, c);
    }
}
