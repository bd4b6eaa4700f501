//! The event log (F6) wired to the app: opening it turns the world's contact
//! events on (closing restores what the world had), every step's events go
//! into the log, a new world clears it and a rewind marks the jump.

use super::super::event_log::Names;
use super::super::event_panel::{self, View};
use super::*;

/// The event log's state in the app (the log itself is `App::evlog`).
#[derive(Debug, Default)]
pub struct EventView {
    /// The panel is open.
    pub open: bool,
    /// The world's contact-events setting before the panel turned it on.
    pub(super) saved: Option<bool>,
    /// Rows scrolled away from the newest.
    pub scroll: usize,
    /// `--hover-event`: the row shown as hovered.
    pub hover_arg: Option<usize>,
    /// The row under the mouse this frame and its event.
    pub hovered: Option<(usize, WorldEvent)>,
    /// The scene's body names.
    pub names: Names,
}

impl App {
    /// Opens or closes the event log, turning the world's contact events on
    /// while it is open.
    pub(super) fn set_event_log(&mut self, open: bool) {
        if open == self.events.open {
            return;
        }
        self.events.open = open;
        if open {
            self.events.saved = Some(self.world.contact_events());
            self.world.set_contact_events(true);
        } else {
            let before = self.events.saved.take().unwrap_or(false);
            self.world.set_contact_events(before);
            self.events.hovered = None;
        }
    }

    pub(super) fn toggle_event_log(&mut self) {
        self.set_event_log(!self.events.open);
    }

    /// The world was replaced (reset, another scene, a reload, F5): a new
    /// log, and the new world's contact events on while the panel is open.
    pub(super) fn events_new_world(&mut self) {
        self.evlog.clear();
        self.events.scroll = 0;
        self.events.hovered = None;
        self.events.names = Names::of(&self.scene);
        if self.events.open {
            self.events.saved = Some(self.world.contact_events());
            self.world.set_contact_events(true);
        }
    }

    /// The panel's rectangle: left of the settings panel or the inspector
    /// when they are open.
    pub(super) fn events_rect(&self, screen: Vec2) -> Rect {
        let mut right = screen.x - 8.0;
        if self.show_settings {
            right = right.min(settings::rect(screen).x - 8.0);
        }
        if self.inspector_open && self.inspector.is_some() {
            right = right.min(inspector::panel_rect(screen).x - 8.0);
        }
        event_panel::rect(screen, right)
    }

    fn event_view(&self) -> View<'_> {
        View {
            names: &self.events.names,
            mouse: self.capture.is_none().then(|| Vec2::from(mouse_position())),
            hover_row: self.events.hover_arg,
            contact_events: self.world.contact_events(),
        }
    }

    /// Finds the hovered row and outlines its event's bodies and contact in
    /// the world (before the panels are drawn over it).
    pub(super) fn draw_event_focus(&mut self, screen: Vec2) {
        self.events.hovered = None;
        if !self.events.open {
            return;
        }
        let r = self.events_rect(screen);
        let hit = event_panel::hovered(r, &self.evlog, &self.event_view(), self.events.scroll);
        if let Some((_, e)) = &hit {
            event_panel::draw_focus(&self.cam, &self.world, e);
        }
        self.events.hovered = hit;
    }

    /// Draws the panel and applies its toggles.
    pub(super) fn draw_event_log(&mut self, screen: Vec2) {
        let r = self.events_rect(screen);
        let hot = self.events.hovered.as_ref().map(|(i, _)| *i);
        let mut scroll = self.events.scroll;
        let mut widgets = std::mem::take(&mut self.widgets);
        let toggled = event_panel::draw(
            &mut widgets,
            r,
            &self.evlog,
            &self.event_view(),
            &mut scroll,
            hot,
        );
        self.widgets = widgets;
        self.events.scroll = scroll;
        for k in toggled {
            self.evlog.toggle(k);
        }
    }

    /// The mouse wheel over the panel scrolls the list.
    pub(super) fn scroll_event_log(&mut self, screen: Vec2, mouse: Vec2, wheel: f32) -> bool {
        if !(self.events.open && self.show_hud && self.events_rect(screen).contains(mouse)) {
            return false;
        }
        let rows = event_panel::WHEEL_ROWS;
        if wheel > 0.0 {
            self.events.scroll = self.events.scroll.saturating_sub(rows);
        } else if wheel < 0.0 {
            self.events.scroll += rows;
        }
        true
    }
}
