//! The world: bodies, settings, the step pipeline.

mod joints;
mod settings;
mod solve;
mod step;
mod timer;
#[allow(clippy::module_inception)]
mod world;

pub use crate::dynamics::BodyId;
pub use settings::{WorldSettings, DEFAULT_SUBSTEPS};
pub use world::{
    validate_body_def, BodyError, ContactView, StepTimings, World, WorldEvent, MAX_POSITION,
};
