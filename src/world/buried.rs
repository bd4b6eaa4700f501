//! Buried bodies: a dynamic body pushed deep into a static or kinematic one
//! (crushed under a heavy stack, or driven into a wall) is reported, not lost
//! in silence. The check reads the contact manifolds the narrowphase has just
//! made, in contact-list order, so the events are deterministic. The
//! narrowphase collects the deep contacts as it makes them
//! ([`World::deep_contact`]); this stage sorts them and reports.

use super::world::{Contact, World, WorldEvent};
use crate::dynamics::{Body, BodyKind};

/// A deep contact: the buried body's slot, the slot of the body it is in,
/// the depth (m) and the body's limit (m).
pub(crate) type Deep = (u32, u32, f32, f32);

/// Penetration into a static or kinematic body beyond which a dynamic body is
/// reported buried (m). A small shape is reported sooner, at half its bounding
/// radius. The report clears when the body is back out to half its limit.
pub const BURIED_DEPTH: f32 = 0.1;

impl World {
    /// `(body, by, depth, limit)` when contact `c` between bodies `a` and `b`
    /// pushes a dynamic body into a static or kinematic one deeper than half
    /// its limit (m). The narrowphase calls it for every contact, in list
    /// order, right after the manifold is made, so no second pass over the
    /// contact list is needed.
    #[inline]
    pub(crate) fn deep_contact(c: &Contact, a: &Body, b: &Body) -> Option<Deep> {
        let depth = -c.manifold.min_separation();
        if depth.is_nan() || depth <= 0.0 {
            return None;
        }
        let (body, child, by) = match (a.kind, b.kind) {
            (BodyKind::Dynamic, BodyKind::Static | BodyKind::Kinematic) => {
                (c.body_a, c.child_a, c.body_b)
            }
            (BodyKind::Static | BodyKind::Kinematic, BodyKind::Dynamic) => {
                (c.body_b, c.child_b, c.body_a)
            }
            _ => return None,
        };
        let owner = if body == c.body_a { a } else { b };
        let reach = owner.colliders[child as usize].shape.bounding_radius();
        let limit = BURIED_DEPTH.min(0.5 * reach);
        (depth > 0.5 * limit).then_some((body, by, depth, limit))
    }

    /// Flags and reports the bodies buried this step; clears the flags of
    /// those that came back out. `deep` holds [`World::deep_contact`]'s
    /// answers for this step's contacts, in contact order (sorted here).
    pub(crate) fn report_buried(&mut self, deep: &mut Vec<Deep>) {
        if deep.is_empty() && self.buried.is_empty() {
            return;
        }
        // Deepest contact per body; ties keep the first in contact order.
        deep.sort_by(|x, y| x.0.cmp(&y.0).then(y.2.total_cmp(&x.2)));
        deep.dedup_by_key(|x| x.0);
        let mut still = Vec::with_capacity(deep.len());
        for &(body, by, depth, limit) in deep.iter() {
            let flagged = self.buried.binary_search(&body).is_ok();
            if flagged || depth > limit {
                still.push(body);
            }
            if !flagged && depth > limit {
                if let Some(b) = self.slots[body as usize].body.as_mut() {
                    b.buried = true;
                }
                self.events.push(WorldEvent::BodyBuried {
                    body: self.id_of(body),
                    by: self.id_of(by),
                    depth,
                    step: self.step_index,
                });
            }
        }
        for &body in &self.buried {
            if still.binary_search(&body).is_err() {
                if let Some(b) = self.slots[body as usize].body.as_mut() {
                    b.buried = false;
                }
            }
        }
        self.buried = still;
    }
}
