//! Asking the world: the closest shape along a ray, every shape along it,
//! the first shape a moving shape meets, and every shape overlapping a box, a
//! point or a placed shape. Each query takes a category mask; the newer ones
//! also a predicate on the shape. Answers are sorted, so they are
//! deterministic.
//!
//! Candidates come from the broadphase's query tree
//! ([`crate::broadphase::QueryTree`], a BVH over the fat boxes, built on the
//! first query after a fat box changed): a box query for the overlaps, a
//! front-to-back segment walk for the rays (the closest hit so far clips the
//! walk), and the same walk over boxes grown by the cast shape's half extents
//! for shape casts. Shapes that the last step moved out of their fat box
//! (the "strays", see `World::strays`) are searched in a second, small tree
//! over their current boxes. Each candidate is then tested exactly, so the
//! answers are those of a scan over every shape.
//! The predicate `keep` may be called for any shape near the query, in any
//! order.

use super::world::{Proxy, World};
use crate::broadphase::{QueryTree, TreeRay};
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
        &self,
        origin: Vec2,
        dir: Vec2,
        max_distance: f32,
        mask: u32,
    ) -> Option<RayCastHit> {
        let (dir, max_distance) = ray_input(origin, dir, max_distance)?;
        let ray = TreeRay {
            origin,
            delta: dir,
            max_t: max_distance,
            extent: Vec2::ZERO,
        };
        // The best hit and its proxy: the walk is front to back, not in proxy
        // order, so a tie is broken here by the proxy.
        let mut best: Option<(RayCastHit, u32)> = None;
        let mut visit = |p, reach| {
            let Some((r, s, x)) = self.proxy_shape(p, mask) else {
                return reach;
            };
            if let Some(h) = s.ray_cast(&x, origin, dir, reach) {
                if best.is_none_or(|(b, bp)| (h.t, p) < (b.distance, bp)) {
                    let hit = RayCastHit {
                        body: r.body,
                        shape: r.shape,
                        distance: h.t,
                        point: h.point,
                        normal: h.normal,
                    };
                    best = Some((hit, p));
                }
            }
            best.map_or(reach, |(b, _)| b.distance)
        };
        // A stray met in both trees is cast twice, to the same answer.
        self.broadphase.tree().cast(&ray, &mut visit);
        self.strays().cast(&ray, &mut visit);
        best.map(|b| b.0)
    }
}

/// The unit direction and the reach (clamped to 10⁷ m) of a ray, or `None`
/// for a non-finite origin, a zero or non-finite direction or a negative or
/// NaN reach.
fn ray_input(origin: Vec2, dir: Vec2, max_distance: f32) -> Option<(Vec2, f32)> {
    let len = dir.length();
    if !(origin.is_finite() && len > 0.0 && len.is_finite() && max_distance >= 0.0) {
        return None;
    }
    Some((dir / len, max_distance.min(1.0e7)))
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
    /// The shape behind broadphase proxy `p`, with its pose, if its filter
    /// category meets `mask` and its body is not frozen.
    fn proxy_shape(&self, p: u32, mask: u32) -> Option<(ShapeRef, &Shape, Iso)> {
        let &Proxy { body, child } = self.proxies.get(p as usize)?;
        let b = self.slots.get(body as usize)?.body.as_ref()?;
        let c = b.colliders.get(child as usize)?;
        if c.filter.category & mask == 0 || b.frozen {
            return None;
        }
        let r = ShapeRef {
            body: self.id_of(body),
            shape: child,
        };
        Some((r, &c.shape, c.pose(&b.xf)))
    }

    /// The strays: shapes that have left their fat box, as a query tree over
    /// their current boxes. The broadphase boxes are made before the solver
    /// moves the bodies, so after a step a fast or spinning body can stand
    /// partly outside its fat box until the next step re-makes it; the
    /// queries search both trees. Built on the first query after a step or a
    /// teleport (a scan of every shape, O(n)), empty when nothing strayed.
    fn strays(&self) -> &QueryTree {
        self.strays.get_or_init(|| {
            let mut out = Vec::new();
            for b in self.slots.iter().filter_map(|s| s.body.as_ref()) {
                for c in &b.colliders {
                    let now = c.shape.aabb(&c.pose(&b.xf));
                    let fat = self.broadphase.fat_aabb(c.proxy);
                    if !fat.is_some_and(|f| f.contains(&now)) {
                        out.push((c.proxy, now));
                    }
                }
            }
            QueryTree::build(out)
        })
    }

    /// Every shape whose fat box overlaps `bounds` (through the query tree)
    /// and that passes the category `mask` and `keep`, with its pose, in
    /// proxy order.
    pub(super) fn candidates(
        &self,
        bounds: &Aabb,
        mask: u32,
        keep: &mut dyn FnMut(ShapeRef) -> bool,
        visit: impl FnMut(ShapeRef, &Shape, &Iso),
    ) {
        let mut ids = Vec::new();
        self.broadphase.tree().query(bounds, |p| ids.push(p));
        self.strays().query(bounds, |p| ids.push(p));
        self.visit_proxies(ids, mask, keep, visit);
    }

    /// Every proxy whose fat box (or, for a stray, current box) the segment
    /// `ray` crosses, in no particular order, possibly twice.
    fn proxies_along(&self, ray: &TreeRay) -> Vec<u32> {
        let mut ids = Vec::new();
        let mut push = |p, reach| {
            ids.push(p);
            reach
        };
        self.broadphase.tree().cast(ray, &mut push);
        self.strays().cast(ray, &mut push);
        ids
    }

    /// Sorts and de-duplicates `ids` and visits the shape of each that passes
    /// `mask` and `keep`, in proxy order.
    fn visit_proxies(
        &self,
        mut ids: Vec<u32>,
        mask: u32,
        keep: &mut dyn FnMut(ShapeRef) -> bool,
        mut visit: impl FnMut(ShapeRef, &Shape, &Iso),
    ) {
        ids.sort_unstable();
        ids.dedup();
        for &p in ids.iter() {
            if let Some((r, s, x)) = self.proxy_shape(p, mask).filter(|e| keep(e.0)) {
                visit(r, s, &x);
            }
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
        let Some((dir, max_distance)) = ray_input(origin, dir, max_distance) else {
            return out;
        };
        let ray = TreeRay {
            origin,
            delta: dir,
            max_t: max_distance,
            extent: Vec2::ZERO,
        };
        let ids = self.proxies_along(&ray);
        self.visit_proxies(ids, mask, &mut keep, |r, s, x| {
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
    /// from the query tree with the swept box; each is cast exactly
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
        // The cast shape's box swept along the translation: a segment from
        // its centre against the fat boxes grown by its half extents. All of
        // them, in proxy order, each cast with the best fraction so far: the
        // cast's answer depends (to its tolerance) on that order.
        let start = shape.aabb(pose);
        let ray = TreeRay {
            origin: start.center(),
            delta: translation,
            max_t: 1.0,
            extent: start.half_extents(),
        };
        let ids = self.proxies_along(&ray);
        let mut best: Option<ShapeCastHit> = None;
        self.visit_proxies(ids, mask, &mut keep, |r, s, x| {
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
