//! Every change a user makes to the world goes through [`apply`]: spawning,
//! dragging and deleting. One door in means recording and replay see exactly
//! what the world saw.

use minkowski::{BodyDef, Vec2, World};

/// One world-changing user input, applied before the next step.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Add a body.
    Spawn(BodyDef),
    /// Grab the topmost dynamic body under `at` with the soft mouse constraint.
    DragStart {
        /// World point (m).
        at: Vec2,
    },
    /// Move the mouse constraint's target.
    DragMove {
        /// World point (m).
        target: Vec2,
    },
    /// Let go.
    DragEnd,
    /// Remove the topmost body under `at`.
    Delete {
        /// World point (m).
        at: Vec2,
    },
}

/// Applies an action to the world. Returns a message when nothing happened
/// for a reason the user should see.
pub fn apply(world: &mut World, action: &Action) -> Result<(), String> {
    match action {
        Action::Spawn(def) => world
            .add_body(def.clone())
            .map(|_| ())
            .map_err(|e| format!("cannot spawn: {e}")),
        Action::DragStart { at } => match world.body_at(*at) {
            Some(id) => world
                .drag_start(id, *at)
                .map_err(|e| format!("cannot drag: {e}")),
            None => Ok(()),
        },
        Action::DragMove { target } => {
            world.drag_move(*target);
            Ok(())
        }
        Action::DragEnd => {
            world.drag_end();
            Ok(())
        }
        Action::Delete { at } => {
            if let Some(id) = world.body_at(*at) {
                world.remove_body(id);
            }
            Ok(())
        }
    }
}
