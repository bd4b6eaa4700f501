//! The world: owns every body, the broadphase, the contact cache and the step.

use super::settings::{fat_margin, WorldSettings};
pub(crate) use super::validate::{check, validate_body_def, BodyError, MAX_POSITION};
use crate::broadphase::{QueryTree, SapConfig, SweepAndPrune};
use crate::dynamics::joint::Joint;
use crate::dynamics::BodyId;
use crate::dynamics::{Body, BodyDef, BodyKind, DragJoint};
use crate::math::Aabb;
use crate::math::{is_finite_vec, Iso, Vec2};
use crate::narrowphase::manifold::Manifold;
use serde::{Deserialize, Serialize};
mod readout;
pub use readout::LaneUse;
mod removal;
mod wake;

pub(crate) use super::contact_pool::{Banked, Contact, ContactList, Touch, TouchKey};
pub use super::event::WorldEvent;
pub(crate) use super::scratch::Scratch;

/// Wall-clock time of each stage of the last step (ms). For display only:
/// timings never feed back into the simulation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StepTimings {
    /// Updating bounding boxes and the broadphase's fat boxes.
    pub update_aabbs: f64,
    /// Sweep-and-prune pair update and contact-list sync.
    pub broadphase: f64,
    /// GJK/EPA and manifold building.
    pub narrowphase: f64,
    /// Velocity solve, integration and positional resolution.
    pub solver: f64,
    /// The solver stage's parts.
    #[serde(default)]
    pub solver_parts: super::timer::SolverTimings,
    /// Islands and sleep.
    pub sleep: f64,
    /// The whole step.
    pub total: f64,
}

/// A joint slot: the joint, or a free slot, and its generation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct JointSlot {
    pub generation: u32,
    pub joint: Option<Joint>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Slot {
    pub generation: u32,
    pub body: Option<Body>,
}

/// A broadphase proxy: one shape of one body.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Proxy {
    /// The body's slot.
    pub body: u32,
    /// The shape's index in the body.
    pub child: u32,
}

/// A contact as shown to users: the two bodies and their manifold.
#[derive(Clone, Copy, Debug)]
pub struct ContactView {
    /// Body A (the normal points from A to B).
    pub body_a: BodyId,
    /// Body B.
    pub body_b: BodyId,
    /// The index of the touching shape in body A.
    pub shape_a: u32,
    /// The index of the touching shape in body B.
    pub shape_b: u32,
    /// Normal, points, separations and impulses.
    pub manifold: Manifold,
}

/// The physics world. Add bodies with [`World::add_body`], advance with
/// [`World::step`]. The whole state serializes with serde ([`World::snapshot`]
/// as text): a restored world continues bit-identically.
///
/// ```
/// use minkowski::{BodyDef, BodyKind, Shape, Vec2, World, WorldSettings};
/// let mut world = World::new(WorldSettings::default());
/// world.add_body(BodyDef::new(Shape::rect(10.0, 0.5), Vec2::new(0.0, -0.5)).kind(BodyKind::Static)).unwrap();
/// let ball = world.add_body(BodyDef::new(Shape::circle(0.5), Vec2::new(0.0, 3.0))).unwrap();
/// for _ in 0..120 {
///     world.step();
/// }
/// let y = world.body(ball).unwrap().position().y;
/// assert!((y - 0.5).abs() < 0.01);
/// ```
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct World {
    pub(crate) settings: WorldSettings,
    pub(crate) slots: Vec<Slot>,
    pub(crate) free: Vec<u32>,
    /// Broadphase proxies (one per shape) and their free slots.
    pub(crate) proxies: Vec<Proxy>,
    pub(crate) proxy_free: Vec<u32>,
    pub(crate) broadphase: SweepAndPrune,
    pub(crate) contacts: ContactList,
    pub(crate) drag: Option<DragJoint>,
    /// Whether contact begin and end events are reported.
    #[serde(default)]
    pub(crate) contact_events: bool,
    /// Slots of the bodies flagged buried, sorted.
    #[serde(default)]
    pub(crate) buried: Vec<u32>,
    /// Slots of the bodies with a sensor shape, sorted.
    #[serde(default)]
    pub(crate) sensors: Vec<u32>,
    /// Slots of the bodies with a chain segment, sorted (continuous
    /// collision looks at their contacts only). Like `sensors`, a slot
    /// stays listed after its body goes; readers check the shapes.
    #[serde(default)]
    pub(crate) chain_bodies: Vec<u32>,
    #[serde(default)]
    pub(crate) joints: Vec<JointSlot>,
    #[serde(default)]
    pub(crate) joint_free: Vec<u32>,
    pub(crate) step_index: u64,
    pub(crate) next_island: u32,
    /// Timed actions and kinematic motions (see `script`).
    #[serde(default)]
    pub(crate) script: Option<Box<super::script::Script>>,
    #[serde(skip)]
    pub(crate) events: Vec<WorldEvent>,
    #[serde(skip)]
    pub(crate) timings: StepTimings,
    #[serde(skip)]
    pub(crate) scratch: Scratch,
    /// Query cache: the shapes standing outside their fat box, over their
    /// current boxes (see `queries.rs`); emptied by `step` and
    /// `set_transform`, the only places that move a body.
    #[serde(skip)]
    pub(crate) strays: std::sync::OnceLock<QueryTree>,
}

impl World {
    /// An empty world.
    pub fn new(settings: WorldSettings) -> World {
        World {
            broadphase: SweepAndPrune::new(SapConfig {
                margin: settings.aabb_margin,
                relative_motion: true,
                lead: crate::broadphase::WORLD_LEAD,
                ..SapConfig::default()
            }),
            settings,
            slots: Vec::new(),
            free: Vec::new(),
            proxies: Vec::new(),
            proxy_free: Vec::new(),
            contacts: ContactList::default(),
            drag: None,
            contact_events: false,
            buried: Vec::new(),
            sensors: Vec::new(),
            chain_bodies: Vec::new(),
            joints: Vec::new(),
            joint_free: Vec::new(),
            step_index: 0,
            next_island: 0,
            script: None,
            events: Vec::new(),
            timings: StepTimings::default(),
            scratch: Scratch::default(),
            strays: Default::default(),
        }
    }

    /// The settings.
    pub fn settings(&self) -> &WorldSettings {
        &self.settings
    }

    /// Changes gravity and wakes every body.
    pub fn set_gravity(&mut self, g: Vec2) {
        if is_finite_vec(g) {
            self.settings.gravity = g;
            self.wake_all();
        }
    }

    /// Turns sleeping on or off (off wakes everything).
    pub fn set_sleep_enabled(&mut self, on: bool) {
        self.settings.sleep = on;
        if !on {
            self.wake_all();
        }
    }

    /// Changes the substeps per step (ignored when 0). Takes effect at the
    /// next step.
    pub fn set_substeps(&mut self, n: u32) {
        if n > 0 {
            self.settings.substeps = n;
        }
    }

    /// Changes the sleep thresholds: the speed (m/s) under which a body may
    /// rest and the time (s) an island must rest to sleep. Ignored unless
    /// both are finite and non-negative. Sleeping bodies stay asleep; the
    /// thresholds apply from the next step.
    pub fn set_sleep_thresholds(&mut self, velocity: f32, time: f32) {
        if velocity.is_finite() && velocity >= 0.0 && time.is_finite() && time >= 0.0 {
            self.settings.sleep_velocity = velocity;
            self.settings.time_to_sleep = time;
        }
    }

    /// Adds a body. Fails, without changing the world, when the definition holds
    /// a bad shape or a non-finite or absurd number.
    pub fn add_body(&mut self, def: BodyDef) -> Result<BodyId, BodyError> {
        validate_body_def(&def)?;
        let mut body = Body::from_def(&def);
        if !body.awake && body.kind != BodyKind::Static {
            // Asleep from the start, in an island of its own.
            body.sleep_island = self.next_island;
            self.next_island = self.next_island.wrapping_add(1);
        }
        let index = match self.free.pop() {
            Some(i) => i,
            None => {
                self.slots.push(Slot {
                    generation: 0,
                    body: None,
                });
                (self.slots.len() - 1) as u32
            }
        };
        // One proxy per shape; a world of single-shape bodies gives every
        // body the proxy of its own index.
        for (child, c) in body.colliders.iter_mut().enumerate() {
            let proxy = Proxy {
                body: index,
                child: child as u32,
            };
            c.proxy = match self.proxy_free.pop() {
                Some(p) => {
                    self.proxies[p as usize] = proxy;
                    p
                }
                None => {
                    self.proxies.push(proxy);
                    (self.proxies.len() - 1) as u32
                }
            };
            // Kinematic shapes count as static in the broadphase: two bodies
            // that are not dynamic never collide, so their pair is not made,
            // and a kinematic drum's many pairs do not count against the
            // crowd cap.
            let margin = fat_margin(&self.settings, c.shape.bounding_radius());
            self.broadphase.insert_with_margin(
                c.proxy,
                c.aabb,
                body.kind != BodyKind::Dynamic,
                Some(margin),
            );
            // Pairs the filters refuse, and a sensor's (a sensor finds its
            // visitors by query), never become contacts: the broadphase
            // drops them where it finds them.
            let filter = if c.sensor {
                crate::broadphase::PairFilter::NONE
            } else {
                c.filter.pair_filter()
            };
            self.broadphase.set_filter(c.proxy, filter);
        }
        if body.colliders.iter().any(|c| c.sensor) {
            if let Err(at) = self.sensors.binary_search(&index) {
                self.sensors.insert(at, index);
            }
        }
        let chain = |c: &crate::dynamics::Collider| {
            matches!(c.shape, crate::shape::Shape::ChainSegment { .. })
        };
        if body.colliders.iter().any(chain) {
            if let Err(at) = self.chain_bodies.binary_search(&index) {
                self.chain_bodies.insert(at, index);
            }
        }
        let slot = &mut self.slots[index as usize];
        slot.body = Some(body);
        Ok(BodyId {
            index,
            generation: slot.generation,
        })
    }

    /// The body behind a handle, if it is still alive.
    pub fn body(&self, id: BodyId) -> Option<&Body> {
        self.slots
            .get(id.index as usize)
            .filter(|s| s.generation == id.generation)
            .and_then(|s| s.body.as_ref())
    }

    pub(crate) fn body_mut(&mut self, id: BodyId) -> Option<&mut Body> {
        self.slots
            .get_mut(id.index as usize)
            .filter(|s| s.generation == id.generation)
            .and_then(|s| s.body.as_mut())
    }

    pub(crate) fn id_of(&self, index: u32) -> BodyId {
        BodyId {
            index,
            generation: self.slots[index as usize].generation,
        }
    }

    /// Every live body with its handle, in id (slot) order.
    pub fn bodies(&self) -> impl Iterator<Item = (BodyId, &Body)> + '_ {
        self.slots.iter().enumerate().filter_map(|(i, s)| {
            s.body.as_ref().map(|b| {
                (
                    BodyId {
                        index: i as u32,
                        generation: s.generation,
                    },
                    b,
                )
            })
        })
    }

    /// Number of live bodies.
    pub fn body_count(&self) -> usize {
        self.slots.len() - self.free.len()
    }

    /// Number of awake (non-static, non-sleeping) bodies.
    pub fn awake_count(&self) -> usize {
        self.bodies().filter(|(_, b)| b.awake).count()
    }

    /// Sets a body's pose (origin position and angle). Wakes it and what it touches.
    pub fn set_transform(
        &mut self,
        id: BodyId,
        position: Vec2,
        angle: f32,
    ) -> Result<(), BodyError> {
        check(
            "position.x",
            position.x,
            -MAX_POSITION,
            MAX_POSITION,
            "finite and within ±1e6 m",
        )?;
        check(
            "position.y",
            position.y,
            -MAX_POSITION,
            MAX_POSITION,
            "finite and within ±1e6 m",
        )?;
        check("angle", angle, -1.0e4, 1.0e4, "finite (rad)")?;
        let slot = self.slots.get_mut(id.index as usize);
        let b = slot
            .filter(|s| s.generation == id.generation)
            .and_then(|s| s.body.as_mut())
            .ok_or(BodyError::NoSuchBody(id))?;
        self.strays.take();
        b.xf = Iso::new(position, angle);
        b.center = b.xf.apply(b.local_center);
        b.update_aabbs();
        for c in &b.colliders {
            self.broadphase.update(c.proxy, c.aabb, Vec2::ZERO);
        }
        self.wake_touching(id.index);
        self.wake(id.index);
        Ok(())
    }

    /// Sets a body's linear (centre of mass) and angular velocity, and wakes it.
    pub fn set_velocity(
        &mut self,
        id: BodyId,
        linear: Vec2,
        angular: f32,
    ) -> Result<(), BodyError> {
        check(
            "velocity.x",
            linear.x,
            -1.0e4,
            1.0e4,
            "finite and within ±1e4 m/s",
        )?;
        check(
            "velocity.y",
            linear.y,
            -1.0e4,
            1.0e4,
            "finite and within ±1e4 m/s",
        )?;
        check(
            "angular_velocity",
            angular,
            -1.0e4,
            1.0e4,
            "finite and within ±1e4 rad/s",
        )?;
        let b = self.body_mut(id).ok_or(BodyError::NoSuchBody(id))?;
        if b.kind == BodyKind::Static {
            return Ok(());
        }
        b.v = linear;
        b.w = angular;
        self.wake(id.index);
        Ok(())
    }

    /// Applies an impulse (N·s) at a world point, and wakes the body.
    pub fn apply_impulse(
        &mut self,
        id: BodyId,
        impulse: Vec2,
        point: Vec2,
    ) -> Result<(), BodyError> {
        check("impulse.x", impulse.x, -1.0e9, 1.0e9, "finite")?;
        check("impulse.y", impulse.y, -1.0e9, 1.0e9, "finite")?;
        let b = self.body_mut(id).ok_or(BodyError::NoSuchBody(id))?;
        if b.kind != BodyKind::Dynamic {
            return Ok(());
        }
        b.v += b.inv_mass * impulse;
        b.w += b.inv_inertia * crate::math::cross(point - b.center, impulse);
        self.wake(id.index);
        Ok(())
    }

    /// The topmost (highest id) body containing the world point, if any.
    pub fn body_at(&mut self, point: Vec2) -> Option<BodyId> {
        let mut hits = std::mem::take(&mut self.scratch.pick);
        hits.clear();
        self.broadphase.query(&Aabb::new(point, point), &mut hits);
        hits.sort_unstable();
        let found = hits
            .iter()
            .filter_map(|&p| {
                let Proxy { body, child } = *self.proxies.get(p as usize)?;
                let b = self.slots.get(body as usize)?.body.as_ref()?;
                let c = b.colliders.get(child as usize)?;
                c.shape
                    .contains_point(&c.pose(&b.xf), point)
                    .then_some(body)
            })
            .max();
        self.scratch.pick = hits;
        found.map(|i| self.id_of(i))
    }

    /// Starts dragging `body` by the world point `at` (which should lie on it).
    /// The pull is capped at 1000 × the body's weight.
    pub fn drag_start(&mut self, body: BodyId, at: Vec2) -> Result<(), BodyError> {
        check("drag.x", at.x, -MAX_POSITION, MAX_POSITION, "finite")?;
        check("drag.y", at.y, -MAX_POSITION, MAX_POSITION, "finite")?;
        let g = self.settings.gravity.length().max(1.0);
        let b = self.body(body).ok_or(BodyError::NoSuchBody(body))?;
        if b.kind != BodyKind::Dynamic {
            return Ok(());
        }
        self.drag = Some(DragJoint {
            body,
            local_anchor: b.xf.apply_inv(at),
            target: at,
            hertz: 5.0,
            damping_ratio: 0.7,
            max_force: 1000.0 * b.mass * g,
            impulse: Vec2::ZERO,
        });
        self.wake(body.index);
        Ok(())
    }

    /// Moves the drag target (world, m).
    pub fn drag_move(&mut self, target: Vec2) {
        if !is_finite_vec(target) {
            return;
        }
        if let Some(d) = self.drag.as_mut() {
            d.target = target;
            let i = d.body.index;
            self.wake(i);
        }
    }

    /// Releases the drag.
    pub fn drag_end(&mut self) {
        self.drag = None;
    }

    /// The active drag, if any.
    pub fn drag(&self) -> Option<&DragJoint> {
        self.drag.as_ref()
    }
}
