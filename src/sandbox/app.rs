//! The sandbox's state and frame loop: input → fixed-step simulation → drawing.
//!
//! The simulation runs on the world's fixed `dt` with an accumulator fed by the
//! frame time times the time scale, so it is independent of the frame rate; at
//! most [`MAX_CATCH_UP`] steps (and about 25 ms of stepping) run per frame and
//! any larger backlog is dropped.
//! In capture mode (`--frames`) each frame takes exactly `--steps-per-frame`
//! steps and no input or wall-clock time is read.

use super::actions::{self, Action};
use super::camera::Camera;
use super::help;
use super::hot_reload::Watcher;
use super::hud::{self, HudInfo, Stats, Toast};
use super::inspector::{self, Inspector};
use super::overlays::{self, Overlay, Overlays};
use super::record::{Player, Session};
use super::rewind::Rewind;
use super::scenes;
use super::screenshot::{self, Capture};
use super::theme;
use super::tools::{self, ButtonTarget, SpawnKind, Spawner, Tool};
use super::PlayArgs;
use macroquad::prelude::*;
use minkowski::scene::{BodySpec, Scene};
use minkowski::{Aabb, BodyId, BodyKind, World};
use std::path::PathBuf;

/// Most simulation steps per frame when catching up.
pub const MAX_CATCH_UP: u32 = 8;
/// Wall-clock seconds per frame spent stepping before the backlog is dropped.
const CATCH_UP_BUDGET: f32 = 0.025;
/// Longest frame time fed to the accumulator (s): a stall is not replayed.
const MAX_FRAME_TIME: f32 = 0.25;
/// Time scales reachable with `[` and `]`.
pub const TIME_SCALES: [f32; 7] = [0.0625, 0.125, 0.25, 0.5, 1.0, 2.0, 4.0];
const DEFAULT_SCALE: usize = 4;
/// Throw velocity per metre of drag (1/s).
const THROW_GAIN: f32 = 4.0;
/// Seconds a toast stays up.
const TOAST_SECONDS: f64 = 3.0;

/// What the left button is doing.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Gesture {
    Idle,
    /// Dragging a body with the mouse joint.
    Dragging,
    /// Aiming a throw from this world point.
    Throwing {
        from: Vec2,
    },
}

/// The whole sandbox.
pub struct App {
    scene_path: Option<PathBuf>,
    scene_name: String,
    /// The scene the world was built from (recordings embed it).
    scene: Scene,
    /// The world as loaded, for R.
    initial: World,
    world: World,
    cam: Camera,
    cam_fitted: bool,
    paused: bool,
    scale_idx: usize,
    acc: f32,
    tool: Tool,
    last_spawn: SpawnKind,
    spawner: Spawner,
    gesture: Gesture,
    pan_last: Option<Vec2>,
    overlays: Overlays,
    inspector: Option<Inspector>,
    inspector_open: bool,
    pick_first: Option<BodyId>,
    show_help: bool,
    show_hud: bool,
    rewind: Rewind,
    watcher: Option<Watcher>,
    load_error: Option<String>,
    toasts: Vec<Toast>,
    stats: Stats,
    recorder: Option<Session>,
    player: Option<Player>,
    capture: Option<Capture>,
    /// Inspector (A, B) slot indices from `--inspect`, resolved on load.
    inspect_arg: Option<(u32, u32, Option<usize>)>,
    /// F12 was pressed: save this frame.
    pending_screenshot: bool,
    /// `--view`: the world rectangle to show at start-up instead of the scene.
    view: Option<Aabb>,
}

impl App {
    /// Builds the app from the command line, loading the scene or replay.
    /// Fails (before any window opens) on bad arguments or an unreadable file.
    pub fn new(args: PlayArgs) -> Result<App, String> {
        let overlays = Overlays::parse(&args.overlay)?;
        let inspect_arg = match &args.inspect {
            None => None,
            Some(s) => {
                let bad = || format!("--inspect {s:?}: expected two body indices, e.g. 3,17");
                let (a, b) = s.split_once(',').ok_or_else(bad)?;
                let a: u32 = a.trim().parse().map_err(|_| bad())?;
                let b: u32 = b.trim().parse().map_err(|_| bad())?;
                if a == b {
                    return Err(format!("--inspect {s:?}: pick two different bodies"));
                }
                Some((a, b, args.inspect_step))
            }
        };
        if args.screenshot.is_some() && args.frames.is_none() {
            return Err("--screenshot needs --frames N".into());
        }
        let capture = args.frames.map(|n| Capture {
            frames: n.max(1),
            steps_per_frame: args.steps_per_frame.unwrap_or(1),
            out: args.screenshot.clone(),
        });
        let (loaded, scene_path, player) = match &args.replay {
            Some(path) => {
                let (scene, p) = Player::load(path)?;
                let mut loaded = scenes::from_scene(scene, None)?;
                loaded.name = format!("replay: {}", path.display());
                (loaded, None, Some(p))
            }
            None => {
                let path = args.scene.clone().or_else(scenes::default_path);
                (scenes::load(path.as_deref())?, path, None)
            }
        };
        let world = loaded.world;
        let mut app = App {
            scene_path,
            scene_name: loaded.name,
            scene: loaded.scene,
            initial: world.clone(),
            world,
            cam: Camera::fit(Aabb::new(Vec2::ZERO, Vec2::ONE), Vec2::new(1280.0, 720.0)),
            cam_fitted: false,
            paused: args.paused,
            scale_idx: DEFAULT_SCALE,
            acc: 0.0,
            tool: Tool::Drag,
            last_spawn: SpawnKind::Box,
            spawner: Spawner::new(args.seed.unwrap_or(0x6d696e6b)),
            gesture: Gesture::Idle,
            pan_last: None,
            overlays,
            inspector: None,
            inspector_open: false,
            pick_first: None,
            show_help: args.show_help,
            show_hud: !args.no_hud,
            rewind: Rewind::default(),
            watcher: None,
            load_error: None,
            toasts: Vec::new(),
            stats: Stats::default(),
            recorder: None,
            player,
            capture,
            inspect_arg,
            pending_screenshot: false,
            view: args.view.as_deref().map(parse_view).transpose()?,
        };
        app.rewind.after_step(&app.world);
        app.apply_inspect_arg()?;
        Ok(app)
    }

    /// `true` in `--frames` mode.
    pub fn is_capture(&self) -> bool {
        self.capture.is_some()
    }

    fn apply_inspect_arg(&mut self) -> Result<(), String> {
        let Some((a, b, step)) = self.inspect_arg else {
            return Ok(());
        };
        let find = |i: u32| {
            self.world
                .bodies()
                .find(|(id, _)| id.index == i)
                .map(|(id, _)| id)
                .ok_or_else(|| {
                    format!(
                        "--inspect: no body with index {i} (the scene has {})",
                        self.world.body_count()
                    )
                })
        };
        let (a, b) = (find(a)?, find(b)?);
        let mut insp = Inspector::new(a, b);
        insp.cursor = step;
        self.inspector = Some(insp);
        self.inspector_open = true;
        Ok(())
    }

    /// The frame loop. Returns when the window closes or the capture is done.
    pub async fn run(mut self) -> Result<(), String> {
        if let Some(p) = &self.scene_path {
            if self.capture.is_none() {
                self.watcher = Some(Watcher::new(p, get_time()));
            }
        }
        let mut frame = 0u32;
        loop {
            let screen = Vec2::new(screen_width(), screen_height());
            self.cam.resize(screen);
            if !self.cam_fitted {
                match self.view {
                    Some(v) => self.cam.fit_to(v),
                    None => self.fit_camera(),
                }
                self.cam_fitted = true;
            }
            match self.capture.clone() {
                Some(cap) => {
                    for _ in 0..cap.steps_per_frame {
                        self.step_once();
                    }
                }
                None => {
                    self.handle_input(screen);
                    self.poll_reload();
                    self.advance(get_frame_time());
                    self.stats.frame(get_frame_time());
                }
            }
            self.render(screen);
            if let Some(cap) = &self.capture {
                frame += 1;
                if frame >= cap.frames {
                    if let Some(out) = &cap.out {
                        screenshot::save(out)?;
                    }
                    return Ok(());
                }
            }
            next_frame().await;
        }
    }

    // ----- simulation -------------------------------------------------------

    fn time_scale(&self) -> f32 {
        TIME_SCALES[self.scale_idx]
    }

    /// Feeds the accumulator and runs the due steps.
    fn advance(&mut self, frame_dt: f32) {
        if self.paused {
            self.acc = 0.0;
            return;
        }
        let dt = self.world.settings().dt;
        self.acc += frame_dt.min(MAX_FRAME_TIME) * self.time_scale();
        let mut n = 0;
        let started = std::time::Instant::now();
        while self.acc >= dt && n < MAX_CATCH_UP {
            self.step_once();
            self.acc -= dt;
            n += 1;
            // Heavy scenes: keep the window responsive rather than catch up.
            if started.elapsed().as_secs_f32() > CATCH_UP_BUDGET {
                break;
            }
        }
        if self.acc >= dt {
            // Too far behind: drop the backlog rather than spiral.
            self.acc = 0.0;
        }
    }

    /// One world step with everything that hangs off it.
    fn step_once(&mut self) {
        if let Some(p) = self.player.as_mut() {
            p.apply_due(&mut self.world);
        }
        self.world.step();
        let replay = self
            .player
            .as_ref()
            .map(|p| (p.check(&self.world), self.world.step_index() == p.last_step));
        if let (Some((diverged, at_end)), None) = (replay, &self.capture) {
            if let Some(msg) = diverged {
                self.toast(msg, theme::ERROR);
            }
            if at_end {
                self.paused = true;
                self.toast(
                    "end of the recording: paused (Space plays on, R restarts)".into(),
                    theme::OK,
                );
            }
        }
        self.stats.step(self.world.timings());
        if let Some(r) = self.recorder.as_mut() {
            r.after_step(&self.world);
        }
        self.rewind.after_step(&self.world);
        let frozen = self.world.take_events().len();
        if frozen > 0 && self.capture.is_none() {
            self.toast(
                format!("{frozen} body(ies) frozen after a numerical failure"),
                theme::ERROR,
            );
        }
    }

    /// The single door for world-changing input: applies, records, and cuts
    /// the rewind future.
    fn act(&mut self, action: Action) {
        if self.player.is_some() {
            if !matches!(action, Action::DragMove { .. } | Action::DragEnd) {
                self.toast("replays are read-only".into(), theme::TEXT_DIM);
            }
            return;
        }
        let step = self.world.step_index();
        match actions::apply(&mut self.world, &action) {
            Ok(()) => {
                if let Some(r) = self.recorder.as_mut() {
                    r.record(step, &action);
                }
                self.rewind.truncate_after(step);
            }
            Err(e) => self.toast(e, theme::ERROR),
        }
    }

    fn toast(&mut self, text: String, color: Color) {
        let now = get_time();
        self.toasts.retain(|t| t.until > now);
        if self.toasts.len() >= 4 {
            self.toasts.remove(0);
        }
        self.toasts.push(Toast {
            text,
            color,
            until: now + TOAST_SECONDS,
        });
    }

    // ----- scenes -----------------------------------------------------------

    fn fit_camera(&mut self) {
        let mut bounds: Option<Aabb> = None;
        for (_, b) in self.world.bodies() {
            let bb = b.aabb();
            bounds = Some(bounds.map_or(bb, |u| u.union(&bb)));
        }
        let bounds =
            bounds.unwrap_or_else(|| Aabb::new(Vec2::new(-10.0, -1.0), Vec2::new(10.0, 10.0)));
        self.cam.fit_to(bounds);
    }

    /// Replaces the world (reset, new scene, reload) and clears what pointed into it.
    fn set_world(&mut self, world: World) {
        self.stop_recording();
        self.world = world;
        self.gesture = Gesture::Idle;
        self.pick_first = None;
        if self
            .inspector
            .is_some_and(|i| self.world.body(i.a).is_none() || self.world.body(i.b).is_none())
        {
            self.inspector = None;
            self.inspector_open = false;
        }
        self.rewind.clear();
        self.rewind.after_step(&self.world);
        self.acc = 0.0;
        if let Some(p) = self.player.as_mut() {
            p.seek(0);
        }
    }

    fn open_scene(&mut self, path: PathBuf) {
        match scenes::load(Some(&path)) {
            Ok(loaded) => {
                self.scene_name = loaded.name;
                self.scene = loaded.scene;
                self.initial = loaded.world.clone();
                self.inspector = None;
                self.inspector_open = false;
                self.set_world(loaded.world);
                self.fit_camera();
                self.watcher = Some(Watcher::new(&path, get_time()));
                self.toast(format!("opened {}", path.display()), theme::OK);
                self.scene_path = Some(path);
                self.load_error = None;
            }
            Err(e) => self.toast(e, theme::ERROR),
        }
    }

    fn cycle_scene(&mut self, delta: i32) {
        if self.player.is_some() {
            self.toast(
                "N / P are off while showing a replay".into(),
                theme::TEXT_DIM,
            );
            return;
        }
        // The built-in default scene stands in for scenes/default.ron.
        let current = self
            .scene_path
            .clone()
            .unwrap_or_else(|| PathBuf::from(scenes::DEFAULT_SCENE));
        let list = scenes::list(Some(&current));
        match scenes::neighbour(&list, Some(&current), delta) {
            Some(p) => self.open_scene(p),
            None => self.toast("no scenes found in scenes/".into(), theme::TEXT_DIM),
        }
    }

    fn poll_reload(&mut self) {
        let Some(w) = self.watcher.as_mut() else {
            return;
        };
        if !w.changed(get_time()) {
            return;
        }
        let path = w.path().to_path_buf();
        match scenes::load(Some(&path)) {
            Ok(loaded) => {
                self.scene_name = loaded.name;
                self.scene = loaded.scene;
                self.initial = loaded.world.clone();
                self.set_world(loaded.world);
                self.load_error = None;
                self.toast(format!("reloaded {}", path.display()), theme::OK);
            }
            Err(e) => self.load_error = Some(e),
        }
    }

    fn reset(&mut self) {
        self.set_world(self.initial.clone());
        self.toast("reset".into(), theme::TEXT_DIM);
    }

    // ----- recording, rewind --------------------------------------------------

    fn stop_recording(&mut self) {
        if let Some(r) = self.recorder.take() {
            match r.finish() {
                Ok(p) => self.toast(format!("saved {}", p.display()), theme::OK),
                Err(e) => self.toast(e, theme::ERROR),
            }
        }
    }

    fn toggle_recording(&mut self) {
        if self.recorder.is_some() {
            self.stop_recording();
            return;
        }
        if self.player.is_some() {
            self.toast(
                "cannot record while showing a replay".into(),
                theme::TEXT_DIM,
            );
            return;
        }
        // A recording replays from the scene file, so it starts from the scene.
        self.set_world(self.initial.clone());
        let s = Session::start(&self.scene, &self.scene_name);
        self.toast(
            format!("scene restarted; recording to {}", s.path().display()),
            theme::ERROR,
        );
        self.recorder = Some(s);
    }

    fn scrub(&mut self, delta: i32) {
        if !self.paused {
            self.toast("pause (Space) to rewind".into(), theme::TEXT_DIM);
            return;
        }
        if self.recorder.is_some() {
            self.toast("stop recording (F5) to rewind".into(), theme::TEXT_DIM);
            return;
        }
        let k = self.world.step_index();
        let target = if delta < 0 {
            self.rewind.before(k)
        } else {
            self.rewind.after(k)
        };
        match target {
            Some(w) => {
                self.world = w.clone();
                self.gesture = Gesture::Idle;
                match self.player.as_mut() {
                    // A replay's snapshot holds the recorded drag: keep it.
                    Some(p) => p.seek(self.world.step_index()),
                    // The mouse is not holding anything now, whatever it held then.
                    None => self.world.drag_end(),
                }
            }
            None => {
                let msg = if delta < 0 {
                    "oldest snapshot reached"
                } else {
                    "newest snapshot reached"
                };
                self.toast(msg.into(), theme::TEXT_DIM);
            }
        }
    }

    // ----- input ------------------------------------------------------------

    fn handle_input(&mut self, screen: Vec2) {
        self.handle_keys();
        let mouse = Vec2::from(mouse_position());
        let world_pt = self.cam.to_world(mouse);

        // Camera: wheel zooms around the cursor, right/middle drag pans.
        let (_, wheel) = mouse_wheel();
        if wheel != 0.0 && !tools::over_toolbar(screen, mouse) {
            let factor = if wheel > 0.0 { 1.15 } else { 1.0 / 1.15 };
            self.cam.zoom_at(mouse, factor);
        }
        let panning =
            is_mouse_button_down(MouseButton::Right) || is_mouse_button_down(MouseButton::Middle);
        if panning {
            if let Some(last) = self.pan_last {
                self.cam.pan_pixels(mouse - last);
            }
            self.pan_last = Some(mouse);
        } else {
            self.pan_last = None;
        }

        // Left button: toolbar or tool.
        if is_mouse_button_pressed(MouseButton::Left) {
            if self.show_help {
                self.show_help = false;
            } else if self.show_hud && tools::over_toolbar(screen, mouse) {
                let labels: Vec<&str> = Overlay::ALL.iter().map(|o| o.label()).collect();
                match tools::hit(&tools::buttons(screen, &labels), mouse) {
                    Some(ButtonTarget::Tool(t)) => self.set_tool(t),
                    Some(ButtonTarget::Overlay(i)) => self.overlays.toggle(Overlay::ALL[i]),
                    None => {}
                }
            } else if !(self.inspector_open
                && inspector::panel_rect(screen).contains(mouse)
                && self.inspector.is_some())
            {
                self.tool_press(world_pt);
            }
        }
        match self.gesture {
            Gesture::Dragging => {
                if is_mouse_button_down(MouseButton::Left) {
                    let moved = self
                        .world
                        .drag()
                        .is_some_and(|d| (d.target - world_pt).length_squared() > 1e-10);
                    if moved {
                        self.act(Action::DragMove { target: world_pt });
                    }
                } else {
                    self.act(Action::DragEnd);
                    self.gesture = Gesture::Idle;
                }
                if self.world.drag().is_none() {
                    self.gesture = Gesture::Idle;
                }
            }
            Gesture::Throwing { from } => {
                if !is_mouse_button_down(MouseButton::Left) {
                    let v = (world_pt - from) * THROW_GAIN;
                    let shape = self.spawner.shape(self.last_spawn);
                    let mut spec = BodySpec::new(shape, from);
                    spec.vel = v;
                    self.act(Action::Spawn(spec));
                    self.gesture = Gesture::Idle;
                }
            }
            Gesture::Idle => {}
        }
    }

    fn set_tool(&mut self, t: Tool) {
        if self.gesture == Gesture::Dragging {
            self.act(Action::DragEnd);
        }
        self.gesture = Gesture::Idle;
        self.tool = t;
        if let Some(k) = t.spawn_kind() {
            self.last_spawn = k;
        }
        if t != Tool::Inspect {
            self.pick_first = None;
        }
    }

    fn tool_press(&mut self, at: Vec2) {
        if self.player.is_some() && self.tool != Tool::Inspect {
            self.toast(
                "replays are read-only (the Inspect tool works)".into(),
                theme::TEXT_DIM,
            );
            return;
        }
        if let Some(kind) = self.tool.spawn_kind() {
            let shape = self.spawner.shape(kind);
            self.act(Action::Spawn(BodySpec::new(shape, at)));
            return;
        }
        match self.tool {
            Tool::Drag => {
                let hit = self.world.body_at(at);
                let dynamic = hit
                    .and_then(|id| self.world.body(id))
                    .is_some_and(|b| b.kind() == BodyKind::Dynamic);
                if dynamic {
                    self.act(Action::DragStart { at });
                    if self.world.drag().is_some() {
                        self.gesture = Gesture::Dragging;
                    }
                }
            }
            Tool::Throw => self.gesture = Gesture::Throwing { from: at },
            Tool::Delete => {
                if let Some(id) = self.world.body_at(at) {
                    if self.inspector.is_some_and(|i| i.a == id || i.b == id) {
                        self.inspector = None;
                        self.inspector_open = false;
                    }
                    if self.pick_first == Some(id) {
                        self.pick_first = None;
                    }
                    self.act(Action::Delete { at });
                }
            }
            Tool::Inspect => {
                let Some(id) = self.world.body_at(at) else {
                    return;
                };
                match self.pick_first {
                    Some(first) if first != id && self.world.body(first).is_some() => {
                        self.inspector = Some(Inspector::new(first, id));
                        self.inspector_open = true;
                        self.pick_first = None;
                    }
                    _ => {
                        self.pick_first = Some(id);
                        self.toast(format!("A = {id}; now click body B"), theme::SELECTED);
                    }
                }
            }
            _ => {}
        }
    }

    fn handle_keys(&mut self) {
        let shift = is_key_down(KeyCode::LeftShift) || is_key_down(KeyCode::RightShift);
        for t in Tool::ALL {
            if is_key_pressed(t.key()) {
                self.set_tool(t);
            }
        }
        for ov in Overlay::ALL {
            if is_key_pressed(ov.key()) {
                self.overlays.toggle(ov);
            }
        }
        if is_key_pressed(KeyCode::O) {
            self.overlays.toggle_all();
        }
        if is_key_pressed(KeyCode::Space) {
            self.paused = !self.paused;
            if !self.paused {
                // Play resumes from here: the snapshots after it are a dead future.
                self.rewind.truncate_after(self.world.step_index());
            }
        }
        if is_key_pressed(KeyCode::S) {
            self.paused = true;
            self.rewind.truncate_after(self.world.step_index());
            self.step_once();
        }
        if is_key_pressed(KeyCode::R) {
            self.reset();
        }
        if is_key_pressed(KeyCode::N) {
            self.cycle_scene(1);
        }
        if is_key_pressed(KeyCode::P) {
            self.cycle_scene(-1);
        }
        if is_key_pressed(KeyCode::LeftBracket) && self.scale_idx > 0 {
            self.scale_idx -= 1;
        }
        if is_key_pressed(KeyCode::RightBracket) && self.scale_idx + 1 < TIME_SCALES.len() {
            self.scale_idx += 1;
        }
        if is_key_pressed(KeyCode::H) || is_key_pressed(KeyCode::F1) {
            self.show_help = !self.show_help;
        }
        if is_key_pressed(KeyCode::Tab) {
            self.show_hud = !self.show_hud;
        }
        if is_key_pressed(KeyCode::F) {
            self.fit_camera();
        }
        if is_key_pressed(KeyCode::F5) {
            self.toggle_recording();
        }
        if is_key_pressed(KeyCode::F12) {
            self.pending_screenshot = true;
        }
        if is_key_pressed(KeyCode::I) {
            if self.inspector.is_some() {
                self.inspector_open = !self.inspector_open;
            } else {
                self.toast(
                    "pick two bodies with the Inspect tool (9)".into(),
                    theme::TEXT_DIM,
                );
                self.set_tool(Tool::Inspect);
            }
        }
        if is_key_pressed(KeyCode::Escape) {
            if self.show_help {
                self.show_help = false;
            } else if self.gesture != Gesture::Idle {
                if self.gesture == Gesture::Dragging {
                    self.act(Action::DragEnd);
                }
                self.gesture = Gesture::Idle;
            } else if self.pick_first.is_some() {
                self.pick_first = None;
            } else if self.inspector_open {
                self.inspector_open = false;
            }
        }
        // Arrows: the inspector's iterations while it is open, time otherwise
        // (Shift+arrows always scrub time).
        let left = is_key_pressed(KeyCode::Left);
        let right = is_key_pressed(KeyCode::Right);
        if left || right {
            let delta = if left { -1 } else { 1 };
            let inspecting = self.inspector_open && self.inspector.is_some() && !shift;
            if inspecting {
                if let Some(mut insp) = self.inspector {
                    if let Some(trace) = insp.trace(&self.world) {
                        insp.step(&trace, delta);
                    }
                    self.inspector = Some(insp);
                }
            } else {
                self.scrub(delta as i32);
            }
        }
        if self.inspector_open {
            if let Some(insp) = self.inspector.as_mut() {
                if is_key_pressed(KeyCode::Home) {
                    insp.first();
                }
                if is_key_pressed(KeyCode::End) {
                    insp.last();
                }
            }
        }
    }

    // ----- drawing ----------------------------------------------------------

    fn selected(&self) -> Vec<BodyId> {
        let mut s = Vec::new();
        if let Some(i) = self.inspector {
            s.push(i.a);
            s.push(i.b);
        }
        if let Some(p) = self.pick_first {
            s.push(p);
        }
        if let Some(d) = self.world.drag() {
            s.push(d.body);
        }
        s
    }

    fn render(&mut self, screen: Vec2) {
        clear_background(theme::BACKGROUND);
        super::draw::grid(&self.cam);
        super::draw::world(&self.cam, &self.world, &self.selected());
        overlays::draw(&self.cam, &self.world, &self.overlays);
        self.draw_gestures();
        let trace = self
            .inspector
            .filter(|_| self.inspector_open)
            .and_then(|i| i.trace(&self.world).map(|t| (i, t)));
        if let Some((insp, t)) = &trace {
            inspector::draw_in_world(&self.cam, &self.world, insp, t);
        }
        if self.show_hud {
            let info = HudInfo {
                scene: &self.scene_name,
                state: self.state_line(),
                badge: self.badge(),
                deterministic: self.capture.is_some(),
                tool_hint: &self.hint_line(),
            };
            hud::draw(&self.world, &self.stats, &info);
            let ov: Vec<(&str, char, bool)> = Overlay::ALL
                .iter()
                .map(|o| (o.label(), o.key_char(), self.overlays.is_on(*o)))
                .collect();
            let mouse = self.capture.is_none().then(|| Vec2::from(mouse_position()));
            tools::draw_toolbar(screen, self.tool, &ov, mouse);
        }
        if let Some((insp, t)) = &trace {
            inspector::draw_panel(insp, t, screen);
        }
        if let Some(e) = &self.load_error {
            hud::draw_error(e, screen);
        }
        if self.capture.is_none() {
            hud::draw_toasts(&self.toasts, get_time(), screen);
        }
        if self.show_help {
            help::draw(screen);
        }
        if self.pending_screenshot {
            self.pending_screenshot = false;
            let p = screenshot::next_name();
            match screenshot::save(&p) {
                Ok(()) => self.toast(format!("saved {}", p.display()), theme::OK),
                Err(e) => self.toast(e, theme::ERROR),
            }
        }
    }

    fn hint_line(&self) -> String {
        match self.rewind.span() {
            Some((oldest, _)) if self.paused && self.capture.is_none() => format!(
                "Left/Right: rewind ({} snapshots back to step {oldest})",
                self.rewind.len()
            ),
            _ => self.tool.hint().to_string(),
        }
    }

    fn state_line(&self) -> String {
        let run = if self.paused { "PAUSED" } else { "running" };
        let scale = self.time_scale();
        let scale = if scale >= 1.0 {
            format!("x{scale:.0}")
        } else {
            format!("x1/{:.0}", 1.0 / scale)
        };
        let tool = format!("tool: {}", self.tool.label());
        format!("{run}  {scale}   {tool}")
    }

    fn badge(&self) -> Option<(String, Color)> {
        if self.recorder.is_some() {
            return Some(("REC".into(), theme::ERROR));
        }
        self.player.as_ref().map(|p| {
            let k = self.world.step_index();
            let text = if k >= p.last_step {
                format!("REPLAY ended at {}", p.last_step)
            } else {
                format!("REPLAY {k}/{}", p.last_step)
            };
            (text, theme::OK)
        })
    }

    fn draw_gestures(&self) {
        // The mouse joint: anchor to target.
        if let Some(d) = self.world.drag() {
            if let Some(b) = self.world.body(d.body) {
                let a = self.cam.to_screen(b.transform().apply(d.local_anchor));
                let t = self.cam.to_screen(d.target);
                theme::dashed(a, t, 5.0, 1.5, theme::SELECTED);
                draw_circle(a.x, a.y, 3.5, theme::SELECTED);
                draw_circle_lines(t.x, t.y, 6.0, 1.5, theme::SELECTED);
            }
        }
        if let Gesture::Throwing { from } = self.gesture {
            let to = self.cam.to_world(Vec2::from(mouse_position()));
            let v = (to - from) * THROW_GAIN;
            let a = self.cam.to_screen(from);
            theme::arrow(a, self.cam.to_screen(to), 2.0, theme::SELECTED);
            // Ballistic preview for 1.5 s.
            let g = self.world.settings().gravity;
            let mut prev = a;
            for i in 1..=30 {
                let t = i as f32 * 0.05;
                let p = self.cam.to_screen(from + v * t + 0.5 * g * t * t);
                if i % 2 == 0 {
                    draw_line(
                        prev.x,
                        prev.y,
                        p.x,
                        p.y,
                        1.5,
                        theme::with_alpha(theme::SELECTED, 0.6),
                    );
                }
                prev = p;
            }
            theme::text(
                &format!("{:.1} m/s", v.length()),
                a.x + 8.0,
                a.y + 6.0,
                theme::FONT_SMALL,
                theme::SELECTED,
            );
        }
    }
}

/// Parses `--view x0,y0,x1,y1`.
fn parse_view(s: &str) -> Result<Aabb, String> {
    let bad = || format!("--view {s:?}: expected x0,y0,x1,y1 in metres, e.g. -5,0,5,6");
    let v: Vec<f32> = s
        .split(',')
        .map(|x| x.trim().parse::<f32>().map_err(|_| bad()))
        .collect::<Result<_, _>>()?;
    if v.len() != 4 || v.iter().any(|x| !x.is_finite()) || v[0] == v[2] || v[1] == v[3] {
        return Err(bad());
    }
    let (a, b) = (Vec2::new(v[0], v[1]), Vec2::new(v[2], v[3]));
    Ok(Aabb::new(a.min(b), a.max(b)))
}
