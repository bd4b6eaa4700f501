//! The source layout, checked: the layers import only downwards, the module
//! graph has no cycles, only the sandbox touches macroquad, and no file grows
//! past [`MAX_LINES`].
//!
//! Imports are read from the source text: every `use` tree (grouped and
//! nested ones included) and every inline `crate::…`, `super::…` or
//! `minkowski::…` path, with comments and string literals removed, and the
//! unit tests (at the foot of a file, or in a `tests` module file) left out.
//! Each path resolves to the longest module prefix that is a file under `src/`.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Longest file allowed under `src/` (lines).
const MAX_LINES: usize = 600;

/// The layers, bottom first. A module may import its own layer and those
/// before it. `cli` and `sandbox` share the top layer with `main` and do not
/// import each other.
const LAYERS: &[&[&str]] = &[
    &["math"],
    &["shape"],
    &["geometry"],
    &["narrowphase"],
    &["broadphase"],
    &["dynamics"],
    &["world"],
    &["scene"],
    &["replay", "measure"],
    &["cli", "sandbox", "main"],
];

fn layer_of(module: &str) -> Option<usize> {
    let top = module.split("::").next().unwrap_or("");
    LAYERS.iter().position(|l| l.contains(&top))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// `src/a/b/mod.rs` → `a::b`; `src/a/c.rs` → `a::c`; `src/lib.rs` → ``.
fn module_of(path: &Path) -> String {
    let rel = path.strip_prefix("src").unwrap().with_extension("");
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let parts: Vec<&str> = parts
        .iter()
        .map(String::as_str)
        .filter(|p| *p != "mod" && *p != "lib")
        .collect();
    parts.join("::")
}

/// The text with comments, string and char literals blanked out.
fn strip(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < b.len() {
        if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            let mut depth = 0;
            while i < b.len() {
                if b[i..].starts_with(b"/*") {
                    depth += 1;
                    i += 2;
                } else if b[i..].starts_with(b"*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if b[i] == b'"' || (b[i] == b'r' && i + 1 < b.len() && b[i + 1] == b'"') {
            let raw = b[i] == b'r';
            i += if raw { 2 } else { 1 };
            while i < b.len() && b[i] != b'"' {
                if !raw && b[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else if b[i] == b'\'' && i + 2 < b.len() && (b[i + 2] == b'\'' || b[i + 1] == b'\\') {
            // A char literal ('x' or '\n'); lifetimes ('a) are left alone.
            i += 1;
            while i < b.len() && b[i] != b'\'' {
                if b[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    out
}

/// Expands a `use` tree such as `crate::a::{b, c::{d, e}}` into its paths.
fn expand_use(tree: &str, prefix: &str, out: &mut Vec<String>) {
    let tree = tree.trim();
    if let Some(open) = tree.find('{') {
        let head = tree[..open].trim_end_matches("::").trim();
        let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
        let base = join(prefix, head);
        let mut depth = 0;
        let mut start = 0;
        for (k, ch) in inner.char_indices() {
            match ch {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand_use(&inner[start..k], &base, out);
                    start = k + 1;
                }
                _ => {}
            }
        }
        expand_use(&inner[start..], &base, out);
    } else if !tree.is_empty() {
        let tree = tree.split(" as ").next().unwrap().trim();
        out.push(join(prefix, tree));
    }
}

fn join(a: &str, b: &str) -> String {
    match (a.is_empty(), b.is_empty()) {
        (true, _) => b.to_string(),
        (_, true) => a.to_string(),
        _ => format!("{a}::{b}"),
    }
}

/// Every path the file names: `use` trees and inline qualified paths.
fn paths_in(src: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = src;
    while let Some(k) = rest.find("use ") {
        let boundary = k == 0 || !rest.as_bytes()[k - 1].is_ascii_alphanumeric();
        let after = &rest[k + 4..];
        if boundary {
            if let Some(end) = after.find(';') {
                expand_use(after[..end].trim_start_matches("::"), "", &mut out);
            }
        }
        rest = after;
    }
    for root in ["crate::", "super::", "minkowski::"] {
        let mut at = 0;
        while let Some(k) = src[at..].find(root) {
            let start = at + k;
            let boundary = start == 0
                || !src.as_bytes()[start - 1].is_ascii_alphanumeric()
                    && src.as_bytes()[start - 1] != b'_';
            let end = src[start..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
                .map_or(src.len(), |e| start + e);
            if boundary {
                out.push(src[start..end].trim_end_matches(':').to_string());
            }
            at = end.max(start + 1);
        }
    }
    out
}

/// The module a path points into: the longest prefix that is a known
/// module, after resolving `crate`, `super`, `self` and `minkowski`.
/// (`super` in `a::b` — file `a/b.rs` or `a/b/mod.rs` alike — is `a`.)
fn resolve(path: &str, here: &str, modules: &BTreeSet<String>) -> Option<String> {
    let mut parts: Vec<&str> = path.split("::").filter(|p| !p.is_empty()).collect();
    let mut full: Vec<&str> = match parts.first().copied() {
        Some("crate") | Some("minkowski") => {
            parts.remove(0);
            Vec::new()
        }
        Some("super") | Some("self") => {
            let mut base: Vec<&str> = here.split("::").filter(|p| !p.is_empty()).collect();
            if parts[0] == "self" {
                parts.remove(0);
            }
            while parts.first() == Some(&"super") {
                parts.remove(0);
                base.pop();
            }
            base
        }
        _ => return None,
    };
    full.extend(parts);
    while !full.is_empty() {
        let m = full.join("::");
        if modules.contains(&m) {
            return Some(m);
        }
        full.pop();
    }
    None
}

struct Source {
    module: String,
    path: PathBuf,
    lines: usize,
    imports: BTreeSet<String>,
    macroquad: bool,
}

fn sources() -> Vec<Source> {
    let mut files = Vec::new();
    rust_files(Path::new("src"), &mut files);
    let texts = files
        .into_iter()
        .map(|p| {
            let text = fs::read_to_string(&p).unwrap();
            (p, text)
        })
        .collect();
    sources_from(texts)
}

fn sources_from(files: Vec<(PathBuf, String)>) -> Vec<Source> {
    let modules: BTreeSet<String> = files.iter().map(|(p, _)| module_of(p)).collect();
    files
        .into_iter()
        .map(|(path, text)| {
            let module = module_of(&path);
            let mut stripped = strip(&text);
            // Unit tests, at the foot of a file or in a `tests` module file of
            // their own, may reach anywhere in the crate.
            if let Some(k) = stripped.find("#[cfg(test)]\nmod tests") {
                stripped.truncate(k);
            }
            if module.ends_with("::tests") || module.contains("::tests::") {
                stripped.clear();
            }
            let imports = paths_in(&stripped)
                .iter()
                .filter_map(|p| resolve(p, &module, &modules))
                .filter(|t| *t != module && !module.starts_with(&format!("{t}::")))
                .collect();
            Source {
                module,
                path,
                lines: text.lines().count(),
                imports,
                macroquad: stripped.contains("macroquad"),
            }
        })
        .collect()
}

fn upward_imports(sources: &[Source]) -> Vec<String> {
    let mut bad = Vec::new();
    for s in sources {
        let Some(mine) = layer_of(&s.module) else {
            continue;
        };
        for t in &s.imports {
            let Some(theirs) = layer_of(t) else { continue };
            let sibling_tops = LAYERS[mine].len() > 1
                && theirs == mine
                && t.split("::").next() != s.module.split("::").next();
            if theirs > mine || sibling_tops {
                bad.push(format!("{} imports {t}", s.module));
            }
        }
    }
    bad
}

#[test]
fn layers_import_only_downwards() {
    let bad = upward_imports(&sources());
    assert!(bad.is_empty(), "upward imports:\n{}", bad.join("\n"));
}

fn cycles(sources: &[Source]) -> Vec<String> {
    let graph: BTreeMap<&str, Vec<&str>> = sources
        .iter()
        .map(|s| {
            (
                s.module.as_str(),
                s.imports.iter().map(String::as_str).collect(),
            )
        })
        .collect();
    // Depth-first search with colours; a grey target closes a cycle.
    #[derive(Clone, Copy, PartialEq)]
    enum Colour {
        White,
        Grey,
        Black,
    }
    let mut colour: BTreeMap<&str, Colour> = graph.keys().map(|&k| (k, Colour::White)).collect();
    let mut cycles = Vec::new();
    fn visit<'a>(
        v: &'a str,
        graph: &BTreeMap<&'a str, Vec<&'a str>>,
        colour: &mut BTreeMap<&'a str, Colour>,
        stack: &mut Vec<&'a str>,
        cycles: &mut Vec<String>,
    ) {
        colour.insert(v, Colour::Grey);
        stack.push(v);
        for &w in graph.get(v).into_iter().flatten() {
            match colour.get(w).copied() {
                Some(Colour::White) => visit(w, graph, colour, stack, cycles),
                Some(Colour::Grey) => {
                    let from = stack.iter().position(|&x| x == w).unwrap();
                    cycles.push(format!("{} -> {w}", stack[from..].join(" -> ")));
                }
                _ => {}
            }
        }
        stack.pop();
        colour.insert(v, Colour::Black);
    }
    let keys: Vec<&str> = graph.keys().copied().collect();
    for k in keys {
        if colour[k] == Colour::White {
            visit(k, &graph, &mut colour, &mut Vec::new(), &mut cycles);
        }
    }
    cycles
}

#[test]
fn the_module_graph_has_no_cycles() {
    let cycles = cycles(&sources());
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}

#[test]
fn only_the_sandbox_uses_macroquad() {
    let users: Vec<String> = sources()
        .into_iter()
        .filter(|s| s.macroquad && !(s.module.starts_with("sandbox") || s.module == "main"))
        .map(|s| s.path.display().to_string())
        .collect();
    assert!(users.is_empty(), "macroquad outside the sandbox: {users:?}");
}

#[test]
fn no_file_is_too_long() {
    let long: Vec<String> = sources()
        .into_iter()
        .filter(|s| s.lines > MAX_LINES)
        .map(|s| format!("{} ({} lines)", s.path.display(), s.lines))
        .collect();
    assert!(long.is_empty(), "files over {MAX_LINES} lines: {long:?}");
}

/// The checker itself: a grouped import and an inline path are both seen.
#[test]
fn grouped_and_inline_imports_are_found() {
    let src = strip(
        "use crate::{math::Vec2, shape::{Polygon, Shape as S}};\n\
         // use crate::world::World;\n\
         fn f() { let _ = super::sibling::thing(); let s = \"crate::scene\"; }",
    );
    let paths = paths_in(&src);
    assert!(
        paths.contains(&"crate::math::Vec2".to_string()),
        "{paths:?}"
    );
    assert!(
        paths.contains(&"crate::shape::Shape".to_string()),
        "{paths:?}"
    );
    assert!(
        paths.contains(&"super::sibling::thing".to_string()),
        "{paths:?}"
    );
    assert!(
        !paths
            .iter()
            .any(|p| p.contains("world") || p.contains("scene")),
        "{paths:?}"
    );
}

/// The checks themselves: a cycle through `super` and an upward import
/// through a grouped `use` are caught.
#[test]
fn the_checks_catch_a_cycle_and_an_upward_import() {
    let file = |p: &str, t: &str| (PathBuf::from(p), t.to_string());
    let planted = sources_from(vec![
        file("src/lib.rs", "pub mod narrowphase; pub mod world;"),
        file("src/narrowphase/mod.rs", "mod a; mod b;"),
        file("src/narrowphase/a.rs", "fn f() { super::b::g() }"),
        file("src/narrowphase/b.rs", "use super::a;"),
        file("src/world/mod.rs", "use crate::narrowphase;"),
        file("src/math/mod.rs", "use crate::{shape, world::World};"),
    ]);
    let found = cycles(&planted);
    assert!(
        found
            .iter()
            .any(|c| c.contains("narrowphase::a") && c.contains("narrowphase::b")),
        "{found:?}"
    );
    let up = upward_imports(&planted);
    assert_eq!(up, vec!["math imports world".to_string()]);
}
