//! The overlap census a scene passes before it runs: how many pairs of
//! bodies overlap at the start, counted with an early exit, so that a crowd
//! too dense to step (100,000 bodies on one point make 5·10⁹ pairs) is
//! refused with its place named instead of running out of time or memory.
//! The broadphase's crowd cap ([`crate::broadphase::MAX_PAIRS_PER_BODY`])
//! bounds the memory of any crowd; this bounds the time of its first steps,
//! which still look at every overlapping pair.

use super::world::World;
use crate::dynamics::BodyKind;
use crate::math::{Aabb, Vec2};

/// Most pairs of overlapping bodies a world may start with (about 3 s per
/// step while they last; many_pyramids with every pyramid on one spot makes
/// about 30 million).
pub const MAX_START_OVERLAPS: usize = 64_000_000;

/// What [`World::crowding`] found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Crowding {
    /// Pairs of overlapping bodies (at least one of them not static),
    /// counted up to the limit given and one past it.
    pub pairs: usize,
    /// The body that overlaps the most others among those counted, with the
    /// number of bodies it overlaps and its centre.
    pub worst: Option<(u32, usize, Vec2)>,
}

impl World {
    /// Counts the pairs of bodies whose bounding boxes overlap, stopping once
    /// there are more than `limit`. Static pairs are not counted. Cost:
    /// O(n log n + counted pairs).
    pub fn crowding(&self, limit: usize) -> Crowding {
        let mut boxes: Vec<(Aabb, u32, bool)> = self
            .slots
            .iter()
            .enumerate()
            .filter_map(|(i, s)| {
                let b = s.body.as_ref()?;
                (b.aabb.is_valid()).then_some((b.aabb, i as u32, b.kind == BodyKind::Static))
            })
            .collect();
        boxes.sort_by(|a, b| a.0.min.x.total_cmp(&b.0.min.x).then(a.1.cmp(&b.1)));
        let mut count = vec![0usize; boxes.len()];
        let mut pairs = 0usize;
        'sweep: for i in 0..boxes.len() {
            let (a, _, sa) = boxes[i];
            for j in i + 1..boxes.len() {
                let (b, _, sb) = boxes[j];
                if b.min.x > a.max.x {
                    break;
                }
                if (sa && sb) || b.min.y > a.max.y || a.min.y > b.max.y {
                    continue;
                }
                pairs += 1;
                count[i] += 1;
                count[j] += 1;
                if pairs > limit {
                    break 'sweep;
                }
            }
        }
        let worst = (0..boxes.len())
            .filter(|&k| count[k] > 0)
            .max_by(|&x, &y| count[x].cmp(&count[y]).then(y.cmp(&x)))
            .map(|k| (boxes[k].1, count[k], boxes[k].0.center()));
        Crowding { pairs, worst }
    }
}
