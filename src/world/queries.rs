//! Asking the world: the closest shape along a ray, through the broadphase.

use super::world::{Proxy, World};
use crate::dynamics::BodyId;
use crate::math::{Aabb, Vec2};

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
        let mut hits = std::mem::take(&mut self.scratch.pick);
        hits.clear();
        self.broadphase.query(&bounds, &mut hits);
        let mut best: Option<RayCastHit> = None;
        for &p in &hits {
            let Some(&Proxy { body, child }) = self.proxies.get(p as usize) else {
                continue;
            };
            let Some(b) = self.slots.get(body as usize).and_then(|s| s.body.as_ref()) else {
                continue;
            };
            let Some(c) = b.colliders.get(child as usize) else {
                continue;
            };
            if c.filter.category & mask == 0 {
                continue;
            }
            let reach = best.map_or(max_distance, |h| h.distance);
            if let Some(h) = c.shape.ray_cast(&c.pose(&b.xf), origin, dir, reach) {
                if best.is_none_or(|bh| h.t < bh.distance) {
                    best = Some(RayCastHit {
                        body: self.id_of(body),
                        shape: child,
                        distance: h.t,
                        point: h.point,
                        normal: h.normal,
                    });
                }
            }
        }
        self.scratch.pick = hits;
        best
    }
}
