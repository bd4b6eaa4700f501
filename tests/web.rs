//! The web build in a browser: serves `web/` (the page, macroquad's loader
//! and `web/minkowski.wasm` from `web/build.sh`) on a loopback port, has
//! headless Chromium load it with software WebGL (SwiftShader) and take a
//! screenshot, and checks that the sandbox drew: the page fetched the wasm,
//! and the picture holds the default scene's awake bodies (their blue),
//! its static walls (grey) and the HUD's text, in many colours.
//!
//! Needs `web/minkowski.wasm` and Chromium. Without them the test fails when
//! `CI` is set (`.ci/run` installs Chromium and builds the wasm first) and
//! is skipped otherwise.

use macroquad::prelude::{Image, ImageFormat};
use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

fn web_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("web")
}

fn chromium() -> Option<&'static str> {
    ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|c| {
            Command::new(c)
                .arg("--version")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
        })
}

/// Answers one GET with a file from `dir` (or 404), and notes the path.
fn serve(stream: TcpStream, dir: &Path, log: &Mutex<Vec<String>>) {
    let mut reader = BufReader::new(&stream);
    let mut line = String::new();
    if reader.read_line(&mut line).is_err() {
        return;
    }
    // Drain the headers.
    let mut h = String::new();
    while reader.read_line(&mut h).is_ok_and(|n| n > 2) {
        h.clear();
    }
    let path = line.split_whitespace().nth(1).unwrap_or("/");
    let path = path.split('?').next().unwrap_or("/");
    let name = if path == "/" {
        "index.html"
    } else {
        path.trim_start_matches('/')
    };
    log.lock().unwrap().push(name.to_string());
    let mut out = &stream;
    // Only plain file names in web/: nothing outside it is served.
    let body = (!name.contains('/') && !name.contains(".."))
        .then(|| std::fs::read(dir.join(name)).ok())
        .flatten();
    let _ = match body {
        Some(body) => {
            let kind = match name.rsplit('.').next() {
                Some("html") => "text/html; charset=utf-8",
                Some("js") => "text/javascript",
                // compileStreaming insists on this type.
                Some("wasm") => "application/wasm",
                _ => "application/octet-stream",
            };
            write!(
                out,
                "HTTP/1.1 200 OK\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            )
            .and_then(|()| out.write_all(&body))
        }
        None => out
            .write_all(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"),
    };
}

/// Pixels for which `f(r, g, b)` holds.
fn count(img: &Image, f: impl Fn(i32, i32, i32) -> bool) -> usize {
    img.bytes
        .chunks_exact(4)
        .filter(|p| f(p[0] as i32, p[1] as i32, p[2] as i32))
        .count()
}

#[test]
fn the_web_build_draws_the_sandbox_in_a_browser() {
    let wasm = web_dir().join("minkowski.wasm");
    let browser = chromium();
    let missing = match (wasm.is_file(), browser) {
        (false, _) => Some("web/minkowski.wasm is missing (run web/build.sh)"),
        (_, None) => Some("chromium is missing"),
        _ => None,
    };
    if let Some(why) = missing {
        if std::env::var_os("CI").is_some() {
            panic!("{why}; .ci/run should install chromium and build the web build");
        }
        eprintln!("notice: {why}; skipping the web build test");
        return;
    }
    let browser = browser.unwrap();

    let listener = TcpListener::bind("127.0.0.1:0").expect("bind a loopback port");
    let port = listener.local_addr().unwrap().port();
    let log = Arc::new(Mutex::new(Vec::new()));
    {
        let log = Arc::clone(&log);
        let dir = web_dir();
        // Detached: the test process ends it.
        std::thread::spawn(move || {
            for s in listener.incoming().flatten() {
                serve(s, &dir, &log);
            }
        });
    }

    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("web.png");
    let _ = std::fs::remove_file(&out);
    let profile = Path::new(env!("CARGO_TARGET_TMPDIR")).join("chromium-profile");
    let started = Instant::now();
    let mut child = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            // WebGL without a GPU: ANGLE on SwiftShader.
            "--use-gl=angle",
            "--use-angle=swiftshader",
            "--enable-unsafe-swiftshader",
            "--no-first-run",
            "--window-size=1280,720",
            // Five seconds of page time (virtual: as fast as it computes).
            "--virtual-time-budget=5000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--screenshot={}", out.display()))
        .arg(format!("http://127.0.0.1:{port}/"))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start chromium");
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if started.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            panic!("chromium took more than 120 s");
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let stderr = child
        .stderr
        .take()
        .map(|mut e| {
            let mut s = String::new();
            let _ = std::io::Read::read_to_string(&mut e, &mut s);
            s
        })
        .unwrap_or_default();
    eprintln!(
        "chromium: {status} in {:.1} s; served {:?}",
        started.elapsed().as_secs_f64(),
        log.lock().unwrap()
    );
    assert!(status.success(), "chromium failed: {stderr}");
    let served = log.lock().unwrap().clone();
    for f in ["index.html", "mq_js_bundle.js", "minkowski.wasm"] {
        assert!(
            served.iter().any(|s| s == f),
            "the page never asked for {f}: {served:?}"
        );
    }

    let png = std::fs::read(&out).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
    let img = Image::from_file_with_format(&png, Some(ImageFormat::Png)).expect("decode PNG");
    assert_eq!((img.width, img.height), (1280, 720), "screenshot size");
    let n = img.width as usize * img.height as usize;
    // Awake bodies are blue (theme::AWAKE, filled darker); the walls are
    // theme::STATIC's grey, (107, 115, 128) outlined and darker filled.
    let awake = count(&img, |r, g, b| b >= 100 && b - r >= 50 && g > r);
    let walls = count(&img, |r, g, b| {
        (60..=140).contains(&r) && (g - r).abs() <= 12 && (b - g) >= 0 && (b - g) <= 20
    });
    let colours: BTreeSet<[u8; 3]> = img
        .bytes
        .chunks_exact(4)
        .map(|p| [p[0], p[1], p[2]])
        .collect();
    eprintln!(
        "awake-blue pixels {awake} ({:.2} %), wall-grey {walls}, {} colours",
        awake as f64 * 100.0 / n as f64,
        colours.len()
    );
    // A blank or failed page is one colour (or a few); the sandbox's
    // default scene draws hundreds of blue bodies and the HUD's text.
    assert!(awake > n / 200, "too few awake-body pixels: {awake}");
    assert!(walls > 1000, "too few wall pixels: {walls}");
    assert!(colours.len() > 200, "only {} colours", colours.len());
}
