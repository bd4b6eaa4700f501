//! Rewind: snapshots of the world every [`EVERY`] steps, kept in bounded
//! memory. While paused, Left and Right scrub between them; play resumes from
//! wherever the scrub stopped, and the snapshots after that point are dropped.

use minkowski::World;
use std::collections::VecDeque;

/// Steps between snapshots.
pub const EVERY: u64 = 30;
/// Snapshots kept (the oldest go first): 600 × 30 steps = 5 minutes at 60 Hz.
pub const CAPACITY: usize = 600;

/// The snapshot ring.
#[derive(Default)]
pub struct Rewind {
    snaps: VecDeque<(u64, World)>,
}

impl Rewind {
    /// Forgets everything (new scene).
    pub fn clear(&mut self) {
        self.snaps.clear();
    }

    /// Call after each step (and after loading): keeps a snapshot on every
    /// [`EVERY`]-th step, first dropping any snapshots at or after this step
    /// (they belong to a future that no longer happens).
    pub fn after_step(&mut self, world: &World) {
        let k = world.step_index();
        if k % EVERY == 0 {
            self.truncate_after(k.saturating_sub(1));
            self.snaps.push_back((k, world.clone()));
            while self.snaps.len() > CAPACITY {
                self.snaps.pop_front();
            }
        }
    }

    /// Drops snapshots later than step `k` (the world changed at `k`).
    pub fn truncate_after(&mut self, k: u64) {
        while self.snaps.back().is_some_and(|(s, _)| *s > k) {
            self.snaps.pop_back();
        }
    }

    /// The latest snapshot strictly before step `k`.
    pub fn before(&self, k: u64) -> Option<&World> {
        self.snaps
            .iter()
            .rev()
            .find(|(s, _)| *s < k)
            .map(|(_, w)| w)
    }

    /// The earliest snapshot strictly after step `k`.
    pub fn after(&self, k: u64) -> Option<&World> {
        self.snaps.iter().find(|(s, _)| *s > k).map(|(_, w)| w)
    }

    /// Steps covered: (oldest, newest) snapshot.
    pub fn span(&self) -> Option<(u64, u64)> {
        Some((self.snaps.front()?.0, self.snaps.back()?.0))
    }

    /// Number of snapshots held.
    pub fn len(&self) -> usize {
        self.snaps.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use minkowski::{BodyDef, Shape, Vec2, WorldSettings};

    fn world() -> World {
        let mut w = World::new(WorldSettings::default());
        w.add_body(BodyDef::new(Shape::circle(0.5), Vec2::new(0.0, 5.0)))
            .unwrap();
        w
    }

    #[test]
    fn scrub_back_and_forth() {
        let mut w = world();
        let mut r = Rewind::default();
        r.after_step(&w);
        for _ in 0..100 {
            w.step();
            r.after_step(&w);
        }
        assert_eq!(r.span(), Some((0, 90)));
        let back = r.before(100).unwrap().clone();
        assert_eq!(back.step_index(), 90);
        let back2 = r.before(90).unwrap().clone();
        assert_eq!(back2.step_index(), 60);
        assert_eq!(r.after(60).unwrap().step_index(), 90);
        // Re-simulating from a snapshot is deterministic.
        let mut replay = back2.clone();
        for _ in 0..40 {
            replay.step();
        }
        assert_eq!(replay.state_hash(), w.state_hash());
    }

    #[test]
    fn resuming_drops_the_future() {
        let mut w = world();
        let mut r = Rewind::default();
        r.after_step(&w);
        for _ in 0..90 {
            w.step();
            r.after_step(&w);
        }
        let mut w = r.before(61).unwrap().clone();
        assert_eq!(w.step_index(), 60);
        r.truncate_after(60);
        assert_eq!(r.span(), Some((0, 60)));
        for _ in 0..30 {
            w.step();
            r.after_step(&w);
        }
        assert_eq!(r.span(), Some((0, 90)));
    }

    #[test]
    fn capacity_is_bounded() {
        let mut w = world();
        let mut r = Rewind::default();
        for _ in 0..(EVERY as usize * (CAPACITY + 10)) {
            w.step();
            r.after_step(&w);
        }
        assert_eq!(r.len(), CAPACITY);
    }
}
