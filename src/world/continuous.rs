//! Stage 7b: continuous collision. A dynamic body that moved farther in
//! this step than half its thinnest part (counting the reach of its turn) is
//! swept from its old pose to its new one against the static and kinematic
//! shapes in its path; at the first time of impact (with rotation, see
//! `geometry::toi`) it is put back to where it touches, keeping its
//! velocity, and the next step's contact stops it. So a fast body cannot
//! pass through a wall or the ground between two steps, as in Box2D v3's
//! continuous stage. Bullets (`BodyDef::bullet`) are swept after the
//! others, against dynamic bodies' final poses too.

use super::world::World;
use crate::dynamics::BodyKind;
use crate::geometry::toi::{time_of_impact, Sweep, ToiOptions, ToiState};
use crate::math::{Aabb, Iso, Rot};
use crate::narrowphase::dispatch;
use crate::shape::Shape;

/// A body is fast when its step moved some point of it by more than this
/// fraction of its thinnest part.
const FAST_FRACTION: f32 = 0.5;

/// Half the thickness of a shape's thinnest direction (m): what a step may
/// move the shape without it skipping through a thin wall.
fn thinnest(shape: &Shape) -> f32 {
    let polygon = |p: &crate::shape::Polygon| {
        let v = p.vertices();
        let c = v.iter().copied().sum::<crate::math::Vec2>() / v.len().max(1) as f32;
        p.normals()
            .iter()
            .zip(v)
            .map(|(n, a)| n.dot(*a - c))
            .fold(f32::INFINITY, f32::min)
            .max(0.0)
    };
    match shape {
        Shape::Circle { radius } | Shape::Capsule { radius, .. } => *radius,
        Shape::Polygon(p) => polygon(p),
        Shape::RoundedPolygon { core, radius } => polygon(core) + radius,
        Shape::Ellipse { rx, ry } => rx.min(*ry),
        // No thickness: any motion beyond the slop is fast.
        Shape::Segment { .. } | Shape::ChainSegment { .. } => 0.0,
    }
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
        // Ordinary bodies first, against static and kinematic shapes; then
        // bullets, against those and the other bodies' final poses too (as
        // Box2D v3 orders them).
        for bullets in [false, true] {
            for i in 0..self.slots.len() {
                self.sweep_body(i, bullets, &options, &mut ids);
            }
        }
    }

    /// Sweeps body `i` if it is a fast dynamic body of the pass (`bullets`
    /// or not) and puts it back at its first time of impact.
    fn sweep_body(&mut self, i: usize, bullets: bool, options: &ToiOptions, ids: &mut Vec<u32>) {
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
            let turn = if (b.w * dt).abs() > std::f32::consts::FRAC_PI_2 {
                b.w * dt
            } else {
                q.dq.angle()
            };
            let reach = q.dp.length() + turn.abs() * b.extent;
            if reach <= slop {
                return;
            }
            let thin = b
                .colliders
                .iter()
                .filter(|c| !c.sensor)
                .map(|c| thinnest(&c.shape))
                .fold(f32::INFINITY, f32::min);
            if reach.is_nan() || reach <= FAST_FRACTION * thin {
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
            self.broadphase.query(&bounds, ids);
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
                    // segment, or on it (straddling, within its core
                    // radius), passes through (as Box2D v3).
                    let (pa, pb) = (other_pose.apply(*a), other_pose.apply(*e1));
                    let e = (pb - pa).normalize_or_zero();
                    if (c0 - pa).dot(crate::math::Vec2::new(e.y, -e.x)) < 0.25 * thin {
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
                    let core_radius = (0.25 * thinnest(&c.shape)).max(slop);
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
                        let depth = |t: f32| {
                            let pose = core_sweep().at(t);
                            dispatch::penetration(&oc.shape, &other_pose, &core, &pose)
                                .map_or(0.0, |p| p.depth)
                        };
                        let leaving = toi.state == ToiState::Overlapped && depth(1.0) <= depth(0.0);
                        if matches!(toi.state, ToiState::Hit | ToiState::Overlapped) && !leaving {
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
