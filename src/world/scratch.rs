//! Reusable per-step buffers of the world (see [`Scratch`]).

use super::contact_pool::{Contact, MergeBuffers, Touch, TouchKey};
use crate::dynamics::contact_solver::{ContactBundles, ContactForest, Pending};
use crate::dynamics::joint::{JointConstraint, JointForest, JointLanes};
use crate::dynamics::schedule::Wavefront;
use crate::dynamics::sleep::UnionFind;
use crate::dynamics::solver_body::{Integration, SolverBody, SolverPose};
use crate::math::Vec2;

/// Reusable per-step buffers (not part of the state). A clone of a world
/// starts with empty ones, as a restored snapshot does (`#[serde(skip)]`):
/// the sandbox's rewind keeps hundreds of clones, and last step's buffers
/// were most of each (see [`Scratch::clone`]).
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    pub solver_bodies: Vec<SolverBody>,
    pub solver_poses: Vec<SolverPose>,
    /// Per slot: the centre of mass and rotation at the start of the step's
    /// solve (read by the sleep stage, which judges rest by how far a body
    /// really moved over the step).
    pub step_start: Vec<(Vec2, crate::math::Rot)>,
    /// Slots of the bodies that move this step (awake, not frozen).
    pub moving: Vec<u32>,
    /// Per resisted body: its translation before the substep's position
    /// passes (see [`crate::dynamics::solver_body::drop_resisted_velocity`]).
    pub before_passes: Vec<Vec2>,
    /// The solver bodies before a substep's warm start, which the fused
    /// anchor update reads (see `contact_solver::update_and_warm_start`).
    pub pre_warm: Vec<SolverBody>,
    /// The moving bodies of anchored islands, whose held-back velocity the
    /// substeps remove, and the search that finds them.
    pub resisted: Vec<u32>,
    pub anchors: crate::dynamics::solver_body::Anchors,
    /// Gravity and damping of the awake dynamic bodies.
    pub integration: Vec<Integration>,
    pub constraints: ContactBundles,
    pub wavefront: Wavefront,
    /// One block of constraints in contact order, before reordering.
    pub block: Vec<Pending>,
    /// Per body slot: what the contact loop and the constraint build read
    /// of its body (see `solve`).
    pub slot_facts: Vec<crate::dynamics::solver_body::SlotFacts>,
    /// The buffers the contact list's merge builds the next order in.
    pub merge: MergeBuffers,
    /// Whether the contact list is the merge of the broadphase's current
    /// pairs: then a step whose broadphase found no pair added or removed
    /// keeps the list as it is. Anything else that edits the list clears it.
    pub contacts_in_sync: bool,
    pub wake: Vec<u32>,
    /// Per body slot, this step: whether its contacts may be collided
    /// (set by the first stage, read by the narrowphase; see `dormant.rs`).
    pub motion: Vec<super::motion::Motion>,
    /// Per contact in list order, this step: what the narrowphase does
    /// with it (see `dormant.rs`).
    pub dormant: Vec<super::motion::Visit>,
    /// How many contacts this step's narrowphase passed over at rest, unread.
    pub resting: usize,
    /// Tests only: read the contacts at rest too (the reference that
    /// passing over them must match bit for bit).
    #[cfg(test)]
    pub read_resting: bool,
    /// The bodies woken this step, by slot (see `World::wake_islands`).
    pub woken: Vec<u32>,
    /// Per body slot: woken this step (scratch of `restore_woken`).
    pub woke: Vec<bool>,
    /// The touches of contacts passed over at rest whose bodies woke, with
    /// their positions in the list (scratch of `restore_woken`).
    pub restored: Vec<(u32, Touch)>,
    /// This step's deep contacts: buried body, other body, depth and limit
    /// (m); see `buried.rs`.
    pub deep: Vec<(u32, u32, f32, f32)>,
    pub islands: UnionFind,
    pub island_rest: Vec<f32>,
    pub pick: Vec<u32>,
    /// The body pairs (lower slot first, sorted) that a joint keeps from
    /// colliding, rebuilt when a joint comes or goes.
    pub joined_pairs: Vec<(u32, u32)>,
    pub joined_pairs_valid: bool,
    /// This step's joint constraints.
    pub joint_constraints: Vec<JointConstraint>,
    /// The order the joint passes visit the joint constraints in (indices
    /// into `joint_constraints`; see `schedule`), and its scratch.
    pub joint_order: Vec<u32>,
    /// Per position of `joint_order`: the next joint shares no responding
    /// body with it. The passes' visit, with its bundles of plain hinges.
    pub joint_with_next: Vec<bool>,
    pub joint_lanes: JointLanes,
    pub joint_wavefront: Wavefront,
    /// This step's touching contacts (with at least one point), in list
    /// order: set by the narrowphase, kept in step by `drop_contacts`, read
    /// by the stages after it, which so skip the pairs whose boxes only
    /// overlap.
    pub touching: Vec<Touch>,
    /// Per touch, in the same order: its [`TouchKey`], set with it.
    pub touch_keys: Vec<TouchKey>,
    /// Per touch, in the same order: its contact's position in the list
    /// (scratch of `restore_woken`, set only there).
    pub touch_at: Vec<u32>,
    /// Contacts that began or ended touching this step (contact events).
    pub ended: Vec<Contact>,
    pub joint_forest: JointForest,
    /// The exact solve of contacts in islands of very different masses.
    pub contact_forest: ContactForest,
    /// The contacts' stack levels, and which body of each the position
    /// pass holds (shock propagation).
    pub stack_levels: crate::dynamics::stack_levels::StackLevels,
    /// Bodies held by a contact point, a joint or the drag this step.
    pub held: Vec<bool>,
    /// This step's contacts of a dynamic body's shape with a chain segment:
    /// (dynamic slot, its shape, chain slot, chain shape), sorted; see
    /// `continuous.rs`.
    pub chain_touches: Vec<(u32, u32, u32, u32)>,
}

impl Scratch {
    /// Merges `more`, touches with their contacts' positions in the list
    /// (ascending, none listed yet), into the touching list, its keys and
    /// positions, in list order: in place, from the back.
    pub fn merge_touches(&mut self, more: &[(u32, Touch)]) {
        let (touching, keys, at) = (&mut self.touching, &mut self.touch_keys, &mut self.touch_at);
        debug_assert!(touching.len() == keys.len() && keys.len() == at.len());
        let mut old = touching.len();
        let mut next = more.len();
        let total = old + next;
        touching.resize(total, Touch::default());
        keys.resize(total, TouchKey::default());
        at.resize(total, 0);
        for to in (0..total).rev() {
            if next == 0 {
                break;
            }
            let take_new = old == 0 || more[next - 1].0 > at[old - 1];
            if take_new {
                next -= 1;
                let (i, t) = more[next];
                debug_assert!(old == 0 || at[old - 1] != i, "a touch listed twice");
                touching[to] = t;
                keys[to] = TouchKey::of(&t);
                at[to] = i;
            } else {
                old -= 1;
                touching[to] = touching[old];
                keys[to] = keys[old];
                at[to] = at[old];
            }
        }
    }
}

impl Clone for Scratch {
    /// Empty buffers: what they held is rebuilt by the next step, and a
    /// world continues bit for bit without it (`tests/determinism.rs`
    /// steps clones and restored snapshots beside their originals). For the
    /// large pyramid a clone took 22.8 MB with the buffers.
    fn clone(&self) -> Scratch {
        Scratch::default()
    }
}
