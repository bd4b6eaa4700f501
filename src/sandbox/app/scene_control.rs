//! Opening, cycling, hot reloading and resetting scenes, and recording.

use super::*;

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
        self.acc = 0.0;
        // The HUD's averages belong to the old world.
        self.stats = Stats::default();
        if let Some(p) = self.player.as_mut() {
            p.seek(0);
        }
    }

    pub(super) fn open_scene(&mut self, path: PathBuf) {
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

    pub(super) fn cycle_scene(&mut self, delta: i32) {
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

    pub(super) fn poll_reload(&mut self) {
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

    pub(super) fn reset(&mut self) {
        self.set_world(self.initial.clone());
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
        // A recording replays from the scene file, so it starts from the scene.
        self.set_world(self.initial.clone());
        let s = Session::start(&self.scene, &self.scene_name);
        self.toast(
            format!("scene restarted; recording to {}", s.path().display()),
            theme::ERROR,
        );
        self.recorder = Some(s);
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
}
