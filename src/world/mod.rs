//! The world: bodies, settings, the step pipeline.

mod buried;
mod contact_list;
mod contact_pool;
mod continuous;
mod crowding;
mod dormant;
mod event;
mod events;
mod explosion;
mod joints;
mod motion;
mod prefetch;
mod queries;
mod scratch;
mod script;
mod sensors;
mod settings;
mod sleeping;
mod snapshot;
mod solve;
mod step;
mod timer;
mod validate;
#[allow(clippy::module_inception)]
mod world;

pub use crate::dynamics::BodyId;
pub use buried::BURIED_DEPTH;
pub use crowding::{Crowding, MAX_START_OVERLAPS};
pub use explosion::Explosion;
pub use queries::{RayCastHit, ShapeCastHit, ShapeRef};
pub use script::{Action, Cue, Keyframe, Motion, Prefab, PrefabJoint, Script};
pub use settings::{WorldSettings, DEFAULT_SUBSTEPS};
pub use snapshot::SnapshotError;
pub use timer::{set_wall_clock, SolverTimings};
pub use validate::{validate_body_def, BodyError, MAX_POSITION, MAX_SHAPES};
pub use world::{ContactView, LaneUse, StepTimings, World, WorldEvent};
