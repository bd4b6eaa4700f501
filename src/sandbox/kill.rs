//! The kill plane: dynamic bodies that have left the scene for good are
//! removed, so a body that fell off an open ground does not fall for ever
//! (and drag the camera fit, the plots and the step time along with it).
//!
//! # The rule
//!
//! At load, the *scene bounds* are the union of every body's bounding box
//! (static ones included). The *kill box* is the scene bounds grown on every
//! side by their larger side, and by at least [`MIN_MARGIN`]. Before each
//! step, a dynamic body is removed when its bounding box lies wholly outside
//! the kill box and it is on gravity's downhill side of the box's centre
//! (`(c − centre) · g > 0`, c its centre of mass), or when gravity is zero:
//! a body thrown high above the scene comes back, one beside or below it
//! does not. Static and kinematic bodies are never removed; sleeping ones
//! are not looked at (they have not moved since they were awake).
//!
//! Each removal goes through the sandbox's one door for world changes as
//! `InputEvent::Remove`, so a recording holds it and a replay removes the
//! same body before the same step.

use minkowski::{Aabb, BodyKind, Vec2, World};

/// Smallest margin between the scene bounds and the kill box (m).
pub const MIN_MARGIN: f32 = 20.0;

/// The scene's bounds at load and the kill box around them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KillBox {
    /// Every body's bounding box at load, united.
    pub scene: Aabb,
    /// Bodies wholly outside this (and downhill) are removed.
    pub limit: Aabb,
}

impl KillBox {
    /// The kill box of a freshly loaded world. An empty world gets the
    /// bounds −10..10 × −1..10 m.
    pub fn of(world: &World) -> KillBox {
        let scene = world
            .bodies()
            .map(|(_, b)| b.aabb())
            .reduce(|a, b| a.union(&b))
            .unwrap_or_else(|| Aabb::new(Vec2::new(-10.0, -1.0), Vec2::new(10.0, 10.0)));
        let size = scene.max - scene.min;
        let margin = size.x.max(size.y).max(MIN_MARGIN);
        KillBox {
            scene,
            limit: Aabb::new(
                scene.min - Vec2::splat(margin),
                scene.max + Vec2::splat(margin),
            ),
        }
    }

    /// Slot indices of the bodies to remove now, in id order.
    pub fn doomed(&self, world: &World) -> Vec<u32> {
        let g = world.settings().gravity;
        let centre = self.limit.center();
        world
            .bodies()
            // A sleeping body has not moved since it was last looked at
            // (and a change of gravity wakes every body).
            .filter(|(_, b)| b.kind() == BodyKind::Dynamic && b.is_awake())
            .filter(|(_, b)| !b.aabb().overlaps(&self.limit))
            .filter(|(_, b)| g == Vec2::ZERO || (b.center_of_mass() - centre).dot(g) > 0.0)
            .map(|(id, _)| id.index)
            .collect()
    }

    /// What F fits: the scene bounds and every body that still overlaps
    /// them (bodies that left the scene do not stretch the view).
    pub fn fit_bounds(&self, world: &World) -> Aabb {
        world
            .bodies()
            .map(|(_, b)| b.aabb())
            .filter(|bb| bb.overlaps(&self.scene))
            .fold(self.scene, |u, bb| u.union(&bb))
    }
}

/// The steps at which bodies were removed, for the HUD's count; kept in
/// step with rewind (a removal after the step on screen has not happened).
#[derive(Clone, Debug, Default)]
pub struct KillLog {
    steps: Vec<u64>,
}

impl KillLog {
    /// Notes `n` removals before step `step`.
    pub fn note(&mut self, step: u64, n: usize) {
        self.steps.extend(std::iter::repeat_n(step, n));
    }

    /// Removals before the world reached step index `step`.
    pub fn count_at(&self, step: u64) -> usize {
        self.steps.partition_point(|s| *s < step)
    }

    /// Forgets the removals at or after `step` (play goes on from there).
    pub fn forget_from(&mut self, step: u64) {
        let keep = self.count_at(step);
        self.steps.truncate(keep);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use minkowski::{BodyDef, Shape, WorldSettings};

    /// A 10 m ledge and a ball rolling off its end at 5 m/s.
    fn ledge() -> World {
        let mut w = World::new(WorldSettings::default());
        w.add_body(
            BodyDef::new(Shape::rect(5.0, 0.5), Vec2::new(0.0, -0.5)).kind(BodyKind::Static),
        )
        .unwrap();
        w.add_body(
            BodyDef::new(Shape::circle(0.5), Vec2::new(3.0, 0.5)).velocity(Vec2::new(5.0, 0.0)),
        )
        .unwrap();
        w
    }

    #[test]
    fn a_body_that_falls_off_the_ledge_is_removed_once_far_below() {
        let mut w = ledge();
        let k = KillBox::of(&w);
        // 10 m wide scene: the margin is the minimum, 20 m.
        assert_eq!(k.limit.min.y, k.scene.min.y - MIN_MARGIN);
        let mut removed_at = None;
        for step in 0..600 {
            let d = k.doomed(&w);
            if !d.is_empty() {
                assert_eq!(d, vec![1]);
                removed_at = Some(step);
                break;
            }
            w.step();
        }
        // About 0.5 s to roll off the edge, then 2.1 s of free fall until
        // its top is below the kill box (y < −21.5 m): about 156 steps.
        let step = removed_at.expect("never removed");
        assert!((140..175).contains(&step), "removed at step {step}");
        let ball = w.bodies().nth(1).unwrap().1;
        assert!(ball.aabb().max.y < k.limit.min.y);
        // The camera fit ignores it: it is the scene bounds.
        assert_eq!(k.fit_bounds(&w), k.scene);
    }

    #[test]
    fn a_body_high_above_stays_and_zero_gravity_removes_any_escapee() {
        let mut w = ledge();
        let k = KillBox::of(&w);
        let id = w.bodies().nth(1).unwrap().0;
        w.set_transform(id, Vec2::new(0.0, 500.0), 0.0).unwrap();
        assert!(k.doomed(&w).is_empty(), "it will fall back");
        w.set_gravity(Vec2::ZERO);
        assert_eq!(k.doomed(&w), vec![id.index]);
        // Sideways gravity: a body far to the left is uphill, one far to the
        // right is downhill.
        w.set_gravity(Vec2::new(10.0, 0.0));
        w.set_transform(id, Vec2::new(-500.0, 0.0), 0.0).unwrap();
        assert!(k.doomed(&w).is_empty());
        w.set_transform(id, Vec2::new(500.0, 0.0), 0.0).unwrap();
        assert_eq!(k.doomed(&w), vec![id.index]);
    }

    #[test]
    fn static_and_kinematic_bodies_stay() {
        let mut w = ledge();
        let k = KillBox::of(&w);
        w.add_body(
            BodyDef::new(Shape::circle(1.0), Vec2::new(0.0, -900.0)).kind(BodyKind::Kinematic),
        )
        .unwrap();
        assert!(k.doomed(&w).is_empty());
    }

    #[test]
    fn the_log_counts_removals_before_a_step_and_forgets_the_future() {
        let mut log = KillLog::default();
        log.note(10, 2);
        log.note(40, 1);
        assert_eq!(log.count_at(10), 0);
        assert_eq!(log.count_at(11), 2);
        assert_eq!(log.count_at(100), 3);
        log.forget_from(40);
        assert_eq!(log.count_at(100), 2);
    }
}
