//! Stage 7b: continuous collision. A dynamic body that moved farther in
//! this step than half its thinnest part (counting the reach of its turn) is
//! swept from its old pose to its new one against the static and kinematic
//! shapes in its path; at the first time of impact (with rotation, see
//! `geometry::toi`) it is put back to where it touches, keeping its
//! velocity, and the next step's contact stops it. So a fast body cannot
//! pass through a wall or the ground between two steps, as in Box2D v3's
//! continuous stage. Bullets (`BodyDef::bullet`) are swept after the
//! others, against dynamic bodies' final poses too.
//!
//! A chain segment is one-sided: once a shape's centroid is behind it the
//! narrowphase makes no contact, and the shape falls out. So a body is also
//! swept, however slow, when its step may carry a centroid across a chain
//! segment it touches (a body pressed deep into a wall by a crowd), and a
//! core at a chain segment is held only while the step takes it deeper.

use super::world::World;
use crate::dynamics::BodyKind;
use crate::geometry::toi::{time_of_impact, Sweep, ToiOptions, ToiState};
use crate::math::{Aabb, Iso, Rot, Vec2};
use crate::narrowphase::dispatch;
use crate::shape::Shape;

/// A body is fast when its step moved some point of it by more than this
/// fraction of its thinnest part.
const FAST_FRACTION: f32 = 0.5;

/// The distance (m) of point `c` from the segment `a`→`b`, negative behind
/// it (a chain segment's back, left of the direction `a`→`b`).
fn one_sided_distance(a: Vec2, b: Vec2, c: Vec2) -> f32 {
    let d = b - a;
    let len2 = d.length_squared();
    let u = if len2 > 0.0 {
        ((c - a).dot(d) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let dist = (c - (a + u * d)).length();
    if (c - a).perp_dot(d) < 0.0 {
        -dist
    } else {
        dist
    }
}

/// An upper bound on `|r.angle()|` without the arctangent, for a turn of
/// at most a quarter turn (`None` otherwise, or for a rotation far from
/// unit length). For a unit rotation by `a`, `|a| = asin(|sin a|) <=
/// π/2·|sin a|` (`asin` is convex on [0, 1]); the factor 1.02 covers a
/// length down to 0.99 and the arctangent's rounding.
fn turn_bound(r: Rot) -> Option<f32> {
    let len2 = r.cos * r.cos + r.sin * r.sin;
    (r.cos >= 0.0 && len2 >= 0.98).then(|| 1.02 * std::f32::consts::FRAC_PI_2 * r.sin.abs())
}

impl World {
    /// Puts every fast dynamic body back to its first time of impact with a
    /// static or kinematic shape this step (a bullet: with any other
    /// non-bullet shape), if it had one.
    pub(super) fn solve_continuous(&mut self) {
        if !self.settings.continuous {
            return;
        }
        let slop = self.settings.linear_slop;
        let options = ToiOptions {
            target: slop,
            tolerance: 0.25 * slop,
            max_fraction: 1.0,
        };
        let mut ids = Vec::new();
        let mut touches = std::mem::take(&mut self.scratch.chain_touches);
        self.chain_touches(&mut touches);
        // Ordinary bodies first, against static and kinematic shapes; then
        // bullets, against those and the other bodies' final poses too (as
        // Box2D v3 orders them).
        // Only the bodies the solver moved can have moved (`moving`, in slot
        // order; the others are asleep or frozen and return at once); the
        // second pass runs only if one of them is a bullet.
        // Nothing flagged static in the broadphase (no static or kinematic
        // shape, hence no chain either): an ordinary body has nothing to
        // stop at, and its sweep is not built (`smash` builds 5,000 a step).
        let moving = std::mem::take(&mut self.scratch.moving);
        let walls = self.broadphase.has_static();
        let mut bullet = false;
        for &i in &moving {
            bullet |= self.slots[i as usize]
                .body
                .as_ref()
                .is_some_and(|b| b.bullet);
            if walls {
                self.sweep_body(i as usize, false, &options, &touches, &mut ids);
            }
        }
        if bullet {
            for &i in &moving {
                self.sweep_body(i as usize, true, &options, &touches, &mut ids);
            }
        }
        self.scratch.moving = moving;
        self.scratch.chain_touches = touches;
    }

    /// The contacts (with at least one point) of a dynamic body's shape with
    /// a chain segment, as (dynamic slot, its shape, chain slot, chain
    /// shape), sorted.
    fn chain_touches(&self, out: &mut Vec<(u32, u32, u32, u32)>) {
        out.clear();
        if self.chain_bodies.is_empty() {
            return;
        }
        let listed = |body: u32| self.chain_bodies.binary_search(&body).is_ok();
        let shape = |body: u32, child: u32| {
            let b = self.slots[body as usize].body.as_ref()?;
            Some((b.kind, &b.colliders.get(child as usize)?.shape))
        };
        for c in &self.scratch.touching {
            if !(listed(c.body_a) || listed(c.body_b)) {
                continue;
            }
            let (Some((ka, sa)), Some((kb, sb))) =
                (shape(c.body_a, c.child_a), shape(c.body_b, c.child_b))
            else {
                continue;
            };
            match (sa, sb) {
                (Shape::ChainSegment { .. }, _) if kb == BodyKind::Dynamic => {
                    out.push((c.body_b, c.child_b, c.body_a, c.child_a));
                }
                (_, Shape::ChainSegment { .. }) if ka == BodyKind::Dynamic => {
                    out.push((c.body_a, c.child_a, c.body_b, c.child_b));
                }
                _ => {}
            }
        }
        out.sort_unstable();
    }

    /// The least distance (m) of body `i`'s shapes' centroids, at the pose
    /// `start`, from a chain segment it touches in front (infinite when it
    /// touches none): a one-sided segment lets a shape through once its
    /// centroid is behind, so a step that moves the body farther than this
    /// may carry it out, however slow it is.
    fn chain_clearance(&self, i: usize, start: &Iso, touches: &[(u32, u32, u32, u32)]) -> f32 {
        let (i, mut clearance) = (i as u32, f32::INFINITY);
        let from = touches.partition_point(|t| t.0 < i);
        let Some(b) = self.slots[i as usize].body.as_ref() else {
            return clearance;
        };
        for &(_, child, chain, chain_child) in touches[from..].iter().take_while(|t| t.0 == i) {
            let (Some(c), Some(ground)) = (
                b.colliders.get(child as usize),
                self.slots[chain as usize].body.as_ref(),
            ) else {
                continue;
            };
            let Some(Shape::ChainSegment { a, b: e1, .. }) =
                ground.colliders.get(chain_child as usize).map(|g| &g.shape)
            else {
                continue;
            };
            let pose = ground.colliders[chain_child as usize].pose(&ground.xf);
            let centroid = c.pose(start).apply(c.shape.local_centroid());
            let d = one_sided_distance(pose.apply(*a), pose.apply(*e1), centroid);
            if d >= 0.0 {
                clearance = clearance.min(d);
            }
        }
        clearance
    }

    /// Sweeps body `i` if it is a fast dynamic body of the pass (`bullets`
    /// or not) and puts it back at its first time of impact.
    fn sweep_body(
        &mut self,
        i: usize,
        bullets: bool,
        options: &ToiOptions,
        touches: &[(u32, u32, u32, u32)],
        ids: &mut Vec<u32>,
    ) {
        let slop = options.target;
        {
            let Some(q) = self.scratch.solver_poses.get(i).copied() else {
                return;
            };
            let Some(b) = self.slots[i].body.as_ref() else {
                return;
            };
            if b.kind != BodyKind::Dynamic || !b.awake || b.frozen || b.bullet != bullets {
                return;
            }
            // The turn this step: exact up to half a turn; beyond, the
            // final angular velocity's.
            let dt = self.settings.dt;
            let big_turn = (b.w * dt).abs() > std::f32::consts::FRAC_PI_2;
            let moved = q.dp.length();
            let thin = b.thinnest();
            // Most bodies return below with their reach far under the
            // limits: a bound on the turn tells them so without the
            // arctangent (the exact reach is at most the bound's, so these
            // returns are the exact test's).
            if let Some(bound) = turn_bound(q.dq).filter(|_| !big_turn) {
                let reach = moved + bound * b.extent;
                if reach <= slop || (reach <= FAST_FRACTION * thin && !touches_chain(touches, i)) {
                    return;
                }
            }
            let turn = if big_turn { b.w * dt } else { q.dq.angle() };
            let reach = moved + turn.abs() * b.extent;
            if reach <= slop {
                return;
            }
            if reach.is_nan() {
                return;
            }
            // A slow body is swept only where it touches a one-sided chain
            // (see `chain_clearance`); the others need no start pose.
            let slow = reach <= FAST_FRACTION * thin;
            if slow && !touches_chain(touches, i) {
                return;
            }
            // The step's sweep of the body's frame.
            let end = b.xf;
            let start_rot = end.rot * Rot::from_angle(-turn);
            let c1 = b.center;
            let c0 = c1 - q.dp;
            let body_sweep = Sweep {
                local_center: b.local_center,
                c0,
                c1,
                q0: start_rot,
                angle: turn,
            };
            let start = Iso::from_parts(c0 - start_rot.apply(b.local_center), start_rot);
            if slow && reach <= self.chain_clearance(i, &start, touches) {
                return;
            }
            let mut bounds: Option<Aabb> = None;
            for c in b.colliders.iter().filter(|c| !c.sensor) {
                let swept = c
                    .shape
                    .aabb(&c.pose(&start))
                    .union(&c.shape.aabb(&c.pose(&end)));
                bounds = Some(bounds.map_or(swept, |a| a.union(&swept)));
            }
            let Some(bounds) = bounds else {
                return;
            };
            // Only bullets stop at dynamic bodies: the others ask the
            // static and kinematic shapes alone (flagged static in the
            // broadphase), which the loop below would otherwise pick out.
            if bullets {
                self.broadphase.query(&bounds, ids);
            } else {
                self.broadphase.query_static(&bounds, ids);
            }
            let mut first = 1.0f32;
            for &p in ids.iter() {
                let Some(proxy) = self.proxies.get(p as usize).copied() else {
                    continue;
                };
                if proxy.body as usize == i {
                    continue;
                }
                let Some(other) = self.slots[proxy.body as usize].body.as_ref() else {
                    continue;
                };
                // Dynamic bodies stop bullets only, and not other bullets.
                if other.frozen || (other.kind == BodyKind::Dynamic && (!bullets || other.bullet)) {
                    continue;
                }
                let Some(oc) = other.colliders.get(proxy.child as usize) else {
                    continue;
                };
                let me = i as u32;
                let pair = (me.min(proxy.body), me.max(proxy.body));
                if oc.sensor || self.joined_no_collide(pair.0, pair.1) {
                    continue;
                }
                let other_pose = oc.pose(&other.xf);
                if let Shape::ChainSegment { a, b: e1, .. } = &oc.shape {
                    // One-sided: a body whose centre starts behind a chain
                    // segment passes through (as Box2D v3). One whose
                    // centre starts in front, however close, is held in
                    // front: let go within its core radius of the line, a
                    // body the crowd had pressed that deep went out.
                    let (pa, pb) = (other_pose.apply(*a), other_pose.apply(*e1));
                    let e = (pb - pa).normalize_or_zero();
                    if (c0 - pa).dot(Vec2::new(e.y, -e.x)) < 0.0 {
                        continue;
                    }
                }
                let other_sweep = Sweep::still(&other_pose, crate::math::Vec2::ZERO);
                for c in b.colliders.iter().filter(|c| !c.sensor) {
                    if !c.filter.collides_with(&oc.filter) {
                        continue;
                    }
                    // The collider's own frame sweeps as the body's does,
                    // about the same centre of mass.
                    let sweep = Sweep {
                        local_center: c.local.apply_inv(b.local_center),
                        q0: start_rot * c.local.rot,
                        ..body_sweep
                    };
                    let toi = time_of_impact(&oc.shape, &other_sweep, &c.shape, &sweep, options);
                    let touching = toi.state == ToiState::Overlapped
                        || (toi.state == ToiState::Hit && toi.fraction == 0.0);
                    let hit = toi.state == ToiState::Hit && toi.fraction > 0.0;
                    if !(touching || hit) {
                        continue;
                    }
                    // The core: a small disc at the shape's centroid (a
                    // quarter of its thinnest part), as Box2D v3's fallback.
                    let core_radius = (0.25 * c.shape.thinnest()).max(slop);
                    let core = Shape::circle(core_radius);
                    // Computed only when asked for: most hits never need it.
                    let core_sweep = || Sweep {
                        local_center: sweep.local_center - c.shape.mass_properties(1.0).centroid,
                        ..sweep
                    };
                    let core_toi =
                        || time_of_impact(&oc.shape, &other_sweep, &core, &core_sweep(), options);
                    if touching {
                        // Already touching at the start: the core's impact,
                        // and a core already at the surface (the body deep in
                        // the other) holds the body where it is rather than
                        // letting it go on through, unless the step takes
                        // the core out (no deeper at the end than at the
                        // start): held there, a buried body could never be
                        // pushed out, and it kept its island awake.
                        let toi = core_toi();
                        let chain = matches!(oc.shape, Shape::ChainSegment { .. });
                        // The core's separation from the other shape at
                        // time t: negative when it overlaps; behind a chain
                        // segment counts as deeper, not as out the far side.
                        let separation = |t: f32| {
                            let pose = core_sweep().at(t);
                            match &oc.shape {
                                Shape::ChainSegment { a, b, .. } => {
                                    one_sided_distance(
                                        other_pose.apply(*a),
                                        other_pose.apply(*b),
                                        pose.translation,
                                    ) - core_radius
                                }
                                _ => dispatch::penetration(&oc.shape, &other_pose, &core, &pose)
                                    .map_or(0.0, |p| -p.depth),
                            }
                        };
                        let held = match toi.state {
                            // The core reaches the surface during the step.
                            ToiState::Hit if toi.fraction > 0.0 => true,
                            // At a chain segment the core, already at or
                            // in it, is held only while the step takes it
                            // deeper: held in place while the solver pushes
                            // it out or slides it along, a body stayed pinned
                            // three quarters into the wall for hundreds of
                            // steps (the spinner), and a later slow step
                            // carried it through.
                            ToiState::Hit | ToiState::Overlapped if chain => {
                                separation(1.0) < separation(0.0)
                            }
                            ToiState::Hit => true,
                            ToiState::Overlapped => {
                                separation(1.0).min(0.0) < separation(0.0).min(0.0)
                            }
                            _ => false,
                        };
                        if held {
                            first = first.min(toi.fraction.max(0.0));
                        }
                        continue;
                    }
                    // Where the solver left it, the shape is clear of the
                    // other or only grazes it (less than its core deep): if
                    // its core did not pass through the other either, the
                    // contacts have it, and putting it back would only pin
                    // a body sliding or rolling over a surface in place.
                    let shallow =
                        dispatch::penetration(&oc.shape, &other_pose, &c.shape, &c.pose(&end))
                            .is_none_or(|p| p.depth < core_radius);
                    if shallow {
                        let core = core_toi();
                        if !(core.state == ToiState::Hit && core.fraction > 0.0) {
                            continue;
                        }
                    }
                    first = first.min(toi.fraction);
                }
            }
            if first < 1.0 {
                let pose = body_sweep.at(first);
                if let Some(b) = self.slots[i].body.as_mut() {
                    b.xf = pose;
                    b.center = pose.apply(b.local_center);
                }
            }
        }
    }
}

/// Whether body `i` has a contact with a chain segment in `touches` (see
/// `World::chain_touches`, sorted by the dynamic body's slot).
fn touches_chain(touches: &[(u32, u32, u32, u32)], i: usize) -> bool {
    let from = touches.partition_point(|t| (t.0 as usize) < i);
    touches.get(from).is_some_and(|t| t.0 as usize == i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The bound on the turn is never below the arctangent's turn, over
    /// 200,000 seeded rotations of up to a quarter turn and lengths 0.99 to
    /// 1.01, the edges (±π/2, tiny turns, a unit `sin`) included; and it
    /// declines past a quarter turn and far from unit length.
    #[test]
    fn the_turn_bound_is_above_the_turn() {
        let mut rng = ChaCha8Rng::seed_from_u64(41);
        let mut tight = 0.0f32;
        for k in 0..200_000 {
            let a = match k % 4 {
                0 => rng.random_range(-1e-4..1e-4f32),
                _ => rng.random_range(-std::f32::consts::FRAC_PI_2..=std::f32::consts::FRAC_PI_2),
            };
            let len = rng.random_range(0.99..1.01f32);
            let r = Rot {
                cos: libm::cosf(a) * len,
                sin: libm::sinf(a) * len,
            };
            if r.cos < 0.0 {
                continue;
            }
            let bound = turn_bound(r).expect("a quarter turn or less, near unit length");
            let turn = r.angle().abs();
            assert!(
                bound >= turn,
                "angle {a}, length {len}: bound {bound} < turn {turn}"
            );
            if turn > 0.1 {
                tight = tight.max(turn / bound);
            }
        }
        for (cos, sin) in [
            (0.0, 1.0),
            (0.0, -1.0),
            (1.0, 0.0),
            (1.0, f32::MIN_POSITIVE),
        ] {
            let r = Rot { cos, sin };
            assert!(turn_bound(r).unwrap() >= r.angle().abs());
        }
        // Not so loose that it bounds nothing.
        assert!(tight > 0.9, "the bound reaches {tight} of the turn at best");
        assert!(turn_bound(Rot {
            cos: -0.1,
            sin: 0.995
        })
        .is_none());
        assert!(turn_bound(Rot { cos: 0.5, sin: 0.5 }).is_none());
        assert!(turn_bound(Rot {
            cos: f32::NAN,
            sin: 0.0
        })
        .is_none());
    }
}
