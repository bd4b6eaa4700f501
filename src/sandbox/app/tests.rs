//! The app without a window: what the panels, R, F5, N / P and the kill
//! plane do to the world and to recordings.

use super::super::event_log::Line;
use super::*;
use minkowski::replay::{Recording, Replayer, Tuning};
use settings::Change;
use std::path::PathBuf;

fn app(scene: &str) -> App {
    App::new(PlayArgs {
        scene: Some(scene.into()),
        ..PlayArgs::default()
    })
    .unwrap_or_else(|e| panic!("{e}"))
}

fn steps(app: &mut App, n: usize) {
    for _ in 0..n {
        app.step_once();
    }
}

/// The recording so far, without saving it anywhere.
fn take_recording(app: &mut App) -> Recording {
    let rec = app
        .recorder
        .as_ref()
        .expect("recording")
        .recording()
        .clone();
    app.recorder = None;
    rec
}

/// A scene file in a directory of its own, removed when dropped, so the
/// tests leave nothing behind in the temporary directory.
struct TempScene {
    dir: PathBuf,
    path: PathBuf,
}

impl Drop for TempScene {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A 10 m ledge and a ball rolling off it at 5 m/s, as a scene file. `tag`
/// keeps tests that run at once in separate directories.
fn ledge_scene(tag: &str) -> TempScene {
    let dir = std::env::temp_dir().join(format!("mk-app-tests-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("ledge.ron");
    std::fs::write(
        &path,
        r#"Scene(name: "ledge", bodies: [
  (shape: Rect(hx: 5.0, hy: 0.5), kind: Static, pos: (0.0, -0.5)),
  (shape: Circle(r: 0.5), pos: (3.0, 0.5), vel: (5.0, 0.0)),
  (shape: Rect(hx: 0.5, hy: 0.5), pos: (-3.0, 0.5)),
])"#,
    )
    .unwrap();
    TempScene { dir, path }
}

#[test]
fn settings_changes_are_recorded_and_replay_exactly() {
    let mut app = app("pyramid");
    app.toggle_recording();
    steps(&mut app, 30);
    app.apply_change(Change::Tune(Tuning::Gravity(Vec2::new(4.0, -6.0))));
    steps(&mut app, 30);
    app.apply_change(Change::Tune(Tuning::Substeps(9)));
    app.apply_change(Change::Tune(Tuning::Sleep(false)));
    steps(&mut app, 60);
    app.apply_change(Change::SceneValues);
    // The time scale paces the loop only: nothing to record.
    app.apply_change(Change::TimeScale(0.5));
    steps(&mut app, 60);
    assert_eq!(app.world.settings(), app.initial.settings());
    let rec = take_recording(&mut app);
    assert_eq!(rec.end_step(), 180);
    let tunes = rec
        .events
        .iter()
        .filter(|(_, e)| matches!(e, Action::Tune(_)))
        .count();
    // Gravity, substeps, sleep, then back: gravity, substeps, sleep.
    assert_eq!(tunes, 6);
    assert_eq!(rec.verify(), Ok(180));
    let mut player = Replayer::new(rec.clone()).unwrap();
    while !player.finished() {
        player.step().unwrap();
    }
    assert_eq!(player.world().state_hash(), app.world.state_hash());
    // Without the changes the replay goes elsewhere.
    let untuned = Recording {
        events: Vec::new(),
        ..rec
    };
    assert!(untuned.verify().is_err());
}

#[test]
fn reset_and_recording_keep_the_panel_settings_and_a_new_scene_drops_them() {
    let mut app = app("pyramid");
    steps(&mut app, 10);
    app.apply_change(Change::Tune(Tuning::Gravity(Vec2::new(0.0, -3.0))));
    app.reset();
    assert_eq!(app.world.step_index(), 0);
    assert_eq!(app.world.settings().gravity, Vec2::new(0.0, -3.0));
    // F5 starts from the scene and records the change as its first event.
    app.toggle_recording();
    let rec = take_recording(&mut app);
    assert_eq!(
        rec.events,
        vec![(0, Action::Tune(Tuning::Gravity(Vec2::new(0.0, -3.0))))]
    );
    app.cycle_scene(1);
    assert_eq!(app.scene_name, "large_pyramid");
    assert_eq!(app.world.settings().gravity, Vec2::new(0.0, -10.0));
}

#[test]
fn the_kill_plane_removes_a_fallen_body_and_the_replay_agrees() {
    let scene = ledge_scene("kill");
    let mut app = app(scene.path.to_str().unwrap());
    app.toggle_recording();
    steps(&mut app, 240);
    assert_eq!(app.world.body_count(), 2, "the ball fell off and went");
    assert_eq!(app.kills.count_at(app.world.step_index()), 1);
    let rec = take_recording(&mut app);
    let removals: Vec<u64> = rec
        .events
        .iter()
        .filter(|(_, e)| matches!(e, Action::Remove { index: 1 }))
        .map(|(k, _)| *k)
        .collect();
    assert_eq!(removals.len(), 1);
    assert!((140..175).contains(&removals[0]), "{removals:?}");
    assert_eq!(rec.verify(), Ok(240));
    // The sandbox showing the recording removes it at the same step, from
    // the recording, and counts it.
    let path = scene.path.with_file_name("ledge.replay.ron");
    rec.save(&path).unwrap();
    let mut shown = App::new(PlayArgs {
        replay: Some(path),
        ..PlayArgs::default()
    })
    .unwrap();
    steps(&mut shown, 240);
    assert_eq!(shown.world.state_hash(), app.world.state_hash());
    assert_eq!(shown.kills.count_at(240), 1);
    // Rewound to before the removal, the count says so.
    shown.paused = true;
    shown.scrub(-1);
    let k = shown.world.step_index();
    assert_eq!(shown.kills.count_at(k), usize::from(k > removals[0]));
}

#[test]
fn fit_keeps_to_the_scene_when_bodies_fall_away() {
    let scene = ledge_scene("fit");
    let mut app = app(scene.path.to_str().unwrap());
    app.fit_camera();
    let before = app.cam;
    // Before the kill plane takes it (about step 156), the ball is more
    // than 15 m under the ledge.
    steps(&mut app, 150);
    assert_eq!(app.world.body_count(), 3);
    assert!(app.world.bodies().any(|(_, b)| b.position().y < -15.0));
    app.fit_camera();
    assert_eq!(app.cam, before);
}

#[test]
fn stage_timings_and_plots_start_afresh_in_a_new_scene() {
    let mut app = app("pyramid");
    steps(&mut app, 5);
    assert!(app.stats.step_ms() > 0.0);
    assert_eq!(app.history.len(), 5);
    app.cycle_scene(-1);
    assert_eq!(app.scene_name, "default");
    assert_eq!(app.stats.step_ms(), 0.0);
    assert_eq!(app.history.len(), 0);
    // The picker's way in does the same.
    steps(&mut app, 3);
    let i = picker::index_of(&app.entries, &Source::Builtin("bounce")).unwrap();
    app.open(app.entries[i].source.clone());
    assert_eq!(app.scene_name, "bounce");
    assert_eq!(app.stats.step_ms(), 0.0);
    assert_eq!(app.history.len(), 0);
}

#[test]
fn spawns_take_the_panel_material() {
    let mut app = app("bounce");
    let m = NewBody {
        density: 3.0,
        friction: 0.1,
        restitution: 0.9,
    };
    app.apply_change(Change::NewBody(m));
    let spec = app.spawn_spec(minkowski::scene::ShapeSpec::Circle { r: 0.3 }, Vec2::ZERO);
    assert_eq!(
        (spec.density, spec.friction, spec.restitution),
        (3.0, 0.1, 0.9)
    );
}

#[test]
fn time_scale_keys_walk_the_presets_from_anywhere() {
    assert_eq!(input::step_scale(1.0, 1), 2.0);
    assert_eq!(input::step_scale(1.0, -1), 0.5);
    assert_eq!(input::step_scale(0.7, 1), 1.0);
    assert_eq!(input::step_scale(0.7, -1), 0.5);
    assert_eq!(input::step_scale(4.0, 1), 4.0);
    assert_eq!(input::step_scale(0.0625, -1), 0.0625);
}

#[test]
fn the_event_log_turns_contact_events_on_while_open_and_restores_them() {
    let mut app = app("bounce");
    assert!(!app.world.contact_events());
    app.set_event_log(true);
    assert!(app.world.contact_events());
    // A new world while it is open gets them too; closing restores its own.
    app.reset();
    assert!(app.world.contact_events());
    app.set_event_log(false);
    assert!(!app.world.contact_events());
    // A world that had them on keeps them after the panel closes.
    app.world.set_contact_events(true);
    app.set_event_log(true);
    app.set_event_log(false);
    assert!(app.world.contact_events());
}

#[test]
fn the_event_log_has_each_ball_hitting_the_ground_and_changes_no_result() {
    use super::super::event_log::Kind;
    let mut open = app("bounce");
    open.set_event_log(true);
    let mut closed = app("bounce");
    steps(&mut open, 120);
    steps(&mut closed, 120);
    // Contact events only report: the world moves the same.
    assert_eq!(open.world.state_hash(), closed.world.state_hash());
    assert_eq!(closed.evlog.total(), 0);
    // (ball slot, speed) of every hit, oldest first.
    let mut hits: Vec<(u32, f32)> = open
        .evlog
        .visible()
        .filter_map(|l| match l {
            Line::Event(WorldEvent::Hit {
                body_a,
                body_b,
                speed,
                ..
            }) => Some((body_a.index.max(body_b.index), *speed)),
            _ => None,
        })
        .collect();
    hits.reverse();
    assert_eq!(open.evlog.count(Kind::Hit), hits.len() as u64);
    // Each ball falls 7.5 m onto the ground first: sqrt(2 g h) = 12.25 m/s
    // (the contact begins a little before the touch, so a little slower).
    for ball in 1..=5 {
        let (_, v) = hits
            .iter()
            .find(|h| h.0 == ball)
            .unwrap_or_else(|| panic!("no hit of ball {ball} in {hits:?}"));
        assert!((11.5..=12.3).contains(v), "ball {ball}: {v} m/s");
    }
    // Each hit follows its contact's beginning.
    assert!(open.evlog.count(Kind::ContactBegin) >= open.evlog.count(Kind::Hit));
}

#[test]
fn a_rewind_marks_the_event_log_and_a_reset_clears_it() {
    let mut app = app("bounce");
    app.set_event_log(true);
    steps(&mut app, 120);
    assert!(app.evlog.total() > 0);
    // Snapshots taken with contact events on do not turn them back on.
    app.set_event_log(false);
    app.paused = true;
    app.scrub(-1);
    assert!(!app.world.contact_events());
    assert_eq!(
        app.evlog.visible().next(),
        Some(&Line::Jump { from: 120, to: 90 })
    );
    app.set_event_log(true);
    app.scrub(-1);
    assert!(app.world.contact_events());
    assert_eq!(
        app.evlog.visible().next(),
        Some(&Line::Jump { from: 120, to: 60 })
    );
    app.reset();
    assert_eq!((app.evlog.len(), app.evlog.total()), (0, 0));
}
