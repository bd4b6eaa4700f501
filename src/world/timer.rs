//! Wall-clock stage timing for the HUD and benchmarks. Never read by the
//! simulation itself.
//!
//! Native builds use `std::time::Instant`. On wasm32 `Instant::now()`
//! panics, so the stopwatch reads the clock handed to [`set_wall_clock`]
//! (the sandbox's web build hands it the browser's) and reports zeros until
//! one is set.

/// Sets the clock (seconds, any origin) the stage timers read in a wasm32
/// build, where `std::time::Instant` is unavailable. The first call wins;
/// native builds ignore it and use `Instant`.
pub fn set_wall_clock(now: fn() -> f64) {
    #[cfg(target_arch = "wasm32")]
    {
        let _ = imp::CLOCK.set(now);
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = now;
}

#[cfg(not(target_arch = "wasm32"))]
mod imp {
    use std::time::Instant;

    pub struct Stopwatch(Instant);

    impl Stopwatch {
        pub fn start() -> Self {
            Stopwatch(Instant::now())
        }
        /// Milliseconds since the last lap (or start), and restarts.
        pub fn lap(&mut self) -> f64 {
            let now = Instant::now();
            let ms = (now - self.0).as_secs_f64() * 1e3;
            self.0 = now;
            ms
        }
        pub fn elapsed_ms(&self) -> f64 {
            self.0.elapsed().as_secs_f64() * 1e3
        }
    }
}

#[cfg(target_arch = "wasm32")]
mod imp {
    use std::sync::OnceLock;

    pub static CLOCK: OnceLock<fn() -> f64> = OnceLock::new();

    fn now_ms() -> f64 {
        CLOCK.get().map_or(0.0, |f| f() * 1e3)
    }

    pub struct Stopwatch(f64);

    impl Stopwatch {
        pub fn start() -> Self {
            Stopwatch(now_ms())
        }
        /// Milliseconds since the last lap (or start), and restarts.
        pub fn lap(&mut self) -> f64 {
            let now = now_ms();
            let ms = (now - self.0).max(0.0);
            self.0 = now;
            ms
        }
        pub fn elapsed_ms(&self) -> f64 {
            (now_ms() - self.0).max(0.0)
        }
    }
}

pub(crate) use imp::Stopwatch;

/// Wall-clock time of the parts of the solver stage in the last step (ms),
/// the split of Box2D v3's `b2Profile` (prepare, warm start, solve, relax,
/// restitution, store) as this solver's passes fall. For display only.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SolverTimings {
    /// Solver bodies, the contacts' constraints packed into bundles, the
    /// joints prepared, and the plans of the passes.
    pub prepare: f64,
    /// Every substep's gravity, anchor update and warm start.
    pub warm_start: f64,
    /// Every substep's velocity iterations.
    pub velocity: f64,
    /// Every substep's position integration and position pass.
    pub positions: f64,
    /// Restitution, the impulses stored for the next step, and the new
    /// state written back.
    pub finish: f64,
    /// Continuous collision of fast bodies.
    pub continuous: f64,
}
