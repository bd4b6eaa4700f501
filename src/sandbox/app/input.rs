//! The sandbox's input: mouse gestures and tool presses, and the keyboard
//! shortcuts, turned into actions on the app.

use super::*;
use minkowski::replay::JointTool;

impl App {
    pub(super) fn handle_input(&mut self, screen: Vec2) {
        self.handle_keys();
        let mouse = Vec2::from(mouse_position());
        let world_pt = self.cam.to_world(mouse);
        // The panels take the mouse over them, and while a slider is held.
        let on_panel = self.widgets.busy() || self.panel_at(screen, mouse);

        // Camera: wheel zooms around the cursor, right/middle drag pans.
        let (_, wheel) = mouse_wheel();
        if wheel != 0.0 && self.scroll_event_log(screen, mouse, wheel) {
            // The wheel scrolled the event log.
        } else if wheel != 0.0 && !tools::over_toolbar(screen, mouse) && !on_panel {
            let factor = if wheel > 0.0 { 1.15 } else { 1.0 / 1.15 };
            self.cam.zoom_at(mouse, factor);
            self.auto_fit = false;
        }
        let panning =
            is_mouse_button_down(MouseButton::Right) || is_mouse_button_down(MouseButton::Middle);
        if panning {
            if let Some(last) = self.pan_last {
                self.cam.pan_pixels(mouse - last);
                self.auto_fit = false;
            }
            self.pan_last = Some(mouse);
        } else {
            self.pan_last = None;
        }

        // Left button: toolbar or tool.
        if is_mouse_button_pressed(MouseButton::Left) {
            if self.show_help {
                self.show_help = false;
            } else if on_panel {
                // The panel handles it as it draws.
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
                    let mut spec = self.spawn_spec(shape, from);
                    spec.vel = v;
                    self.act(Action::Spawn(spec));
                    self.gesture = Gesture::Idle;
                }
            }
            Gesture::Linking { tool, from } => {
                if !is_mouse_button_down(MouseButton::Left) {
                    self.act(Action::Joint {
                        tool,
                        a: from,
                        b: world_pt,
                    });
                    self.gesture = Gesture::Idle;
                }
            }
            Gesture::Aiming { .. } => {
                if !is_mouse_button_down(MouseButton::Left) {
                    self.gesture = Gesture::Idle;
                }
            }
            Gesture::Idle => {}
        }
    }

    /// The joint pick radius: 10 pixels, in metres.
    fn pick_radius(&self) -> f32 {
        10.0 / self.cam.scale.max(1e-3)
    }

    pub(super) fn set_tool(&mut self, t: Tool) {
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

    pub(super) fn tool_press(&mut self, at: Vec2) {
        if self.player.is_some() && !matches!(self.tool, Tool::Inspect | Tool::Laser) {
            self.toast(
                "replays are read-only (the Inspect tool works)".into(),
                theme::TEXT_DIM,
            );
            return;
        }
        if let Some(kind) = self.tool.spawn_kind() {
            let shape = self.spawner.shape(kind);
            let spec = self.spawn_spec(shape, at);
            self.act(Action::Spawn(spec));
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
            Tool::Laser => self.gesture = Gesture::Aiming { from: at },
            Tool::Explode => self.act(Action::Explode {
                at,
                radius: super::super::tools::BLAST_RADIUS,
                impulse: super::super::tools::BLAST_IMPULSE,
            }),
            Tool::Pin => self.act(Action::Joint {
                tool: JointTool::Pin,
                a: at,
                b: at,
            }),
            Tool::Motor => {
                let radius = self.pick_radius();
                if self.world.joint_at(at, radius).is_some() {
                    self.act(Action::ToggleMotor { at, radius });
                }
            }
            t if t.joint_tool().is_some() => {
                if let Some(tool) = t.joint_tool() {
                    self.gesture = Gesture::Linking { tool, from: at };
                }
            }
            Tool::Delete if self.world.joint_at(at, self.pick_radius()).is_some() => {
                let radius = self.pick_radius();
                self.act(Action::CutJoint { at, radius });
            }
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

    pub(super) fn handle_keys(&mut self) {
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
                self.forget_future(self.world.step_index());
            }
        }
        if is_key_pressed(KeyCode::S) {
            self.paused = true;
            self.forget_future(self.world.step_index());
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
        if is_key_pressed(KeyCode::LeftBracket) {
            self.time_scale = step_scale(self.time_scale, -1);
        }
        if is_key_pressed(KeyCode::RightBracket) {
            self.time_scale = step_scale(self.time_scale, 1);
        }
        if is_key_pressed(KeyCode::F2) {
            self.show_settings = !self.show_settings;
        }
        if is_key_pressed(KeyCode::F3) {
            self.show_plots = !self.show_plots;
        }
        if is_key_pressed(KeyCode::F4) {
            self.toggle_picker();
        }
        if is_key_pressed(KeyCode::F6) {
            self.toggle_event_log();
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
            } else if self.show_picker {
                self.show_picker = false;
            } else if self.gesture != Gesture::Idle {
                if self.gesture == Gesture::Dragging {
                    self.act(Action::DragEnd);
                }
                self.gesture = Gesture::Idle;
            } else if self.pick_first.is_some() {
                self.pick_first = None;
            } else if self.inspector_open {
                self.inspector_open = false;
            } else if self.events.open {
                self.set_event_log(false);
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

    pub(super) fn selected(&self) -> Vec<BodyId> {
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
}

/// The next preset time scale above (`dir` > 0) or below the current one.
pub(super) fn step_scale(current: f32, dir: i32) -> f32 {
    let next = if dir > 0 {
        TIME_SCALES.iter().find(|&&s| s > current * 1.0001)
    } else {
        TIME_SCALES.iter().rev().find(|&&s| s < current * 0.9999)
    };
    next.copied().unwrap_or(current)
}
