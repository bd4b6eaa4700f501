//! A tiny JSON writer: enough for flat objects of strings, numbers and arrays.
//! Strings are escaped per RFC 8259; non-finite floats are written as `null`.

use std::fmt::Write;

/// A JSON string literal.
pub fn string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A JSON number from an `f32` (shortest round-trip form), or `null`.
pub fn f32(x: f32) -> String {
    if x.is_finite() {
        format!("{x}")
    } else {
        "null".to_string()
    }
}

/// A JSON number from an `f64`, or `null`.
pub fn f64(x: f64) -> String {
    if x.is_finite() {
        format!("{x}")
    } else {
        "null".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes() {
        assert_eq!(string("a\"b\\c\nd\u{1}é"), "\"a\\\"b\\\\c\\nd\\u0001é\"");
        assert_eq!(f32(f32::NAN), "null");
        assert_eq!(f32(f32::INFINITY), "null");
        assert_eq!(f32(0.5), "0.5");
        assert_eq!(f32(-0.0), "-0");
        assert_eq!(f64(1e-7), "0.0000001");
    }
}
