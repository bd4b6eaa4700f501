//! Scene errors: each names the file, then the line:column (syntax) or the body
//! or generator index and field (meaning), then what is wrong.

use thiserror::Error;

/// A problem with one field of a body or generator: which field and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("field `{field}`: {message}")]
pub struct FieldError {
    /// The field, as named in the scene file (`pos`, `shape.hx`, `size`, …).
    pub field: String,
    /// What is wrong with it.
    pub message: String,
}

impl FieldError {
    pub(crate) fn new(field: impl Into<String>, message: impl Into<String>) -> FieldError {
        FieldError {
            field: field.into(),
            message: message.into(),
        }
    }
}

/// Why a scene could not be loaded or built. `Display` gives one line that
/// starts with the origin (usually the file path), for example
/// `scenes/x.ron:3:14: Unexpected field named `colour` …` or
/// `scenes/x.ron: body 3, field `shape`: vertex 2 is reflex: the polygon is concave there`.
#[derive(Debug, Error)]
pub enum SceneError {
    /// The file could not be read.
    #[error("{origin}: cannot read the scene: {source}")]
    Io {
        /// The file.
        origin: String,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The text is not a valid scene: bad syntax, an unknown field or variant,
    /// a missing field or a value of the wrong type.
    #[error("{origin}:{line}:{col}: {message}")]
    Syntax {
        /// The file.
        origin: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        col: usize,
        /// What the parser expected or found.
        message: String,
    },
    /// A top-level setting is out of range (`dt`, `gravity`, `substeps`).
    #[error("{origin}: field `{field}`: {message}")]
    Setting {
        /// The file.
        origin: String,
        /// The field.
        field: String,
        /// What is wrong.
        message: String,
    },
    /// An explicit body is invalid.
    #[error("{origin}: body {index}, field `{field}`: {message}")]
    Body {
        /// The file.
        origin: String,
        /// Index in `bodies` (also the body's id).
        index: usize,
        /// The field, e.g. `shape` or `shape.r` or `vel`.
        field: String,
        /// What is wrong.
        message: String,
    },
    /// A generator is invalid.
    #[error("{origin}: generator {index} ({kind}), field `{field}`: {message}")]
    Generator {
        /// The file.
        origin: String,
        /// Index in `generators`.
        index: usize,
        /// The generator's variant name.
        kind: &'static str,
        /// The field.
        field: String,
        /// What is wrong.
        message: String,
    },
    /// A joint is invalid: an unknown body, a body jointed to itself, two
    /// ends that cannot move, or a bad number.
    #[error("{origin}: joint {index} ({kind}), field `{field}`: {message}")]
    Joint {
        /// The file.
        origin: String,
        /// Index in `joints` (the generators' joints follow the file's).
        index: usize,
        /// The joint's kind as written.
        kind: &'static str,
        /// The field.
        field: String,
        /// What is wrong.
        message: String,
    },
    /// A cue of the scene's `script` is invalid.
    #[error("{origin}: script cue {index} ({kind}), field `{field}`: {message}")]
    Cue {
        /// The file.
        origin: String,
        /// Index in `script`.
        index: usize,
        /// The action's kind as written.
        kind: &'static str,
        /// The field.
        field: String,
        /// What is wrong.
        message: String,
    },
    /// More bodies (explicit and generated) than [`super::MAX_BODIES`].
    #[error("{origin}: the scene makes {count} bodies (explicit and generated); at most {max} are allowed")]
    TooManyBodies {
        /// The file.
        origin: String,
        /// Bodies the scene would make (saturating).
        count: u64,
        /// The cap.
        max: usize,
    },
    /// A `--set KEY=VALUE` override could not be applied.
    #[error("{origin}: --set {key}: {message}")]
    Override {
        /// The file.
        origin: String,
        /// The key.
        key: String,
        /// What is wrong.
        message: String,
    },
    /// The bodies start piled on one another beyond what a step can handle
    /// ([`crate::world::MAX_START_OVERLAPS`] overlapping pairs).
    #[error(
        "{origin}: the bodies start piled on one another: more than {max} overlapping pairs; \
         about {crowd} bodies overlap around ({x:.2}, {y:.2}) (body {body}); \
         spread them out (a generator's `spacing`, or fewer bodies)"
    )]
    Crowd {
        /// The file.
        origin: String,
        /// The limit on overlapping pairs.
        max: usize,
        /// Bodies overlapping the worst one, itself included.
        crowd: usize,
        /// The worst body's id.
        body: u32,
        /// Its centre (m).
        x: f32,
        /// Its centre (m).
        y: f32,
    },
}

impl SceneError {
    /// Converts a RON parse error into [`SceneError::Syntax`].
    pub(crate) fn from_ron(origin: &str, text: &str, e: ron::error::SpannedError) -> SceneError {
        SceneError::Syntax {
            origin: origin.to_string(),
            line: e.position.line,
            col: e.position.col,
            message: ron_message(text, &e),
        }
    }

    pub(crate) fn body(origin: &str, index: usize, e: FieldError) -> SceneError {
        SceneError::Body {
            origin: origin.to_string(),
            index,
            field: e.field,
            message: e.message,
        }
    }
}

/// The parser's message, saying so when the error sits at the end of the text
/// (a truncated file).
pub(crate) fn ron_message(text: &str, e: &ron::error::SpannedError) -> String {
    let msg = e.code.to_string();
    let rest = text
        .split_inclusive('\n')
        .skip(e.position.line.saturating_sub(1))
        .enumerate()
        .map(|(i, line)| {
            if i == 0 {
                line.chars()
                    .skip(e.position.col.saturating_sub(1))
                    .collect::<String>()
            } else {
                line.to_string()
            }
        });
    let mut only_blank = true;
    for line in rest {
        let code = line.split("//").next().unwrap_or("");
        if !code.trim().is_empty() {
            only_blank = false;
            break;
        }
    }
    if only_blank {
        format!("unexpected end of file (truncated?): {msg}")
    } else {
        msg
    }
}
