//! Hot reload: polls the scene file's modification time about once a second.
//! A change reloads the scene; an invalid edit leaves the old world running and
//! the error on screen (see `app.rs`).

use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// Seconds between polls.
pub const POLL_SECONDS: f64 = 1.0;

/// Watches one file by polling.
pub struct Watcher {
    path: PathBuf,
    stamp: Option<SystemTime>,
    last_poll: f64,
}

impl Watcher {
    /// Starts watching `path`, taking its current modification time as seen.
    pub fn new(path: &Path, now: f64) -> Watcher {
        Watcher {
            path: path.to_path_buf(),
            stamp: modified(path),
            last_poll: now,
        }
    }

    /// The watched file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// `true` once per change of the file's modification time (polled at most
    /// every [`POLL_SECONDS`]; `now` is in seconds).
    pub fn changed(&mut self, now: f64) -> bool {
        if now - self.last_poll < POLL_SECONDS {
            return false;
        }
        self.last_poll = now;
        let stamp = modified(&self.path);
        if stamp.is_some() && stamp != self.stamp {
            self.stamp = stamp;
            return true;
        }
        false
    }
}

fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sees_a_change_once() {
        let dir = std::env::temp_dir().join(format!("mk-hot-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("s.ron");
        std::fs::write(&p, "a").unwrap();
        let mut w = Watcher::new(&p, 0.0);
        assert!(!w.changed(2.0));
        let later = SystemTime::now() + std::time::Duration::from_secs(5);
        std::fs::File::options()
            .write(true)
            .open(&p)
            .unwrap()
            .set_modified(later)
            .unwrap();
        assert!(!w.changed(2.5), "polled too soon");
        assert!(w.changed(3.5));
        assert!(!w.changed(5.0));
        std::fs::remove_dir_all(&dir).ok();
    }
}
