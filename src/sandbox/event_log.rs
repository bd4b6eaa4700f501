//! The event log's bookkeeping (F6), without drawing: a ring buffer of the
//! world's events (`World::take_events`, after each step), per-type filters
//! and counts, the one-line text of each event, and what an event points at
//! in the world (bodies, a contact point and its normal).
//!
//! Memory is bounded: at most [`CAPACITY`] lines are kept, the oldest going
//! first, while the counts go on with every event seen. A hidden type is
//! counted but not kept, so a flood of contact begins and ends does not push
//! a rare event (a broken joint, a frozen body) out of the buffer.
//! `event_panel.rs` draws it.

use minkowski::scene::Scene;
use minkowski::world::WorldEvent;
use minkowski::{BodyId, Vec2};
use std::collections::{BTreeMap, VecDeque};

/// Most lines kept (events and rewind marks).
pub const CAPACITY: usize = 2000;

/// The type of an event, for filters and counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Two shapes started touching.
    ContactBegin,
    /// Two shapes stopped touching.
    ContactEnd,
    /// Two shapes met fast enough (`WorldSettings::hit_speed`).
    Hit,
    /// A shape entered a sensor.
    SensorBegin,
    /// A shape left a sensor.
    SensorEnd,
    /// A joint broke.
    JointBroken,
    /// A body was frozen after a numerical failure.
    BodyFrozen,
    /// A body was pushed deep into a static or kinematic one.
    BodyBuried,
}

impl Kind {
    /// Every type, in the panel's order.
    pub const ALL: [Kind; 8] = [
        Kind::ContactBegin,
        Kind::ContactEnd,
        Kind::Hit,
        Kind::SensorBegin,
        Kind::SensorEnd,
        Kind::JointBroken,
        Kind::BodyFrozen,
        Kind::BodyBuried,
    ];

    /// The type of `e`.
    pub fn of(e: &WorldEvent) -> Kind {
        match e {
            WorldEvent::ContactBegin { .. } => Kind::ContactBegin,
            WorldEvent::ContactEnd { .. } => Kind::ContactEnd,
            WorldEvent::Hit { .. } => Kind::Hit,
            WorldEvent::SensorBegin { .. } => Kind::SensorBegin,
            WorldEvent::SensorEnd { .. } => Kind::SensorEnd,
            WorldEvent::JointBroken { .. } => Kind::JointBroken,
            WorldEvent::BodyFrozen { .. } => Kind::BodyFrozen,
            WorldEvent::BodyBuried { .. } => Kind::BodyBuried,
        }
    }

    /// The short name shown in the list and on the filter toggles.
    pub fn label(self) -> &'static str {
        match self {
            Kind::ContactBegin => "begin",
            Kind::ContactEnd => "end",
            Kind::Hit => "hit",
            Kind::SensorBegin => "sensor in",
            Kind::SensorEnd => "sensor out",
            Kind::JointBroken => "joint broke",
            Kind::BodyFrozen => "frozen",
            Kind::BodyBuried => "buried",
        }
    }

    /// Whether the world reports this type only with contact events on.
    pub fn needs_contact_events(self) -> bool {
        matches!(self, Kind::ContactBegin | Kind::ContactEnd | Kind::Hit)
    }

    fn index(self) -> usize {
        Kind::ALL.iter().position(|k| *k == self).unwrap_or(0)
    }
}

/// One line of the log.
#[derive(Clone, Debug, PartialEq)]
pub enum Line {
    /// An event, as the world reported it.
    Event(WorldEvent),
    /// Time jumped (a rewind): the lines above follow on from step `to`,
    /// not from step `from`.
    Jump {
        /// The step shown before the jump.
        from: u64,
        /// The step shown after it.
        to: u64,
    },
}

/// The ring buffer, its filters and counts.
#[derive(Clone, Debug)]
pub struct EventLog {
    lines: VecDeque<Line>,
    counts: [u64; 8],
    shown: [bool; 8],
}

impl Default for EventLog {
    /// Empty, every type shown.
    fn default() -> Self {
        EventLog {
            lines: VecDeque::new(),
            counts: [0; 8],
            shown: [true; 8],
        }
    }
}

impl EventLog {
    /// Counts an event and keeps it if its type is shown (dropping the
    /// oldest line when [`CAPACITY`] are kept).
    pub fn push(&mut self, e: WorldEvent) {
        let k = Kind::of(&e).index();
        self.counts[k] += 1;
        if self.shown[k] {
            self.keep(Line::Event(e));
        }
    }

    /// [`EventLog::push`] for each of `events`, in order.
    pub fn extend(&mut self, events: impl IntoIterator<Item = WorldEvent>) {
        for e in events {
            self.push(e);
        }
    }

    fn keep(&mut self, line: Line) {
        if self.lines.len() >= CAPACITY {
            self.lines.pop_front();
        }
        self.lines.push_back(line);
    }

    /// Marks a jump in time from step `from` to step `to` (a rewind). Jumps
    /// in a row make one mark, from the first step to the last.
    pub fn jump(&mut self, from: u64, to: u64) {
        if from == to {
            return;
        }
        match self.lines.back_mut() {
            Some(Line::Jump { from: f, to: t }) => {
                *t = to;
                if *f == to {
                    self.lines.pop_back();
                }
            }
            _ => self.keep(Line::Jump { from, to }),
        }
    }

    /// Forgets every line and count (a new world); the filters stay.
    pub fn clear(&mut self) {
        self.lines.clear();
        self.counts = [0; 8];
    }

    /// Events of type `k` seen since the last clear, kept or not.
    pub fn count(&self, k: Kind) -> u64 {
        self.counts[k.index()]
    }

    /// Every event seen since the last clear.
    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Lines kept.
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// Whether type `k` is shown (and kept).
    pub fn is_shown(&self, k: Kind) -> bool {
        self.shown[k.index()]
    }

    /// Shows or hides type `k`.
    pub fn toggle(&mut self, k: Kind) {
        self.shown[k.index()] = !self.shown[k.index()];
    }

    /// The lines to show, newest first: the kept events of shown types and
    /// the jump marks.
    pub fn visible(&self) -> impl Iterator<Item = &Line> {
        self.lines.iter().rev().filter(|l| match l {
            Line::Event(e) => self.is_shown(Kind::of(e)),
            Line::Jump { .. } => true,
        })
    }
}

/// The scene's body names, by slot index (bodies the scene made keep their
/// slot and generation 0; a body made later never has a name).
#[derive(Clone, Debug, Default)]
pub struct Names(BTreeMap<u32, String>);

impl Names {
    /// The names of a (validated) scene's bodies, explicit and generated.
    pub fn of(scene: &Scene) -> Names {
        Names(
            scene
                .body_specs()
                .into_iter()
                .enumerate()
                .filter_map(|(i, b)| Some((u32::try_from(i).ok()?, b.name?)))
                .collect(),
        )
    }

    /// The name of body `id`, if the scene gave it one.
    pub fn get(&self, id: BodyId) -> Option<&str> {
        (id.generation == 0)
            .then(|| self.0.get(&id.index))
            .flatten()
            .map(String::as_str)
    }

    /// `#3 ball1`, or `#3` for a body without a name.
    pub fn label(&self, id: BodyId) -> String {
        match self.get(id) {
            Some(n) => format!("{id} {n}"),
            None => id.to_string(),
        }
    }

    /// [`Names::label`] with `:k` for a compound's shape `k` > 0.
    fn shape_label(&self, id: BodyId, shape: u32) -> String {
        match shape {
            0 => self.label(id),
            k => format!("{}:{k}", self.label(id)),
        }
    }
}

/// One event as the panel's columns show it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The step index.
    pub step: String,
    /// The type's label.
    pub kind: &'static str,
    /// The bodies involved, with their names.
    pub bodies: String,
    /// The salient number: hit speed (m/s), point (m), depth (m), force (N).
    pub value: String,
}

fn point(p: Vec2) -> String {
    format!("({:.2}, {:.2})", p.x, p.y)
}

/// The columns of one event.
pub fn row(e: &WorldEvent, names: &Names) -> Row {
    let pair = |a, sa, b, sb| {
        format!(
            "{} - {}",
            names.shape_label(a, sa),
            names.shape_label(b, sb)
        )
    };
    let (step, bodies, value) = match e {
        WorldEvent::ContactBegin {
            body_a,
            shape_a,
            body_b,
            shape_b,
            point: p,
            step,
            ..
        } => (
            *step,
            pair(*body_a, *shape_a, *body_b, *shape_b),
            format!("at {}", point(*p)),
        ),
        WorldEvent::ContactEnd {
            body_a,
            shape_a,
            body_b,
            shape_b,
            step,
        } => (
            *step,
            pair(*body_a, *shape_a, *body_b, *shape_b),
            String::new(),
        ),
        WorldEvent::Hit {
            body_a,
            shape_a,
            body_b,
            shape_b,
            point: p,
            speed,
            step,
            ..
        } => (
            *step,
            pair(*body_a, *shape_a, *body_b, *shape_b),
            format!("{speed:.2} m/s at {}", point(*p)),
        ),
        WorldEvent::SensorBegin {
            sensor,
            sensor_shape,
            visitor,
            visitor_shape,
            step,
        }
        | WorldEvent::SensorEnd {
            sensor,
            sensor_shape,
            visitor,
            visitor_shape,
            step,
        } => (
            *step,
            format!(
                "{} in {}",
                names.shape_label(*visitor, *visitor_shape),
                names.shape_label(*sensor, *sensor_shape)
            ),
            String::new(),
        ),
        WorldEvent::JointBroken {
            joint,
            def,
            step,
            force,
            torque,
        } => {
            let a = def.body_a.map_or("world".to_string(), |a| names.label(a));
            (
                *step,
                format!("{a} - {}", names.label(def.body_b)),
                format!(
                    "{} {}: {:.1} N, {:.1} N·m",
                    def.kind.name(),
                    joint.index,
                    force.length(),
                    torque
                ),
            )
        }
        WorldEvent::BodyFrozen { body, step, reason } => {
            (*step, names.label(*body), reason.clone())
        }
        WorldEvent::BodyBuried {
            body,
            by,
            depth,
            step,
        } => (
            *step,
            format!("{} in {}", names.label(*body), names.label(*by)),
            format!("depth {depth:.3} m"),
        ),
    };
    Row {
        step: step.to_string(),
        kind: Kind::of(e).label(),
        bodies,
        value,
    }
}

/// What an event points at in the world, for the hover highlight.
#[derive(Clone, Debug, PartialEq)]
pub struct Focus {
    /// The bodies involved.
    pub bodies: Vec<BodyId>,
    /// The contact point (world, m) and the normal from A to B, where the
    /// event has them (the pose at the event's step).
    pub contact: Option<(Vec2, Vec2)>,
}

/// The bodies and contact of an event.
pub fn focus(e: &WorldEvent) -> Focus {
    let (bodies, contact) = match e {
        WorldEvent::ContactBegin {
            body_a,
            body_b,
            point,
            normal,
            ..
        }
        | WorldEvent::Hit {
            body_a,
            body_b,
            point,
            normal,
            ..
        } => (vec![*body_a, *body_b], Some((*point, *normal))),
        WorldEvent::ContactEnd { body_a, body_b, .. } => (vec![*body_a, *body_b], None),
        WorldEvent::SensorBegin {
            sensor, visitor, ..
        }
        | WorldEvent::SensorEnd {
            sensor, visitor, ..
        } => (vec![*sensor, *visitor], None),
        WorldEvent::JointBroken { def, .. } => {
            (def.body_a.into_iter().chain([def.body_b]).collect(), None)
        }
        WorldEvent::BodyFrozen { body, .. } => (vec![*body], None),
        WorldEvent::BodyBuried { body, by, .. } => (vec![*body, *by], None),
    };
    Focus { bodies, contact }
}

#[cfg(test)]
mod tests;
