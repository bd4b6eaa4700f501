//! # Minkowski
//!
//! A 2D rigid-body physics engine built around support functions: any convex shape
//! that can answer "which of your points lies farthest along this direction?" plugs
//! into the same collision code.
//!
//! The step pipeline, in data-flow order: integrate velocities → sweep-and-prune
//! broadphase → GJK narrowphase → EPA penetration → contact manifolds → sequential
//! impulse solver with positional resolution along the EPA normals → integrate positions.
//!
//! ```
//! use minkowski::{gjk, epa, Iso, Shape, Vec2};
//! let a = Shape::rect(1.0, 1.0);
//! let b = Shape::circle(0.5);
//! let xa = Iso::new(Vec2::ZERO, 0.0);
//! let xb = Iso::new(Vec2::new(1.25, 0.0), 0.0);
//! assert!(gjk::intersects(&a, &xa, &b, &xb));
//! let pen = epa::penetration(&a, &xa, &b, &xb).unwrap();
//! assert!((pen.depth - 0.25).abs() < 1e-5);
//! assert!((pen.normal - Vec2::X).length() < 1e-5);
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod broadphase;
pub mod dynamics;
pub mod geometry;
pub mod math;
pub mod measure;
pub mod narrowphase;
pub mod replay;
pub mod scene;
pub mod shape;
pub mod world;

pub use broadphase::{SapConfig, SweepAndPrune};
pub use dynamics::{Body, BodyDef, BodyKind, Material};
pub use geometry::{epa, gjk, sat};
pub use math::Aabb;
pub use math::{Iso, Rot, Vec2};
pub use shape::{Polygon, Shape, ShapeError, SupportMap};
pub use world::{BodyId, World, WorldSettings};
