//! Scene files: RON descriptions of a world, its bodies and body generators.
//!
//! ```ron
//! Scene(
//!   name: "ramp",
//!   gravity: (0.0, -10.0),   // default (0, -10)
//!   dt: 0.016666668,         // default 1/60
//!   substeps: 4,             // default: the engine's
//!   seed: 42,                // generators' random stream
//!   sleep: true,             // default true
//!   bodies: [
//!     (shape: Rect(hx: 20.0, hy: 0.5), kind: Static, pos: (0.0, -0.5)),
//!     (shape: Circle(r: 0.5), pos: (0.0, 5.0), vel: (1.0, 0.0), restitution: 0.5),
//!   ],
//!   generators: [
//!     Pyramid(base: 20, half: 0.5, origin: (0.0, 0.0)),
//!   ],
//! )
//! ```
//!
//! * Body ids: explicit bodies first, in file order, then generator bodies in
//!   generator order.
//! * Randomness: generators draw from one `ChaCha8Rng` seeded by `seed` (see
//!   [`generators`](Generator) for the exact draws).
//! * Bad input: [`Scene::from_ron_str`] returns one [`SceneError`] naming the
//!   origin, then line:column (syntax, unknown fields and variants) or the body
//!   or generator index and field (values), and what is wrong. Nothing panics
//!   and no world is half-built.
//! * Caps: at most [`MAX_BODIES`] bodies including generated ones; polygons
//!   have at most [`crate::shape::MAX_POLYGON_VERTICES`] vertices; sizes are at
//!   most [`crate::shape::MAX_COORDINATE`] m; positions within ±1e6 m.
//!
//! The full reference is `docs/scenes.md`.

mod benchmarks;
mod error;
mod format;
mod generators;
mod human;
mod joint_spec;
mod load;
mod machines;
mod overrides;
mod resolve;
mod script_spec;
mod spec;
mod validate;

pub use benchmarks::Benchmark;
pub(crate) use error::ron_message;
pub use error::{FieldError, SceneError};
pub use format::Scene;
pub use generators::Generator;
pub use joint_spec::{BodyRef, ForceMotorSpec, JointSpec, SpringSpec, TorqueMotorSpec};
pub(crate) use load::ron_options;
pub use load::{builtin_source, MAX_SUBSTEPS};
pub use machines::MAX_LINKS;
pub use resolve::MAX_JOINTS;
pub use script_spec::{ActionSpec, CueSpec, MAX_CUES};
pub use spec::{BodySpec, MotionSpec, PartSpec, ShapeKind, ShapeSpec};
pub use validate::{MAX_DENSITY, MAX_FRICTION, MAX_SPEED};

/// Most bodies a scene may make, explicit and generated together.
pub const MAX_BODIES: usize = 100_000;

// One list of the shipped scenes gives both their names and their sources, so
// the two can never disagree.
macro_rules! builtin {
    ($($name:literal),* $(,)?) => {
        /// Names of the shipped scenes, compiled into the library (the files live in
        /// `scenes/`).
        pub const BUILTIN_NAMES: &[&str] = &[$($name),*];

        pub(crate) const BUILTIN: &[(&str, &str)] =
            &[$(($name, include_str!(concat!("../../scenes/", $name, ".ron")))),*];
    };
}

builtin!(
    "default",
    "pyramid",
    "large_pyramid",
    "many_pyramids",
    "stack",
    "ramps",
    "bounce",
    "pit",
    "shapes",
    "tumbler",
    "newtons_cradle",
    "pendulum",
    "chain",
    "bridge",
    "ragdolls",
    "car",
    "joint_grid",
    "compounds",
    "smash",
    "washer",
    "rain",
    "junkyard",
    "spinner",
);
