//! The help overlay (H or F1): every control, grouped. The same table is the
//! one in `docs/sandbox.md`; a unit test keeps them in step.

use super::theme;
use macroquad::prelude::*;

/// Groups of (keys, what they do).
pub const CONTROLS: &[(&str, &[(&str, &str)])] = &[
    (
        "Simulation",
        &[
            ("Space", "pause / resume"),
            ("S", "step once (pauses)"),
            ("[  ]", "slower / faster time scale (1/16 .. 4x)"),
            ("R", "reset the scene"),
            ("N  P", "next / previous scene (the picker's list)"),
            ("Left  Right", "while paused: rewind / forward in time"),
            ("F5", "start / stop recording (into recordings/)"),
            ("F12", "save a screenshot PNG (into screenshots/)"),
        ],
    ),
    (
        "Panels",
        &[
            ("F2", "settings: gravity, substeps, sleep, new bodies"),
            ("F3", "plots: energy, momentum, contacts, step time"),
            ("F4", "scene picker: shipped scenes and scenes/*.ron"),
            ("F6", "event log: contacts, hits, sensors; hover to locate"),
        ],
    ),
    (
        "Tools (left mouse)",
        &[
            ("1", "drag a body (soft mouse spring)"),
            ("2 3 4 5 6", "spawn box, circle, polygon, ellipse, capsule"),
            ("7", "throw: press, drag, release to launch"),
            ("8", "delete the joint or body under the cursor"),
            ("9", "inspect: click A then B (GJK/EPA)"),
            ("0", "pin a body to the world"),
            (
                "J  L  K  W",
                "hinge, rope, spring, weld: press on A, release on B",
            ),
            ("T", "turn a hinge's motor on / off"),
            ("Y", "laser: press and drag (ray casts, 8 bounces)"),
            ("X", "boom: click for an explosion"),
            ("Esc", "cancel / clear selection / close panels"),
            ("Toolbar click", "choose a tool or toggle an overlay"),
        ],
    ),
    (
        "Camera",
        &[
            ("Right / middle drag", "pan"),
            ("Wheel", "zoom around the cursor"),
            ("F", "fit the scene"),
        ],
    ),
    (
        "Overlays",
        &[
            ("A", "fat AABBs"),
            ("B", "broadphase pairs"),
            ("C", "contacts: points, normals, penetration x20"),
            ("V", "velocity vectors"),
            ("M", "centres of mass"),
            ("Z", "sleep state"),
            ("G", "joint reaction forces"),
            ("O", "all overlays on / off"),
        ],
    ),
    (
        "Inspector (open)",
        &[
            ("Left  Right", "previous / next GJK or EPA iteration"),
            ("Home  End", "first / last iteration"),
            ("Shift+Left/Right", "rewind / forward in time"),
            ("I", "close (or reopen) the inspector"),
        ],
    ),
    (
        "Window",
        &[
            ("H  F1", "this help"),
            ("Tab", "hide / show HUD and toolbar"),
        ],
    ),
];

/// Draws the help overlay centred on the screen.
pub fn draw(screen: Vec2) {
    draw_rectangle(
        0.0,
        0.0,
        screen.x,
        screen.y,
        Color::new(0.0, 0.0, 0.0, 0.45),
    );
    let two = screen.x >= 900.0;
    let col_w = if two {
        ((screen.x - 60.0) * 0.5).min(580.0)
    } else {
        (screen.x - 40.0).min(580.0)
    };
    let cols = if two { 2 } else { 1 };
    let key_w = (col_w * 0.32).max(150.0);
    // Split the groups into columns of roughly equal height.
    let heights: Vec<usize> = CONTROLS.iter().map(|(_, rows)| rows.len() + 2).collect();
    let total: usize = heights.iter().sum();
    let mut split = CONTROLS.len();
    if two {
        let mut acc = 0;
        for (i, h) in heights.iter().enumerate() {
            if acc * 2 >= total {
                split = i;
                break;
            }
            acc += h;
        }
    }
    let rows_in = |range: std::ops::Range<usize>| heights[range].iter().sum::<usize>();
    let h_rows = rows_in(0..split).max(rows_in(split..CONTROLS.len()));
    let w = cols as f32 * col_w + 40.0;
    let h = h_rows as f32 * theme::LINE + 70.0;
    let x0 = ((screen.x - w) * 0.5).max(0.0);
    let y0 = ((screen.y - h) * 0.5).max(0.0);
    draw_rectangle(x0, y0, w, h, Color::new(0.035, 0.04, 0.055, 0.96));
    draw_rectangle_lines(x0, y0, w, h, 1.0, theme::PANEL_BORDER);
    theme::text(
        "Minkowski sandbox - controls",
        x0 + 20.0,
        y0 + 14.0,
        22.0,
        theme::ACCENT,
    );
    theme::text(
        "H / F1 / Esc closes",
        x0 + w - 20.0 - theme::text_width("H / F1 / Esc closes", theme::FONT_SMALL),
        y0 + 18.0,
        theme::FONT_SMALL,
        theme::TEXT_DIM,
    );
    for (col, range) in [(0, 0..split), (1, split..CONTROLS.len())] {
        let x = x0 + 20.0 + col as f32 * col_w;
        let mut y = y0 + 50.0;
        for (title, rows) in &CONTROLS[range] {
            theme::text(title, x, y, theme::FONT, theme::ACCENT);
            y += theme::LINE;
            for (keys, what) in rows.iter() {
                theme::text(keys, x + 8.0, y, theme::FONT_SMALL, theme::TEXT);
                theme::text(what, x + key_w, y, theme::FONT_SMALL, theme::TEXT_DIM);
                y += theme::LINE;
            }
            y += theme::LINE;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every control in the help overlay is in docs/sandbox.md's controls table.
    #[test]
    fn docs_list_every_control() {
        let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/sandbox.md"))
            .expect("docs/sandbox.md");
        for (_, rows) in CONTROLS {
            for (keys, what) in rows.iter() {
                let row = format!("| {} | {} |", keys.replace("  ", " / "), what);
                assert!(doc.contains(&row), "docs/sandbox.md lacks the row `{row}`");
            }
        }
    }
}
