//! Sensors: shapes that report what overlaps them and never collide.
//!
//! After the solver, each sensor shape (bodies in slot order, shapes in
//! order) asks the broadphase for the shapes near its pose, keeps the
//! non-sensor shapes of other bodies that its filter accepts and that
//! really overlap it (`narrowphase::intersects`), and compares the sorted
//! list with the last step's: the new ones are reported as `SensorBegin`, the
//! missing ones as `SensorEnd`. A sensor on a static body does not see static
//! shapes. The order of the events is that of the sensors, then of the
//! visitors' (slot, shape) pairs, so it is deterministic.

use super::world::{World, WorldEvent};
use crate::dynamics::{BodyId, BodyKind};
use crate::narrowphase::dispatch;

impl World {
    /// Stage 7: sensor overlaps and their begin and end events.
    pub(crate) fn update_sensors(&mut self) {
        if self.sensors.is_empty() {
            return;
        }
        let mut ids = Vec::new();
        let sensors = std::mem::take(&mut self.sensors);
        for &s in &sensors {
            let Some(body) = self.slots[s as usize].body.as_ref() else {
                continue;
            };
            for child in 0..body.colliders.len() {
                let body = self.slots[s as usize].body.as_ref().expect("sensor body");
                let c = &body.colliders[child];
                if !c.sensor {
                    continue;
                }
                let pose = c.pose(&body.xf);
                let mut seen: Vec<(u32, u32)> = Vec::new();
                if !body.frozen {
                    self.broadphase.query(&c.shape.aabb(&pose), &mut ids);
                    for &p in &ids {
                        let proxy = self.proxies[p as usize];
                        if proxy.body == s {
                            continue;
                        }
                        let Some(other) = self.slots[proxy.body as usize].body.as_ref() else {
                            continue;
                        };
                        let Some(v) = other.colliders.get(proxy.child as usize) else {
                            continue;
                        };
                        let both_static =
                            body.kind == BodyKind::Static && other.kind == BodyKind::Static;
                        if v.sensor
                            || both_static
                            || other.frozen
                            || !c.filter.collides_with(&v.filter)
                        {
                            continue;
                        }
                        if dispatch::intersects(&c.shape, &pose, &v.shape, &v.pose(&other.xf)) {
                            seen.push((proxy.body, proxy.child));
                        }
                    }
                    seen.sort_unstable();
                    seen.dedup();
                }
                let old = &body.colliders[child].visitors;
                let sensor = self.id_of(s);
                let step = self.step_index;
                let mut events = Vec::new();
                for v in old.iter().filter(|v| seen.binary_search(v).is_err()) {
                    events.push(WorldEvent::SensorEnd {
                        sensor,
                        sensor_shape: child as u32,
                        visitor: self.id_of(v.0),
                        visitor_shape: v.1,
                        step,
                    });
                }
                for v in seen.iter().filter(|v| old.binary_search(v).is_err()) {
                    events.push(WorldEvent::SensorBegin {
                        sensor,
                        sensor_shape: child as u32,
                        visitor: self.id_of(v.0),
                        visitor_shape: v.1,
                        step,
                    });
                }
                self.events.extend(events);
                if let Some(b) = self.slots[s as usize].body.as_mut() {
                    b.colliders[child].visitors = seen;
                }
            }
        }
        self.sensors = sensors;
    }

    /// A body is going away: it stops being a sensor, and the sensors it was
    /// in report it leaving.
    pub(crate) fn forget_sensor_visitor(&mut self, index: u32) {
        self.sensors.retain(|&s| s != index);
        let visitor = self.id_of(index);
        let step = self.step_index;
        for k in 0..self.sensors.len() {
            let s = self.sensors[k];
            let sensor: BodyId = self.id_of(s);
            let Some(body) = self.slots[s as usize].body.as_mut() else {
                continue;
            };
            for (child, c) in body.colliders.iter_mut().enumerate() {
                let before = c.visitors.len();
                let mut gone = Vec::new();
                c.visitors.retain(|v| {
                    let keep = v.0 != index;
                    if !keep {
                        gone.push(v.1);
                    }
                    keep
                });
                if c.visitors.len() != before {
                    for shape in gone {
                        self.events.push(WorldEvent::SensorEnd {
                            sensor,
                            sensor_shape: child as u32,
                            visitor,
                            visitor_shape: shape,
                            step,
                        });
                    }
                }
            }
        }
    }
}
