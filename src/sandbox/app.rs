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
use super::event_log::EventLog;
use super::help;
use super::hot_reload::Watcher;
use super::hud::{self, HudInfo, Stats, Toast};
use super::inspector::{self, Inspector};
use super::kill::{KillBox, KillLog};
use super::overlays::{self, Overlay, Overlays};
use super::picker::{self, Entry, Source};
use super::plots::{self, History};
use super::record::{self, Player, Session};
use super::rewind::Rewind;
use super::scenes;
use super::screenshot::{self, Capture};
use super::settings::{self, NewBody};
use super::theme;
use super::tools::{self, ButtonTarget, SpawnKind, Spawner, Tool};
use super::widgets::Widgets;
use super::PlayArgs;
use macroquad::prelude::*;
use minkowski::scene::{BodySpec, Scene};
use minkowski::world::WorldEvent;
use minkowski::{Aabb, BodyId, BodyKind, World, WorldSettings};
use std::path::Path;
mod evlog;
mod gestures;
mod input;
mod panels;
mod scene_control;
use evlog::EventView;
use panels::Panels;
#[cfg(test)]
mod tests;

/// Most simulation steps per frame when catching up.
pub const MAX_CATCH_UP: u32 = 8;
/// Wall-clock seconds per frame spent stepping before the backlog is dropped.
const CATCH_UP_BUDGET: f32 = 0.025;
/// Longest frame time fed to the accumulator (s): a stall is not replayed.
const MAX_FRAME_TIME: f32 = 0.25;
/// Time scales reachable with `[` and `]` (the settings panel's slider
/// reaches those between).
pub const TIME_SCALES: [f32; 7] = [0.0625, 0.125, 0.25, 0.5, 1.0, 2.0, 4.0];
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
    /// Aiming the laser from this world point.
    Aiming {
        from: Vec2,
    },
    /// Making a joint from this world point.
    Linking {
        tool: minkowski::replay::JointTool,
        from: Vec2,
    },
}

/// The whole sandbox.
pub struct App {
    /// Where the open scene came from (`None` for a replay).
    source: Option<Source>,
    scene_name: String,
    /// The scene the world was built from (recordings embed it).
    scene: Scene,
    /// The world as loaded, for R.
    initial: World,
    world: World,
    /// The scene's bounds and the kill plane around them.
    kill: KillBox,
    /// Bodies the kill plane removed, by step.
    kills: KillLog,
    cam: Camera,
    /// The view follows the window (refits when its size changes) until
    /// the user pans or zooms; F and a new scene turn it back on.
    auto_fit: bool,
    /// The window size of the last automatic fit.
    fitted_for: Vec2,
    paused: bool,
    time_scale: f32,
    acc: f32,
    /// Wall-clock seconds at the start of this frame (0 before the first).
    now: f64,
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
    widgets: Widgets,
    show_settings: bool,
    show_plots: bool,
    show_picker: bool,
    /// The scenes the picker and N / P offer.
    entries: Vec<Entry>,
    history: History,
    /// Material of spawned bodies.
    new_body: NewBody,
    /// The world's events, newest last (the F6 panel).
    evlog: EventLog,
    /// The event log panel's state.
    events: EventView,
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
        let panels = Panels::parse(&args.panel)?;
        let (loaded, source, player) = match &args.replay {
            Some(path) => {
                let (scene, p) = Player::load(path)?;
                let mut loaded = scenes::from_scene(scene, None)?;
                loaded.name = format!("replay: {}", path.display());
                (loaded, None, Some(p))
            }
            None => {
                let source = match args.scene.as_deref() {
                    Some(arg) => scenes::resolve_arg(arg)?,
                    None => scenes::default_source(),
                };
                (scenes::load(&source)?, Some(source), None)
            }
        };
        let world = loaded.world;
        let mut app = App {
            source,
            scene_name: loaded.name,
            scene: loaded.scene,
            initial: world.clone(),
            kill: KillBox::of(&world),
            kills: KillLog::default(),
            world,
            cam: Camera::fit(Aabb::new(Vec2::ZERO, Vec2::ONE), Vec2::new(1280.0, 720.0)),
            auto_fit: true,
            fitted_for: Vec2::ZERO,
            paused: args.paused,
            time_scale: 1.0,
            acc: 0.0,
            now: 0.0,
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
            widgets: Widgets::default(),
            show_settings: panels.settings,
            show_plots: panels.plots,
            show_picker: panels.scenes,
            entries: Vec::new(),
            history: History::default(),
            new_body: NewBody::default(),
            evlog: EventLog::default(),
            events: EventView {
                hover_arg: args.hover_event,
                ..EventView::default()
            },
        };
        app.events_new_world();
        app.set_event_log(panels.events);
        app.refresh_entries();
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
        self.now = get_time();
        if self.capture.is_none() {
            self.watch();
        }
        let mut frame = 0u32;
        loop {
            self.now = get_time();
            let screen = Vec2::new(screen_width(), screen_height());
            self.cam.resize(screen);
            // The web build's canvas takes its size after the first frames.
            if self.auto_fit && self.fitted_for != screen {
                match self.view {
                    Some(v) => self.cam.fit_to(v),
                    None => self.fit_camera(),
                }
                self.fitted_for = screen;
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

    /// Feeds the accumulator and runs the due steps.
    fn advance(&mut self, frame_dt: f32) {
        if self.paused {
            self.acc = 0.0;
            return;
        }
        let dt = self.world.settings().dt;
        self.acc += frame_dt.min(MAX_FRAME_TIME) * self.time_scale;
        let mut n = 0;
        // macroquad's clock: `std::time::Instant` panics in the web build.
        let started = get_time();
        while self.acc >= dt && n < MAX_CATCH_UP {
            self.step_once();
            self.acc -= dt;
            n += 1;
            // Heavy scenes: keep the window responsive rather than catch up.
            if get_time() - started > CATCH_UP_BUDGET as f64 {
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
        let k = self.world.step_index();
        match self.player.as_mut() {
            // A replay removes what its recording removed.
            Some(p) => {
                let removed = p.apply_due(&mut self.world);
                self.kills.note(k, removed);
            }
            None => {
                let doomed = self.kill.doomed(&self.world);
                for &index in &doomed {
                    self.act(Action::Remove { index });
                }
                self.kills.note(k, doomed.len());
            }
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
        self.history.push(&self.world);
        if let Some(r) = self.recorder.as_mut() {
            r.after_step(&self.world);
        }
        self.rewind.after_step(&self.world);
        let events = self.world.take_events();
        let count = |f: fn(&WorldEvent) -> bool| events.iter().filter(|e| f(e)).count();
        let frozen = count(|e| matches!(e, WorldEvent::BodyFrozen { .. }));
        let buried = count(|e| matches!(e, WorldEvent::BodyBuried { .. }));
        if frozen > 0 && self.capture.is_none() {
            self.toast(
                format!("{frozen} body(ies) frozen after a numerical failure"),
                theme::ERROR,
            );
        }
        if buried > 0 && self.capture.is_none() {
            self.toast(
                format!("{buried} body(ies) buried in a static body (shown in orange)"),
                theme::ERROR,
            );
        }
        self.evlog.extend(events);
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
                self.forget_future(step);
            }
            Err(e) => self.toast(e, theme::ERROR),
        }
    }

    /// The world changed at step `k`: the snapshots and removals after it
    /// are a future that no longer happens.
    fn forget_future(&mut self, k: u64) {
        self.rewind.truncate_after(k);
        self.kills.forget_from(k);
    }

    fn toast(&mut self, text: String, color: Color) {
        let now = self.now;
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

    /// Fits the scene: its bounds at load and the bodies still in them
    /// (not those that fell away).
    fn fit_camera(&mut self) {
        self.cam.fit_to(self.kill.fit_bounds(&self.world));
        // F and a new scene drop `--view`.
        self.view = None;
        self.auto_fit = true;
        self.fitted_for = self.cam.screen;
    }

    // ----- recording, rewind --------------------------------------------------

    // ----- input ------------------------------------------------------------

    // ----- drawing ----------------------------------------------------------

    fn render(&mut self, screen: Vec2) {
        clear_background(theme::BACKGROUND);
        super::draw::grid(&self.cam);
        super::draw::world(&self.cam, &self.world, &self.selected());
        super::joints::draw(&self.cam, &self.world, self.overlays.is_on(Overlay::Joints));
        overlays::draw(&self.cam, &self.world, &self.overlays);
        if self.show_hud {
            self.draw_event_focus(screen);
        }
        self.draw_gestures();
        if let Gesture::Aiming { from } = self.gesture {
            let to = self.cam.to_world(Vec2::from(mouse_position()));
            self.draw_laser(from, to);
        }
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
                removed: self.kills.count_at(self.world.step_index()),
            };
            hud::draw(&self.world, &self.stats, &info);
            self.draw_panels(screen);
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
            hud::draw_toasts(&self.toasts, self.now, screen);
        }
        if self.show_help {
            help::draw(screen);
        }
        if self.pending_screenshot {
            self.pending_screenshot = false;
            match screenshot::save_next() {
                Ok(p) => self.toast(format!("saved {}", p.display()), theme::OK),
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
        let scale = settings::scale_text(self.time_scale);
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
