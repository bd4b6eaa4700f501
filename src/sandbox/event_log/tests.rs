//! The event log's buffer, filters, counts and line text, against hand-made
//! events.

use super::*;
use minkowski::dynamics::joint::{Distance, JointDef, JointKind};
use minkowski::dynamics::JointId;

fn id(index: u32) -> BodyId {
    BodyId {
        index,
        generation: 0,
    }
}

fn begin(step: u64) -> WorldEvent {
    WorldEvent::ContactBegin {
        body_a: id(1),
        shape_a: 0,
        body_b: id(2),
        shape_b: 0,
        point: Vec2::new(1.0, -0.5),
        normal: Vec2::new(0.0, 1.0),
        step,
    }
}

fn end(step: u64) -> WorldEvent {
    WorldEvent::ContactEnd {
        body_a: id(1),
        shape_a: 0,
        body_b: id(2),
        shape_b: 3,
        step,
    }
}

fn hit(step: u64, speed: f32) -> WorldEvent {
    WorldEvent::Hit {
        body_a: id(0),
        shape_a: 0,
        body_b: id(4),
        shape_b: 0,
        point: Vec2::new(2.5, 0.25),
        normal: Vec2::new(0.6, 0.8),
        speed,
        step,
    }
}

fn steps(log: &EventLog) -> Vec<u64> {
    log.visible()
        .filter_map(|l| match l {
            Line::Event(e) => row(e, &Names::default()).step.parse().ok(),
            Line::Jump { .. } => None,
        })
        .collect()
}

#[test]
fn the_buffer_caps_at_capacity_and_keeps_the_newest() {
    let mut log = EventLog::default();
    let n = CAPACITY as u64 + 537;
    for k in 0..n {
        log.push(begin(k));
    }
    assert_eq!(log.len(), CAPACITY);
    let s = steps(&log);
    assert_eq!(s.len(), CAPACITY);
    // Newest first, and the oldest 537 are the ones gone.
    assert_eq!(s[0], n - 1);
    assert_eq!(*s.last().unwrap(), 537);
    assert!(s.windows(2).all(|w| w[0] == w[1] + 1));
    // The counts include the dropped ones.
    assert_eq!(log.count(Kind::ContactBegin), n);
    assert_eq!(log.total(), n);
}

#[test]
fn hidden_types_are_counted_not_kept_nor_shown() {
    let mut log = EventLog::default();
    log.push(begin(1));
    log.push(hit(1, 3.0));
    log.toggle(Kind::ContactBegin);
    assert!(!log.is_shown(Kind::ContactBegin));
    // Hidden now: the kept begin is not shown, and new ones are not kept.
    assert_eq!(steps(&log), vec![1]);
    for k in 2..(CAPACITY as u64 + 10) {
        log.push(begin(k));
    }
    log.push(end(5000));
    assert_eq!(log.count(Kind::ContactBegin), CAPACITY as u64 + 9);
    assert_eq!(log.count(Kind::ContactEnd), 1);
    assert_eq!(log.count(Kind::Hit), 1);
    // The flood of begins did not push the hit out.
    assert_eq!(log.len(), 3);
    assert_eq!(steps(&log), vec![5000, 1]);
    // Shown again: the begin kept before the filter is back.
    log.toggle(Kind::ContactBegin);
    assert_eq!(steps(&log), vec![5000, 1, 1]);
    log.toggle(Kind::Hit);
    log.toggle(Kind::ContactEnd);
    assert_eq!(steps(&log), vec![1]);
}

#[test]
fn clear_forgets_lines_and_counts_but_keeps_filters() {
    let mut log = EventLog::default();
    log.toggle(Kind::Hit);
    log.extend([begin(1), hit(1, 2.0), end(9)]);
    log.clear();
    assert_eq!(log.len(), 0);
    assert_eq!(log.total(), 0);
    assert!(!log.is_shown(Kind::Hit));
}

#[test]
fn rewinds_in_a_row_make_one_mark() {
    let mut log = EventLog::default();
    log.push(begin(300));
    log.jump(300, 270);
    log.jump(270, 240);
    assert_eq!(
        log.visible().next(),
        Some(&Line::Jump { from: 300, to: 240 })
    );
    assert_eq!(log.len(), 2);
    // Back where it started: no jump at all.
    log.jump(240, 300);
    assert_eq!(log.len(), 1);
    log.jump(7, 7);
    assert_eq!(log.len(), 1);
    // A mark is never filtered out.
    log.jump(300, 30);
    log.toggle(Kind::ContactBegin);
    assert_eq!(log.visible().count(), 1);
}

#[test]
fn names_come_from_the_scene_and_only_for_its_own_bodies() {
    let scene = Scene::builtin("newtons_cradle").expect("shipped scene");
    let names = Names::of(&scene);
    assert_eq!(names.label(id(1)), "#1 ball1");
    // The slot reused by a later body has another generation.
    let reused = BodyId {
        index: 1,
        generation: 1,
    };
    assert_eq!(names.label(reused), "#1v1");
    assert_eq!(names.label(id(99)), "#99");
}

#[test]
fn each_type_formats_its_bodies_and_value() {
    let mut map = BTreeMap::new();
    map.insert(2, "lid".to_string());
    let names = Names(map);
    let r = row(&begin(12), &names);
    assert_eq!(
        r,
        Row {
            step: "12".into(),
            kind: "begin",
            bodies: "#1 - #2 lid".into(),
            value: "at (1.00, -0.50)".into(),
        }
    );
    let r = row(&end(13), &names);
    assert_eq!((r.kind, r.bodies.as_str()), ("end", "#1 - #2 lid:3"));
    assert!(r.value.is_empty());
    let r = row(&hit(14, 3.456), &names);
    assert_eq!(r.kind, "hit");
    assert_eq!(r.bodies, "#0 - #4");
    assert_eq!(r.value, "3.46 m/s at (2.50, 0.25)");
    let sensor = WorldEvent::SensorBegin {
        sensor: id(2),
        sensor_shape: 1,
        visitor: id(7),
        visitor_shape: 0,
        step: 15,
    };
    let r = row(&sensor, &names);
    assert_eq!((r.kind, r.bodies.as_str()), ("sensor in", "#7 in #2 lid:1"));
    let left = WorldEvent::SensorEnd {
        sensor: id(2),
        sensor_shape: 0,
        visitor: id(7),
        visitor_shape: 0,
        step: 16,
    };
    assert_eq!(row(&left, &names).kind, "sensor out");
    let def = JointDef::new(
        None,
        id(2),
        Vec2::ZERO,
        Vec2::ZERO,
        JointKind::Distance(Distance::rod(1.0)),
    );
    let broke = WorldEvent::JointBroken {
        joint: JointId {
            index: 4,
            generation: 0,
        },
        def,
        step: 17,
        force: Vec2::new(30.0, 40.0),
        torque: -1.3,
    };
    let r = row(&broke, &names);
    assert_eq!(r.kind, "joint broke");
    assert_eq!(r.bodies, "world - #2 lid");
    assert_eq!(r.value, "distance 4: 50.0 N, -1.3 N·m");
    let frozen = WorldEvent::BodyFrozen {
        body: id(5),
        step: 18,
        reason: "speed is NaN".into(),
    };
    let r = row(&frozen, &names);
    assert_eq!(
        (r.step.as_str(), r.kind, r.bodies.as_str(), r.value.as_str()),
        ("18", "frozen", "#5", "speed is NaN")
    );
    let buried = WorldEvent::BodyBuried {
        body: id(6),
        by: id(2),
        depth: 0.25,
        step: 19,
    };
    let r = row(&buried, &names);
    assert_eq!(
        (r.kind, r.bodies.as_str(), r.value.as_str()),
        ("buried", "#6 in #2 lid", "depth 0.250 m")
    );
    // Every type has its own label.
    let labels: Vec<&str> = Kind::ALL.iter().map(|k| k.label()).collect();
    for (i, l) in labels.iter().enumerate() {
        assert!(!labels[i + 1..].contains(l), "{l} twice");
    }
}

#[test]
fn focus_names_the_bodies_and_the_contact() {
    let f = focus(&hit(3, 2.0));
    assert_eq!(f.bodies, vec![id(0), id(4)]);
    assert_eq!(f.contact, Some((Vec2::new(2.5, 0.25), Vec2::new(0.6, 0.8))));
    let f = focus(&end(3));
    assert_eq!((f.bodies, f.contact), (vec![id(1), id(2)], None));
    for k in Kind::ALL {
        assert_eq!(
            k.needs_contact_events(),
            matches!(k, Kind::ContactBegin | Kind::ContactEnd | Kind::Hit)
        );
    }
}
