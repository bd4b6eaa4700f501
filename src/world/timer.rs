//! Wall-clock stage timing for the HUD and benchmarks. Never read by the
//! simulation itself. On wasm32 (no `Instant`) it reports zeros.

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
    pub struct Stopwatch;

    impl Stopwatch {
        pub fn start() -> Self {
            Stopwatch
        }
        pub fn lap(&mut self) -> f64 {
            0.0
        }
        pub fn elapsed_ms(&self) -> f64 {
            0.0
        }
    }
}

pub(crate) use imp::Stopwatch;
