//! Asking the world, through the broadphase: the closest shape along a ray,
//! every shape along it, the first shape a moving shape meets, and every
//! shape overlapping a box, a point or a placed shape. Each query takes a category mask; the newer ones also a
//! predicate on the shape. Answers are sorted, so they are deterministic.

use super::world::{Proxy, World};
use crate::dynamics::BodyId;
use crate::geometry::cast::{shape_cast, CastOptions};
use crate::math::{Aabb, Iso, Vec2};
use crate::narrowphase::dispatch;
use crate::shape::Shape;

/// A ray's hit on a body's shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayCastHit {
    /// The body.
    pub body: BodyId,
    /// The shape's index in the body.
    pub shape: u32,
    /// Distance along the ray (m).
    pub distance: f32,
    /// The point hit (world).
    pub point: Vec2,
    /// The surface normal there (unit, pointing out of the shape).
    pub normal: Vec2,
}

impl World {
    /// The closest shape hit by the ray from `origin` along `dir` (any
    /// length; normalised here) within `max_distance`, among the shapes
    /// whose filter category meets `mask` (`u32::MAX` for all). A ray that
    /// starts inside a shape hits it at distance 0. Ties go to the lower
    /// broadphase proxy, so the answer is deterministic.
    pub fn ray_cast(
        &mut self,
        origin: Vec2,
        dir: Vec2,
        max_distance: f32,
        mask: u32,
    ) -> Option<RayCastHit> {
        let len = dir.length();
        if !(origin.is_finite() && len > 0.0 && len.is_finite() && max_distance >= 0.0) {
            return None;
        }
        let dir = dir / len;
        let max_distance = max_distance.min(1.0e7);
        let end = origin + dir * max_distance;
        let bounds = Aabb::new(origin.min(end), origin.max(end));
        let mut best: Option<RayCastHit> = None;
        self.candidates(&bounds, mask, &mut |_| true, |r, s, x| {
            let reach = best.map_or(max_distance, |h| h.distance);
            if let Some(h) = s.ray_cast(x, origin, dir, reach) {
                if best.is_none_or(|bh| h.t < bh.distance) {
                    best = Some(RayCastHit {
                        body: r.body,
                        shape: r.shape,
                        distance: h.t,
                        point: h.point,
                        normal: h.normal,
                    });
                }
            }
        });
        best
    }
}

/// A shape found by a query: its body and its index in the body.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct ShapeRef {
    /// The body.
    pub body: BodyId,
    /// The shape's index in the body.
    pub shape: u32,
}

impl World {
    /// Every shape within reach of `bounds` (through the broadphase) that
    /// passes the category `mask` and `keep`, with its pose, in proxy order.
    fn candidates(
        &self,
        bounds: &Aabb,
        mask: u32,
        keep: &mut dyn FnMut(ShapeRef) -> bool,
        mut visit: impl FnMut(ShapeRef, &Shape, &Iso),
    ) {
        let mut ids = Vec::new();
        self.broadphase.query(bounds, &mut ids);
        for &p in &ids {
            let Some(&Proxy { body, child }) = self.proxies.get(p as usize) else {
                continue;
            };
            let Some(b) = self.slots.get(body as usize).and_then(|s| s.body.as_ref()) else {
                continue;
            };
            let Some(c) = b.colliders.get(child as usize) else {
                continue;
            };
            let r = ShapeRef {
                body: self.id_of(body),
                shape: child,
            };
            if c.filter.category & mask == 0 || b.frozen || !keep(r) {
                continue;
            }
            visit(r, &c.shape, &c.pose(&b.xf));
        }
    }

    /// Every shape that overlaps the box `bounds` (exactly: the shape
    /// itself, not its bounding box), among those whose filter category
    /// meets `mask` and that `keep` accepts; sorted by body and shape.
    pub fn overlap_aabb(
        &self,
        bounds: Aabb,
        mask: u32,
        mut keep: impl FnMut(ShapeRef) -> bool,
    ) -> Vec<ShapeRef> {
        if !bounds.is_valid() {
            return Vec::new();
        }
        let half = bounds.half_extents();
        let probe = Shape::rect(half.x.max(1e-6), half.y.max(1e-6));
        let at = Iso::new(bounds.center(), 0.0);
        self.overlap_shape(&probe, &at, mask, &mut keep)
    }

    /// Every shape containing the world point `p` (boundary included), as
    /// [`World::overlap_aabb`] filters and sorts them.
    pub fn overlap_point(
        &self,
        p: Vec2,
        mask: u32,
        mut keep: impl FnMut(ShapeRef) -> bool,
    ) -> Vec<ShapeRef> {
        let mut out = Vec::new();
        if !p.is_finite() {
            return out;
        }
        self.candidates(&Aabb::new(p, p), mask, &mut keep, |r, s, x| {
            if s.contains_point(x, p) {
                out.push(r);
            }
        });
        out.sort_unstable();
        out
    }

    /// Every shape that `shape`, placed at `pose`, touches or overlaps, as
    /// [`World::overlap_aabb`] filters and sorts them.
    pub fn overlap_shape(
        &self,
        shape: &Shape,
        pose: &Iso,
        mask: u32,
        mut keep: impl FnMut(ShapeRef) -> bool,
    ) -> Vec<ShapeRef> {
        let mut out = Vec::new();
        if shape.validate().is_err() || !pose.is_finite() {
            return out;
        }
        self.candidates(&shape.aabb(pose), mask, &mut keep, |r, s, x| {
            if dispatch::intersects(shape, pose, s, x) {
                out.push(r);
            }
        });
        out.sort_unstable();
        out
    }

    /// Every shape the ray from `origin` along `dir` hits within
    /// `max_distance`, nearest first (ties by body and shape), as
    /// [`World::overlap_aabb`] filters them. A shape the ray starts in is hit
    /// at distance 0.
    pub fn ray_cast_all(
        &self,
        origin: Vec2,
        dir: Vec2,
        max_distance: f32,
        mask: u32,
        mut keep: impl FnMut(ShapeRef) -> bool,
    ) -> Vec<RayCastHit> {
        let mut out: Vec<RayCastHit> = Vec::new();
        let len = dir.length();
        if !(origin.is_finite() && len > 0.0 && len.is_finite() && max_distance >= 0.0) {
            return out;
        }
        let dir = dir / len;
        let max_distance = max_distance.min(1.0e7);
        let end = origin + dir * max_distance;
        let bounds = Aabb::new(origin.min(end), origin.max(end));
        self.candidates(&bounds, mask, &mut keep, |r, s, x| {
            if let Some(h) = s.ray_cast(x, origin, dir, max_distance) {
                out.push(RayCastHit {
                    body: r.body,
                    shape: r.shape,
                    distance: h.t,
                    point: h.point,
                    normal: h.normal,
                });
            }
        });
        out.sort_by(|a, b| {
            a.distance
                .total_cmp(&b.distance)
                .then((a.body, a.shape).cmp(&(b.body, b.shape)))
        });
        out
    }
}

/// A shape cast's first hit on a body's shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeCastHit {
    /// The body.
    pub body: BodyId,
    /// The shape's index in the body.
    pub shape: u32,
    /// Fraction of the translation at the hit, in `[0, 1]`; 0 when the cast
    /// shape starts touching or overlapping it.
    pub fraction: f32,
    /// The contact point (world), on the hit shape's surface.
    pub point: Vec2,
    /// Unit normal out of the hit shape, toward the cast shape (world). For a
    /// start in overlap, the direction that separates them fastest.
    pub normal: Vec2,
}

impl World {
    /// The first shape that `shape`, placed at `pose` and moved by
    /// `translation` (m, world), touches on the way, among the shapes whose
    /// filter category meets `mask` and that `keep` accepts. Candidates come
    /// from the broadphase with the swept box; each is cast exactly
    /// ([`crate::geometry::cast::shape_cast`]). A shape it starts in (or
    /// touching) is hit at fraction 0. Ties go to the lower broadphase proxy.
    /// `None` for a miss or for bad input (an invalid shape, a non-finite pose
    /// or translation).
    ///
    /// ```
    /// use minkowski::{BodyDef, BodyKind, Iso, Shape, Vec2, World, WorldSettings};
    /// let mut w = World::new(WorldSettings::default());
    /// let ground = Shape::rect(10.0, 0.5); // top face at y = 0
    /// w.add_body(BodyDef::new(ground, Vec2::new(0.0, -0.5)).kind(BodyKind::Static)).unwrap();
    /// let ball = Shape::circle(0.5);
    /// let at = Iso::new(Vec2::new(0.0, 3.0), 0.0);
    /// let hit = w.cast_shape(&ball, &at, Vec2::new(0.0, -5.0), u32::MAX, |_| true).unwrap();
    /// assert!((hit.fraction - 0.5).abs() < 1e-6);
    /// assert!((hit.normal - Vec2::Y).length() < 1e-5);
    /// ```
    pub fn cast_shape(
        &self,
        shape: &Shape,
        pose: &Iso,
        translation: Vec2,
        mask: u32,
        mut keep: impl FnMut(ShapeRef) -> bool,
    ) -> Option<ShapeCastHit> {
        if shape.validate().is_err() || !pose.is_finite() || !translation.is_finite() {
            return None;
        }
        let start = shape.aabb(pose);
        let end = Aabb::new(start.min + translation, start.max + translation);
        let mut best: Option<ShapeCastHit> = None;
        self.candidates(&start.union(&end), mask, &mut keep, |r, s, x| {
            let opts = CastOptions {
                max_fraction: best.map_or(1.0, |h| h.fraction),
                ..CastOptions::default()
            };
            let Some(h) = shape_cast(s, x, Vec2::ZERO, shape, pose, translation, &opts) else {
                return;
            };
            if best.is_none_or(|b| h.fraction < b.fraction) {
                best = Some(ShapeCastHit {
                    body: r.body,
                    shape: r.shape,
                    fraction: h.fraction,
                    point: h.point,
                    normal: h.normal,
                });
            }
        });
        best
    }
}

/// An explosion: where, how far it reaches, and how hard it pushes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Explosion {
    /// Centre (world, m).
    pub center: Vec2,
    /// Bodies whose nearest shape is within this distance get the full
    /// impulse (m).
    pub radius: f32,
    /// Beyond `radius`, the impulse falls linearly to zero over this
    /// distance (m).
    pub falloff: f32,
    /// Impulse given at full strength (N·s), away from the centre.
    pub impulse: f32,
}

impl World {
    /// Pushes every dynamic body within `radius + falloff` of the centre
    /// away from it, through its centre of mass: the full impulse within
    /// `radius` of its nearest shape, falling linearly to zero over
    /// `falloff`. Found with one AABB query and a distance per shape; the
    /// bodies touched are woken. Returns how many bodies were pushed.
    pub fn explode(&mut self, e: &Explosion) -> usize {
        let sane = |x: f32| x.is_finite() && x >= 0.0;
        if !(e.center.is_finite() && sane(e.radius) && sane(e.falloff) && e.impulse.is_finite()) {
            return 0;
        }
        let reach = e.radius + e.falloff;
        let bounds = Aabb::new(e.center - Vec2::splat(reach), e.center + Vec2::splat(reach));
        let point = crate::shape::PointShape(Vec2::ZERO);
        let at = Iso::new(e.center, 0.0);
        // The nearest distance from the centre to each body (0 inside).
        let mut near: Vec<(BodyId, f32)> = Vec::new();
        self.candidates(&bounds, u32::MAX, &mut |_| true, |r, s, x| {
            let d = crate::geometry::gjk::distance(&point, &at, s, x).map_or(0.0, |c| c.distance);
            near.push((r.body, d));
        });
        near.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
        near.dedup_by_key(|n| n.0);
        let mut pushed = 0;
        for (id, d) in near {
            let Some(b) = self.body(id) else { continue };
            if b.kind != crate::dynamics::BodyKind::Dynamic || d > reach {
                continue;
            }
            let scale = if d <= e.radius || e.falloff == 0.0 {
                1.0
            } else {
                1.0 - (d - e.radius) / e.falloff
            };
            let away = b.center - e.center;
            let dir = if away.length_squared() > 0.0 {
                away.normalize()
            } else {
                Vec2::Y
            };
            let c = b.center;
            if self.apply_impulse(id, dir * (e.impulse * scale), c).is_ok() {
                pushed += 1;
            }
        }
        pushed
    }
}
