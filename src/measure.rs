//! Whole-world measures, one number each: energy, momentum, contacts. The
//! same columns feed `minkowski run --trace`, `minkowski sweep --measure`
//! and the sandbox's live plots, so the formulas live here once.
//!
//! Potential energy is `−m·g·c` summed over the bodies (c the centre of
//! mass, 0 at the origin), so total energy is conserved by an ideal
//! frictionless, elastic scene under the current gravity.

use crate::world::World;

/// The deterministic world columns, in order.
pub const WORLD_COLUMNS: [&str; 12] = [
    "step",
    "time",
    "kinetic",
    "potential",
    "total",
    "momentum_x",
    "momentum_y",
    "angular_momentum",
    "contacts",
    "bodies",
    "awake",
    "max_penetration",
];

/// The values of [`WORLD_COLUMNS`] for the world as it is: step index,
/// time (s, step × dt), kinetic, potential and total energy (J), linear
/// momentum x and y (kg·m/s), angular momentum about the origin (kg·m²/s),
/// contact points, awake bodies, and the deepest contact point's
/// penetration (m, 0 if none).
///
/// ```
/// use minkowski::measure::{world_columns, WORLD_COLUMNS};
/// let world = minkowski::scene::Scene::builtin("bounce").unwrap().build().unwrap();
/// let row = world_columns(&world);
/// let total = WORLD_COLUMNS.iter().position(|c| *c == "total").unwrap();
/// assert_eq!(row[total], row[2] + row[3]);
/// ```
pub fn world_columns(world: &World) -> [f64; 12] {
    let step = world.step_index();
    let g = world.settings().gravity;
    let potential: f64 = world
        .bodies()
        .map(|(_, b)| -(b.mass() as f64) * (g.dot(b.center_of_mass()) as f64))
        .sum();
    let kinetic: f64 = world.bodies().map(|(_, b)| b.kinetic_energy() as f64).sum();
    let p = world.linear_momentum();
    let depth = world
        .contacts()
        .map(|c| -c.manifold.min_separation())
        .fold(0.0f32, f32::max);
    [
        step as f64,
        step as f64 * world.settings().dt as f64,
        kinetic,
        potential,
        kinetic + potential,
        p.x as f64,
        p.y as f64,
        world.angular_momentum() as f64,
        world.contact_point_count() as f64,
        world.body_count() as f64,
        world.awake_count() as f64,
        depth as f64,
    ]
}
