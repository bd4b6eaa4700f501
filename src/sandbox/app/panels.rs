//! The settings panel, the plots, the scene picker and the event log's
//! button, wired to the app: where they sit, what their changes do.

use super::*;
use minkowski::scene::ShapeSpec;
use settings::Change;

/// Which panels are open at start-up (`--panel`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Panels {
    /// The settings panel (F2).
    pub settings: bool,
    /// The plots (F3).
    pub plots: bool,
    /// The scene picker (F4).
    pub scenes: bool,
    /// The event log (F6).
    pub events: bool,
}

impl Panels {
    /// Parses `--panel settings,plots,scenes,events` (comma-separated or
    /// repeated).
    pub fn parse(list: &[String]) -> Result<Panels, String> {
        let mut p = Panels::default();
        for item in list.iter().flat_map(|s| s.split(',')).map(str::trim) {
            match item {
                "" => {}
                "settings" => p.settings = true,
                "plots" => p.plots = true,
                "scenes" => p.scenes = true,
                "events" => p.events = true,
                _ => {
                    return Err(format!(
                        "unknown panel {item:?}; expected settings, plots, scenes or events"
                    ))
                }
            }
        }
        Ok(p)
    }
}

/// The buttons that open and close the panels, top right; in a narrow
/// window they shrink (and drop the key) to stay clear of the HUD.
fn panel_buttons(screen: Vec2) -> [(Rect, &'static str); 4] {
    let (h, gap) = (26.0, 4.0);
    // Right of the HUD (8 + 330 px wide) with a margin.
    let room = screen.x - 8.0 - 346.0 - 3.0 * gap;
    let w = (room / 4.0).clamp(64.0, 96.0);
    let x = screen.x - 8.0 - 4.0 * w - 3.0 * gap;
    let r = |i: f32| Rect::new(x + i * (w + gap), 8.0, w, h);
    let full = w >= 90.0;
    let label = |long: &'static str, short: &'static str| if full { long } else { short };
    [
        (r(0.0), label("F2 Settings", "Settings")),
        (r(1.0), label("F3 Plots", "Plots")),
        (r(2.0), label("F4 Scenes", "Scenes")),
        (r(3.0), label("F6 Events", "Events")),
    ]
}

impl App {
    /// A spawned body of the panel's material.
    pub(super) fn spawn_spec(&self, shape: ShapeSpec, at: Vec2) -> BodySpec {
        let mut spec = BodySpec::new(shape, at);
        spec.density = self.new_body.density;
        spec.friction = self.new_body.friction;
        spec.restitution = self.new_body.restitution;
        spec
    }

    /// Top of the plots panel: under the HUD.
    fn plots_top(&self) -> f32 {
        8.0 + hud::height(self.capture.is_some()) + 8.0
    }

    /// `true` when a point is over an open panel or the panel buttons
    /// (clicks there are not tool input).
    pub(super) fn panel_at(&self, screen: Vec2, p: Vec2) -> bool {
        if !self.show_hud {
            return false;
        }
        panel_buttons(screen).iter().any(|(r, _)| r.contains(p))
            || (self.show_settings && settings::rect(screen).contains(p))
            || (self.show_plots && plots::rect(screen, self.plots_top()).contains(p))
            || (self.show_picker && picker::rect(screen, &self.entries).contains(p))
            || (self.events.open && self.events_rect(screen).contains(p))
    }

    pub(super) fn toggle_picker(&mut self) {
        self.show_picker = !self.show_picker;
        if self.show_picker {
            self.refresh_entries();
        }
    }

    /// Draws the open panels (after the HUD) and applies what changed.
    pub(super) fn draw_panels(&mut self, screen: Vec2) {
        let pointer = match self.capture {
            Some(_) => super::super::widgets::Pointer::default(),
            None => super::super::widgets::Pointer {
                pos: Some(Vec2::from(mouse_position())),
                down: is_mouse_button_down(MouseButton::Left),
                pressed: is_mouse_button_pressed(MouseButton::Left) && !self.show_help,
            },
        };
        self.widgets.begin(pointer);
        let open = [
            self.show_settings,
            self.show_plots,
            self.show_picker,
            self.events.open,
        ];
        for (i, (r, label)) in panel_buttons(screen).into_iter().enumerate() {
            if self.widgets.button(r, label, open[i]) {
                match i {
                    0 => self.show_settings = !self.show_settings,
                    1 => self.show_plots = !self.show_plots,
                    2 => self.toggle_picker(),
                    _ => self.toggle_event_log(),
                }
            }
        }
        if self.events.open {
            self.draw_event_log(screen);
        }
        if self.show_plots {
            let r = plots::rect(screen, self.plots_top());
            plots::draw(&self.history, r, self.capture.is_none());
        }
        if self.show_settings {
            let values = settings::Values {
                world: *self.world.settings(),
                time_scale: self.time_scale,
                new_body: self.new_body,
                read_only: self.player.is_some(),
            };
            for change in settings::draw(&mut self.widgets, screen, &values) {
                self.apply_change(change);
            }
        }
        if self.show_picker {
            let current = self.current_entry();
            if let Some(i) = picker::draw(&mut self.widgets, screen, &self.entries, current) {
                if self.player.is_some() {
                    self.toast(
                        "close the replay to open a scene (play without --replay)".into(),
                        theme::TEXT_DIM,
                    );
                } else {
                    self.show_picker = false;
                    self.open(self.entries[i].source.clone());
                }
            }
        }
    }

    /// Applies one change from the settings panel.
    pub(super) fn apply_change(&mut self, change: Change) {
        match change {
            Change::Tune(t) => self.act(Action::Tune(t)),
            Change::TimeScale(s) => {
                let (lo, hi) = settings::TIME_SCALE_RANGE;
                self.time_scale = s.clamp(lo, hi);
            }
            Change::NewBody(m) => self.new_body = m,
            Change::SceneValues => {
                let scene = *self.initial.settings();
                for t in minkowski::replay::Tuning::diff(self.world.settings(), &scene) {
                    self.act(Action::Tune(t));
                }
            }
        }
    }
}
