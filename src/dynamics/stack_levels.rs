//! Stack levels, for shock propagation in the position pass.
//!
//! A body's level is its distance, in contacts, from the bodies that do not
//! move this step (static, kinematic and sleeping ones are level 0), by a
//! breadth-first search over the step's contact constraints. Where a contact
//! joins two levels and its normal points up (within 60° of against
//! gravity), the position pass holds the lower body and pushes only the
//! upper one.
//!
//! Why: the NGS position pass splits each push between the two bodies, so
//! a uniformly compressed column is pushed up at every contact and down at
//! the one above, and only relaxes from its two ends, at a rate that falls
//! with the square of its height. Box2D's large pyramid (100 rows) kept a
//! few millimetres of overlap per row that way, 0.25 m at the top after 500
//! steps. Held from below, every pass pushes the column up from its base.
//!
//! Only the position pass is changed: velocities, and with them the
//! impulses and the energy, are solved as before (the same hold in the
//! velocity pass pumped energy into a ringing pyramid; see
//! `docs/2026-11-27-pyramid-ringing.md`). Leaning contacts (steeper than
//! 60°) and bodies with joints keep the even split: a jointed body is also
//! moved by its joints' position pass, and holding it for contacts set the
//! two passes against each other (ragdoll piles slept less often).

use super::solver_body::SolverBody;
use crate::math::Vec2;

/// A body no contact chain links to a non-moving body.
pub(crate) const UNLINKED: u32 = u32::MAX;

/// The least upward part (cosine to "up") of the normal of a contact on
/// which one body rests on the other, as opposed to leaning on it.
pub(crate) const SUPPORT_COS: f32 = 0.5;

/// The step's contacts, the levels and the holds, with the search's
/// scratch, kept between steps.
#[derive(Clone, Debug, Default)]
pub(crate) struct StackLevels {
    /// Per contact (its position in the touching list): its bodies, or
    /// `None` when it is no constraint this step, and the upward part of
    /// its normal (A → B).
    contacts: Vec<Option<(u32, u32)>>,
    rise: Vec<f32>,
    /// Per body slot: 0 for a body that does not respond, else the number
    /// of contacts to the nearest one, or [`UNLINKED`].
    level: Vec<u32>,
    /// Per body slot: the body has a joint (never held).
    jointed: Vec<bool>,
    /// Per contact: which body the position pass holds (1: A, 2: B).
    hold: Vec<u8>,
    start: Vec<u32>,
    adjacent: Vec<u32>,
    queue: Vec<u32>,
    /// The last search's input: its contacts and which bodies responded.
    /// The levels are a function of these alone, and a settled scene gives
    /// the same input step after step: a repeated input keeps the levels
    /// instead of searching again.
    searched: Vec<Option<(u32, u32)>>,
    responded: Vec<bool>,
}

impl StackLevels {
    /// Starts a step of `contacts` touching contacts, none a constraint yet,
    /// between `bodies` body slots.
    pub fn begin(&mut self, contacts: usize, bodies: usize) {
        self.start.clear();
        self.start.resize(bodies + 1, 0);
        self.contacts.clear();
        self.contacts.resize(contacts, None);
        self.rise.clear();
        self.rise.resize(contacts, 0.0);
        self.jointed.clear();
        self.jointed.resize(bodies, false);
    }

    /// `body` (a slot begun with) has a joint: it is never held.
    pub fn jointed(&mut self, body: u32) {
        self.jointed[body as usize] = true;
    }

    /// Contact `at` is a constraint between `a` and `b`, with normal
    /// `normal` (A → B); `up` is the unit vector against gravity (zero
    /// without gravity: nothing is held).
    pub fn add(&mut self, at: usize, a: u32, b: u32, normal: Vec2, up: Vec2) {
        self.contacts[at] = Some((a, b));
        self.rise[at] = normal.dot(up);
        // The bodies' degrees, for the adjacency.
        self.start[a as usize + 1] += 1;
        self.start[b as usize + 1] += 1;
    }

    /// The levels of `bodies` over the contacts added (in list order, so
    /// the search, and every level, is deterministic), and which body of
    /// each contact the position pass holds: the lower of two levels, where
    /// the normal rises at least [`SUPPORT_COS`], neither if one has a
    /// joint. `bodies` may end with slots past those begun with (the
    /// joints' world frame), which have no contact and no joint.
    pub fn build(&mut self, bodies: &[SolverBody]) {
        let n = bodies.len();
        self.jointed.resize(n, false);
        self.hold.clear();
        // Where no contact could hold a body (no gravity: nothing rests on
        // anything, as in `smash`), the levels are not needed. The last
        // search's input and its levels are left as they were, so that a
        // later step that repeats that input may keep those levels.
        if !self.rise.iter().any(|r| r.abs() >= SUPPORT_COS) {
            self.hold.resize(self.contacts.len(), 0);
            return;
        }
        let same = self.searched == self.contacts
            && self.responded.len() == n
            && self
                .responded
                .iter()
                .zip(bodies)
                .all(|(&r, b)| r == b.responds());
        if !same {
            self.search(bodies);
            self.searched.clone_from(&self.contacts);
            self.responded.clear();
            self.responded.extend(bodies.iter().map(|b| b.responds()));
        } else {
            debug_assert!(self.search_matches(bodies), "kept levels differ");
        }
        let holds = self.contacts.iter().zip(&self.rise).map(|(c, &rise)| {
            let Some((a, b)) = *c else {
                return 0;
            };
            let (a, b) = (a as usize, b as usize);
            if self.jointed[a] || self.jointed[b] {
                return 0;
            }
            let (la, lb) = (self.level[a], self.level[b]);
            if la < lb && rise >= SUPPORT_COS {
                1
            } else if lb < la && -rise >= SUPPORT_COS {
                2
            } else {
                0
            }
        });
        self.hold.extend(holds);
    }

    /// The breadth-first search of the levels over the contacts added.
    fn search(&mut self, bodies: &[SolverBody]) {
        let n = bodies.len();
        self.level.clear();
        self.level.extend(
            bodies
                .iter()
                .map(|b| if b.responds() { UNLINKED } else { 0 }),
        );
        // Adjacency in compressed rows: the degrees counted as the contacts
        // came (slots past those begun with have none), prefix sums, fill.
        self.start.resize(n + 1, 0);
        for i in 0..n {
            self.start[i + 1] += self.start[i];
        }
        self.adjacent.clear();
        self.adjacent.resize(self.start[n] as usize, 0);
        let queue = &mut self.queue;
        queue.clear();
        queue.extend_from_slice(&self.start[..n]);
        for &(a, b) in self.contacts.iter().flatten() {
            let (a, b) = (a as usize, b as usize);
            self.adjacent[queue[a] as usize] = b as u32;
            queue[a] += 1;
            self.adjacent[queue[b] as usize] = a as u32;
            queue[b] += 1;
        }
        // Breadth first, from every non-moving body at once.
        queue.clear();
        queue.extend((0..n as u32).filter(|&i| self.level[i as usize] == 0));
        let mut at = 0;
        while at < queue.len() {
            let i = queue[at] as usize;
            at += 1;
            let up = self.level[i] + 1;
            for &j in &self.adjacent[self.start[i] as usize..self.start[i + 1] as usize] {
                if self.level[j as usize] == UNLINKED {
                    self.level[j as usize] = up;
                    queue.push(j);
                }
            }
        }
    }

    /// Whether the kept levels are what searching again gives (a debug
    /// check of the reuse).
    fn search_matches(&mut self, bodies: &[SolverBody]) -> bool {
        let kept = self.level.clone();
        let start = self.start.clone();
        self.search(bodies);
        let same = self.level == kept;
        self.start = start;
        same
    }

    /// Whether `body` (a slot begun with, or one past them) has a joint.
    #[inline]
    pub fn jointed_body(&self, body: u32) -> bool {
        self.jointed.get(body as usize).copied().unwrap_or(false)
    }

    /// A body's level (after [`StackLevels::build`]).
    #[cfg(test)]
    pub fn level(&self, body: u32) -> u32 {
        self.level[body as usize]
    }

    /// Which body of contact `at` the position pass holds: (A, B), at most
    /// one (after [`StackLevels::build`]).
    #[inline]
    pub fn held(&self, at: u32) -> (bool, bool) {
        let h = self.hold[at as usize];
        (h == 1, h == 2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(moves: bool) -> SolverBody {
        SolverBody {
            inv_mass: if moves { 1.0 } else { 0.0 },
            inv_inertia: if moves { 1.0 } else { 0.0 },
            ..Default::default()
        }
    }

    /// Levels over `pairs` (all with normal `normal`), with `jointed`.
    fn levels(
        bodies: &[SolverBody],
        pairs: &[(u32, u32)],
        normal: Vec2,
        jointed: &[u32],
    ) -> StackLevels {
        let mut s = StackLevels::default();
        s.begin(pairs.len() + 1, bodies.len());
        for (at, &(a, b)) in pairs.iter().enumerate() {
            s.add(at, a, b, normal, Vec2::Y);
        }
        for &j in jointed {
            s.jointed(j);
        }
        s.build(bodies);
        s
    }

    #[test]
    fn levels_count_contacts_from_the_ground() {
        // 0 ground; 1-2-3 a column on it; 4 on 2 and 3; 5-6 touch only
        // each other; 7 touches nothing.
        let bodies: Vec<_> = (0..8).map(|i| body(i != 0)).collect();
        let pairs = [(2, 3), (0, 1), (4, 3), (1, 2), (2, 4), (5, 6)];
        let s = levels(&bodies, &pairs, Vec2::Y, &[]);
        let found: Vec<u32> = (0..8).map(|i| s.level(i)).collect();
        assert_eq!(found, [0, 1, 2, 3, 3, UNLINKED, UNLINKED, UNLINKED]);
        // A contact that is no constraint this step links nothing.
        assert_eq!(s.held(pairs.len() as u32), (false, false));
        // Two non-moving bodies: the nearer counts.
        let mut bodies = bodies;
        bodies[3] = body(false);
        let s = levels(&bodies, &pairs, Vec2::Y, &[]);
        let found: Vec<u32> = (0..5).map(|i| s.level(i)).collect();
        assert_eq!(found, [0, 1, 1, 0, 1]);
    }

    /// One `StackLevels` through several steps: a repeated input keeps
    /// its levels, and a changed one (a contact gone, a body stopped) is
    /// searched again, as a fresh search would.
    #[test]
    fn levels_are_kept_only_while_the_input_repeats() {
        let moving: Vec<_> = (0..6).map(|i| body(i != 0)).collect();
        let mut stopped = moving.clone();
        stopped[3] = body(false);
        let column = [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5)];
        let broken = [(0, 1), (1, 2), (3, 4), (4, 5)];
        let mut s = StackLevels::default();
        let mut step = |bodies: &[SolverBody], pairs: &[(u32, u32)]| {
            s.begin(pairs.len(), bodies.len());
            for (at, &(a, b)) in pairs.iter().enumerate() {
                s.add(at, a, b, Vec2::Y, Vec2::Y);
            }
            s.build(bodies);
            let kept: Vec<u32> = (0..6).map(|i| s.level(i)).collect();
            let fresh = levels(bodies, pairs, Vec2::Y, &[]);
            assert_eq!(kept, (0..6).map(|i| fresh.level(i)).collect::<Vec<_>>());
            kept
        };
        let first = step(&moving, &column);
        assert_eq!(first, [0, 1, 2, 3, 4, 5]);
        assert_eq!(step(&moving, &column), first);
        assert_eq!(
            step(&moving, &broken),
            [0, 1, 2, UNLINKED, UNLINKED, UNLINKED]
        );
        assert_eq!(step(&stopped, &broken), [0, 1, 2, 0, 1, 2]);
        assert_eq!(step(&moving, &column), first);
    }

    /// Without gravity no contact holds a body; a step with gravity after
    /// such steps finds the levels a fresh search finds.
    #[test]
    fn nothing_is_held_without_gravity() {
        let bodies: Vec<_> = (0..5).map(|i| body(i != 0)).collect();
        let column = [(0, 1), (1, 2), (2, 3), (3, 4)];
        let mut s = StackLevels::default();
        let mut step = |pairs: &[(u32, u32)], up: Vec2| {
            s.begin(pairs.len(), bodies.len());
            for (at, &(a, b)) in pairs.iter().enumerate() {
                s.add(at, a, b, Vec2::Y, up);
            }
            s.build(&bodies);
            let held: Vec<_> = (0..pairs.len() as u32).map(|at| s.held(at)).collect();
            // No levels are searched without gravity.
            let levels: Vec<u32> = match up == Vec2::ZERO {
                true => Vec::new(),
                false => (0..5).map(|i| s.level(i)).collect(),
            };
            (held, levels)
        };
        let (free, _) = step(&column, Vec2::ZERO);
        assert!(free.iter().all(|&h| h == (false, false)));
        let (held, levels) = step(&column[..2], Vec2::Y);
        assert_eq!(held, [(true, false), (true, false)]);
        assert_eq!(levels, [0, 1, 2, UNLINKED, UNLINKED]);
        step(&column, Vec2::ZERO);
        let (held, levels) = step(&column, Vec2::Y);
        assert!(held.iter().all(|&h| h == (true, false)));
        assert_eq!(levels, [0, 1, 2, 3, 4]);
    }

    #[test]
    fn only_the_lower_body_of_a_supporting_contact_is_held() {
        let bodies: Vec<_> = (0..4).map(|i| body(i != 0)).collect();
        let held = |pair: (u32, u32), normal: Vec2, jointed: &[u32]| {
            let s = levels(&bodies, &[(0, 1), (1, 2), (2, 3), pair], normal, jointed);
            s.held(3)
        };
        // 1 under 2: the normal from 1 up to 2 holds 1.
        assert_eq!(held((1, 2), Vec2::Y, &[]), (true, false));
        assert_eq!(held((2, 1), -Vec2::Y, &[]), (false, true));
        // 60° from up still rests; steeper leans; upside down never holds.
        let at = |deg: f32| Vec2::new(deg.to_radians().sin(), deg.to_radians().cos());
        assert_eq!(held((1, 2), at(59.0), &[]), (true, false));
        assert_eq!(held((1, 2), at(61.0), &[]), (false, false));
        assert_eq!(held((2, 1), at(59.0), &[]), (false, false));
        // A jointed body on either side: nothing is held.
        assert_eq!(held((1, 2), Vec2::Y, &[2]), (false, false));
        assert_eq!(held((1, 2), Vec2::Y, &[1]), (false, false));
        // The same level: nothing is held.
        let s = levels(&bodies, &[(0, 1), (0, 2), (1, 2)], Vec2::Y, &[]);
        assert_eq!(s.held(2), (false, false));
        // No gravity: nothing is held.
        let mut s = StackLevels::default();
        s.begin(2, bodies.len());
        s.add(0, 0, 1, Vec2::Y, Vec2::ZERO);
        s.add(1, 1, 2, Vec2::Y, Vec2::ZERO);
        s.build(&bodies);
        assert_eq!(s.held(1), (false, false));
    }
}
