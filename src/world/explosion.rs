//! `World::explode`: a radial impulse on every dynamic body near a point,
//! found with one box query through the query tree ([`crate::broadphase::QueryTree`])
//! and a GJK distance per shape; the sandbox's Boom tool and
//! `InputEvent::Explode` replay through it.

use super::world::World;
use crate::dynamics::BodyId;
use crate::math::{Aabb, Iso, Vec2};

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
