// Shared by benches/queries.rs and tools/rapier-bench (included verbatim by
// both), so that both engines cast the same rays at the same boxes: the
// layout of `scenes/many_pyramids.ron` (checked against the built scene by
// the bench) and 10,000 seeded rays. No dependencies: a 64-bit LCG.

/// Every box of many_pyramids as (centre x, centre y, half x, half y):
/// the 20 static grounds, then the 22,000 pyramid boxes in scene order.
pub fn many_pyramids_boxes() -> Vec<(f32, f32, f32, f32)> {
    let mut out = Vec::new();
    for i in 0..20 {
        out.push((0.0, 11.0 * i as f32 - 0.25, 110.0, 0.25));
    }
    let (n, h) = (10u32, 0.5f32);
    for r in 0..20 {
        for c in 0..20 {
            let (ox, oy) = (-105.0 + c as f32 * 11.0, 0.0 + r as f32 * 11.0);
            for i in 0..n {
                let y = oy + (2 * i + 1) as f32 * h;
                for j in i..n {
                    let x = ox + (i + 1) as f32 * h + (2 * (j - i)) as f32 * h - n as f32 * h;
                    out.push((x, y, h, h));
                }
            }
        }
    }
    out
}

/// `count` rays as (origin, unit direction, max distance): origins spread
/// over the scene (x in [-115, 115], y in [-2, 220]), directions uniform,
/// reach 5-60 m.
pub fn rays(count: usize, seed: u64) -> Vec<([f32; 2], [f32; 2], f32)> {
    let mut s = seed;
    let mut next = move || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((s >> 40) as f32) / (1u64 << 24) as f32
    };
    (0..count)
        .map(|_| {
            let o = [-115.0 + 230.0 * next(), -2.0 + 222.0 * next()];
            let a = std::f32::consts::TAU * next();
            let reach = 5.0 + 55.0 * next();
            (o, [a.cos(), a.sin()], reach)
        })
        .collect()
}
