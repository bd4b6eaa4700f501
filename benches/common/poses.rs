// Shared pose-pool generator: included verbatim by benches/narrowphase.rs in the
// minkowski repo and by the parry2d comparison bench, so that both measure the
// same pairs at the same poses. Poses are (x, y, angle).
use rand::{RngExt, SeedableRng};

/// Pool size per pairing and query.
pub const POOL: usize = 64;

/// One pose pair: A's (x, y, angle) and B's.
pub type PosePair = ([f32; 3], [f32; 3]);

/// Which poses to generate.
#[derive(Clone, Copy)]
pub enum Kind {
    /// Centres 0 to 1.2 × (sum of bounding radii) apart: about half overlap.
    Mixed,
    /// Bounding discs disjoint by 0–15 %: always separated, often near.
    Separated,
    /// Centres closer than 0.95 × (sum of inscribed radii): always overlapping.
    Overlapping,
}

/// `POOL` pose pairs for shapes with the given bounding (`reach`) and inscribed
/// (`inner`) radius sums.
pub fn pose_pool(seed: u64, kind: Kind, reach: f32, inner: f32) -> Vec<PosePair> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    (0..POOL)
        .map(|_| {
            let xa = [
                rng.random_range(-5.0..5.0f32),
                rng.random_range(-5.0..5.0f32),
                rng.random_range(-3.2..3.2f32),
            ];
            let t = rng.random_range(0.0..std::f32::consts::TAU);
            let r = match kind {
                Kind::Mixed => rng.random_range(0.0..1.2f32) * reach,
                Kind::Separated => rng.random_range(1.0..1.15f32) * reach,
                Kind::Overlapping => rng.random_range(0.0..0.95f32) * inner,
            };
            let xb = [
                xa[0] + r * t.cos(),
                xa[1] + r * t.sin(),
                rng.random_range(-3.2..3.2f32),
            ];
            (xa, xb)
        })
        .collect()
}

/// Vertices of the regular octagon of circumradius `r` with flat sides facing
/// the axes.
pub fn octagon_points(r: f32) -> Vec<[f32; 2]> {
    (0..8)
        .map(|k| {
            let t = (k as f32 + 0.5) / 8.0 * std::f32::consts::TAU;
            [r * t.cos(), r * t.sin()]
        })
        .collect()
}
