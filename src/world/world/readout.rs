//! What a world reports between steps: contacts and pairs, timings, events,
//! and the conserved quantities and state hash that tests and tools check.

use super::*;

/// The last step's contact constraints against the SIMD bundles they were
/// solved in (see [`World::lane_use`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LaneUse {
    /// Contact constraints (touching contacts with a moving body).
    pub constraints: usize,
    /// Bundles they were cut into.
    pub bundles: usize,
    /// Lanes per bundle (8 in AVX2 builds, else 4).
    pub width: usize,
}

impl LaneUse {
    /// The share of the bundles' lanes that held a constraint (0 to 1; 1
    /// with no bundle).
    pub fn fill(&self) -> f64 {
        if self.bundles == 0 {
            1.0
        } else {
            self.constraints as f64 / (self.bundles * self.width) as f64
        }
    }
}

impl World {
    /// Contacts with at least one point, in (body A, body B) order.
    pub fn contacts(&self) -> impl Iterator<Item = ContactView> + '_ {
        self.contacts
            .iter_slots()
            .filter(|(_, c)| c.manifold.count > 0)
            .map(|(k, c)| ContactView {
                body_a: self.id_of(c.body_a),
                body_b: self.id_of(c.body_b),
                shape_a: c.child_a,
                shape_b: c.child_b,
                manifold: self.contacts.manifold(k),
            })
    }

    /// Number of contact points.
    pub fn contact_point_count(&self) -> usize {
        self.contacts.iter().map(|c| c.manifold.count).sum()
    }

    /// Broadphase pairs (shapes whose fat boxes overlap and whose collision
    /// filters accept each other; a sensor pairs with nothing), as the bodies
    /// of the two shapes, in the broadphase's sorted order.
    pub fn pairs(&self) -> impl Iterator<Item = (BodyId, BodyId)> + '_ {
        self.broadphase.pairs().iter().map(|&(a, b)| {
            (
                self.id_of(self.proxies[a as usize].body),
                self.id_of(self.proxies[b as usize].body),
            )
        })
    }

    /// Shapes that the broadphase's crowd cap refused a pair in the last
    /// step: non-zero only while bodies are piled on one another (see
    /// [`crate::broadphase::MAX_PAIRS_PER_BODY`]).
    pub fn crowded_shapes(&self) -> usize {
        self.broadphase.capped()
    }

    /// Number of broadphase pairs.
    pub fn pair_count(&self) -> usize {
        self.broadphase.pairs().len()
    }

    /// The broadphase's fat box of a body (the union over its shapes).
    pub fn fat_aabb(&self, id: BodyId) -> Option<Aabb> {
        let b = self.body(id)?;
        b.colliders
            .iter()
            .filter_map(|c| self.broadphase.fat_aabb(c.proxy))
            .reduce(|a, b| a.union(&b))
    }

    /// Stage timings of the last step.
    pub fn timings(&self) -> &StepTimings {
        &self.timings
    }

    /// How the last step's contact constraints filled the solver's SIMD
    /// bundles. Each bundle is solved as a whole, full or not, so the fill
    /// says how much of the contact passes' work was for nothing.
    pub fn lane_use(&self) -> LaneUse {
        let (constraints, bundles) = self.scratch.constraints.lane_use();
        LaneUse {
            constraints,
            bundles,
            width: crate::dynamics::simd::LANES,
        }
    }

    /// Number of steps taken.
    pub fn step_index(&self) -> u64 {
        self.step_index
    }

    /// Events raised since the last call (frozen bodies).
    pub fn take_events(&mut self) -> Vec<WorldEvent> {
        std::mem::take(&mut self.events)
    }

    /// Total linear momentum of the dynamic bodies (kg·m/s).
    pub fn linear_momentum(&self) -> Vec2 {
        self.bodies().map(|(_, b)| b.linear_momentum()).sum()
    }

    /// Total angular momentum about the origin (kg·m²/s).
    pub fn angular_momentum(&self) -> f32 {
        self.bodies().map(|(_, b)| b.angular_momentum()).sum()
    }

    /// Total kinetic energy (J).
    pub fn kinetic_energy(&self) -> f32 {
        self.bodies().map(|(_, b)| b.kinetic_energy()).sum()
    }

    /// Stable 64-bit FNV-1a hash of the state: for each live body in id order,
    /// the bits of its slot index, position (x, y), rotation (cos, sin), linear
    /// velocity (x, y) and angular velocity, little-endian.
    pub fn state_hash(&self) -> u64 {
        const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
        const PRIME: u64 = 0x0000_0100_0000_01b3;
        let mut h = OFFSET;
        let mut eat = |bytes: [u8; 4]| {
            for byte in bytes {
                h ^= byte as u64;
                h = h.wrapping_mul(PRIME);
            }
        };
        for (id, b) in self.bodies() {
            eat(id.index.to_le_bytes());
            for x in [
                b.xf.translation.x,
                b.xf.translation.y,
                b.xf.rot.cos,
                b.xf.rot.sin,
                b.v.x,
                b.v.y,
                b.w,
            ] {
                eat(x.to_bits().to_le_bytes());
            }
        }
        h
    }
}
