//! Every change a user makes to the world goes through [`apply`]: spawning,
//! dragging and deleting, as `minkowski::replay::InputEvent`s. One door in
//! means recording and replay see exactly what the world saw.

use minkowski::replay::apply_input;
use minkowski::World;

/// One world-changing user input, applied before the next step.
pub use minkowski::replay::InputEvent as Action;

/// Applies an action to the world. Returns a message when a spawn is invalid
/// (everything else that does nothing, like a click on empty space, is fine).
pub fn apply(world: &mut World, action: &Action) -> Result<(), String> {
    if let Action::Spawn(spec) = action {
        let def = spec.to_def().map_err(|e| format!("cannot spawn: {e}"))?;
        minkowski::world::validate_body_def(&def).map_err(|e| format!("cannot spawn: {e}"))?;
    }
    apply_input(world, action);
    Ok(())
}
