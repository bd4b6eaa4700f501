//! Opening, cycling, hot reloading and resetting scenes, and recording.

use super::*;
use minkowski::replay::Tuning;

impl App {
    /// Replaces the world (reset, new scene, reload) and clears what pointed into it.
    pub(super) fn set_world(&mut self, world: World) {
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
        self.kills = KillLog::default();
        self.history.clear();
        self.acc = 0.0;
        // The HUD's averages belong to the old world.
        self.stats = Stats::default();
        if let Some(p) = self.player.as_mut() {
            p.seek(0);
        }
        self.events_new_world();
    }

    /// Takes a freshly loaded scene (new, or the open one reloaded).
    fn take_loaded(&mut self, loaded: scenes::Loaded) {
        self.scene_name = loaded.name;
        self.scene = loaded.scene;
        self.kill = KillBox::of(&loaded.world);
        self.initial = loaded.world.clone();
        self.set_world(loaded.world);
    }

    /// Opens a scene from the picker, N / P or the command line.
    pub(super) fn open(&mut self, source: Source) {
        match scenes::load(&source) {
            Ok(loaded) => {
                self.inspector = None;
                self.inspector_open = false;
                self.take_loaded(loaded);
                self.fit_camera();
                let what = match &source {
                    Source::File(p) => p.display().to_string(),
                    Source::Builtin(n) => format!("{n} (built in)"),
                };
                self.toast(format!("opened {what}"), theme::OK);
                self.source = Some(source);
                self.load_error = None;
                self.watch();
                self.refresh_entries();
            }
            Err(e) => self.toast(e, theme::ERROR),
        }
    }

    /// Watches the open scene's file for hot reload (not in the web build,
    /// which has no files).
    pub(super) fn watch(&mut self) {
        self.watcher = match &self.source {
            Some(Source::File(p)) if cfg!(not(target_arch = "wasm32")) => {
                Some(Watcher::new(p, self.now))
            }
            _ => None,
        };
    }

    /// Re-reads the list of scenes (shipped, and the files in `scenes/` and
    /// beside the open scene).
    pub(super) fn refresh_entries(&mut self) {
        let dir = match &self.source {
            Some(Source::File(p)) => p.parent().map(Path::to_path_buf),
            _ => None,
        };
        self.entries = picker::entries(Path::new(scenes::SCENES_DIR), dir.as_deref());
    }

    /// The open scene's place in the list.
    pub(super) fn current_entry(&self) -> Option<usize> {
        self.source
            .as_ref()
            .and_then(|s| picker::index_of(&self.entries, s))
    }

    pub(super) fn cycle_scene(&mut self, delta: i32) {
        if self.player.is_some() {
            self.toast(
                "N / P are off while showing a replay".into(),
                theme::TEXT_DIM,
            );
            return;
        }
        self.refresh_entries();
        match picker::neighbour(self.entries.len(), self.current_entry(), delta) {
            Some(i) => self.open(self.entries[i].source.clone()),
            None => self.toast("no scenes to open".into(), theme::TEXT_DIM),
        }
    }

    pub(super) fn poll_reload(&mut self) {
        let Some(w) = self.watcher.as_mut() else {
            return;
        };
        if !w.changed(self.now) {
            return;
        }
        let path = w.path().to_path_buf();
        match scenes::load(&Source::File(path.clone())) {
            Ok(loaded) => {
                self.take_loaded(loaded);
                self.load_error = None;
                self.toast(format!("reloaded {}", path.display()), theme::OK);
            }
            Err(e) => self.load_error = Some(e),
        }
    }

    /// The settings the panel changed from the scene's, applied to the world
    /// as it is now (so recorded when recording).
    fn carry_tuning(&mut self, tuned: WorldSettings) {
        for t in Tuning::diff(self.world.settings(), &tuned) {
            self.act(Action::Tune(t));
        }
    }

    /// R: the scene from the start, with the settings panel's changes kept.
    pub(super) fn reset(&mut self) {
        let tuned = *self.world.settings();
        self.set_world(self.initial.clone());
        if self.player.is_none() {
            self.carry_tuning(tuned);
        }
        self.toast("reset".into(), theme::TEXT_DIM);
    }

    pub(super) fn stop_recording(&mut self) {
        if let Some(r) = self.recorder.take() {
            match r.finish() {
                Ok(p) => self.toast(format!("saved {}", p.display()), theme::OK),
                Err(e) => self.toast(e, theme::ERROR),
            }
        }
    }

    pub(super) fn toggle_recording(&mut self) {
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
        if !record::CAN_SAVE {
            self.toast(
                "the web build cannot save recordings (no files)".into(),
                theme::TEXT_DIM,
            );
            return;
        }
        // A recording replays from the scene file, so it starts from the
        // scene; the panel's settings are its first events.
        let tuned = *self.world.settings();
        self.set_world(self.initial.clone());
        let s = Session::start(&self.scene, &self.scene_name);
        self.toast(
            format!("scene restarted; recording to {}", s.path().display()),
            theme::ERROR,
        );
        self.recorder = Some(s);
        self.carry_tuning(tuned);
    }

    pub(super) fn scrub(&mut self, delta: i32) {
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
                // Contact events are the event log's view setting, not
                // part of the history: the snapshot takes the current one.
                let contact_events = self.world.contact_events();
                self.world = w.clone();
                self.world.set_contact_events(contact_events);
                self.evlog.jump(k, self.world.step_index());
                self.gesture = Gesture::Idle;
                self.history.rewind_to(self.world.step_index());
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
}
