//! Just enough JSON output for `inspect` and `--stats-json`, written by hand
//! (serde is only a dev-dependency).

use std::fmt::Write;

/// Builds one JSON object, with keys in insertion order.
pub struct Object {
    buf: String,
    indent: &'static str,
    empty: bool,
}

impl Object {
    /// A new object whose members are indented by `indent` (`""` for one
    /// line).
    pub fn new(indent: &'static str) -> Object {
        Object {
            buf: String::from("{"),
            indent,
            empty: true,
        }
    }

    fn key(&mut self, key: &str) {
        if !self.empty {
            self.buf.push(',');
        }
        self.empty = false;
        if !self.indent.is_empty() {
            self.buf.push('\n');
            self.buf.push_str(self.indent);
        }
        push_string(&mut self.buf, key);
        self.buf
            .push_str(if self.indent.is_empty() { ":" } else { ": " });
    }

    pub fn string(&mut self, key: &str, value: &str) -> &mut Object {
        self.key(key);
        push_string(&mut self.buf, value);
        self
    }

    pub fn uint(&mut self, key: &str, value: u64) -> &mut Object {
        self.key(key);
        let _ = write!(self.buf, "{value}");
        self
    }

    /// A finite number with up to 3 decimals (JSON has no NaN or infinity:
    /// those become `null`).
    pub fn float(&mut self, key: &str, value: f64) -> &mut Object {
        self.key(key);
        if value.is_finite() {
            let _ = write!(self.buf, "{}", (value * 1000.0).round() / 1000.0);
        } else {
            self.buf.push_str("null");
        }
        self
    }

    /// A nested object, written on one line.
    pub fn object(&mut self, key: &str, value: Object) -> &mut Object {
        self.key(key);
        self.buf.push_str(&value.finish());
        self
    }

    pub fn finish(mut self) -> String {
        if !self.indent.is_empty() && !self.empty {
            self.buf.push('\n');
        }
        self.buf.push('}');
        self.buf
    }
}

/// Appends `s` as a JSON string literal (RFC 8259): quotes, backslashes and
/// control characters are escaped; everything else is written as is (valid
/// UTF-8 already).
pub fn push_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{08}' => out.push_str("\\b"),
            '\u{0C}' => out.push_str("\\f"),
            c if c < '\u{20}' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_round_trip_through_serde_json() {
        for s in [
            "",
            "plain",
            "q\"b\\s",
            "\n\r\t\u{0}\u{1f}\u{7f}",
            "é😀",
            "\u{2028}",
        ] {
            let mut out = String::new();
            push_string(&mut out, s);
            let back: String = serde_json::from_str(&out).unwrap();
            assert_eq!(back, s, "{out}");
        }
    }

    #[test]
    fn objects() {
        let mut inner = Object::new("");
        inner.uint("a", 1).uint("b", 2);
        let mut o = Object::new("  ");
        o.string("k", "v")
            .float("f", 1.23456)
            .float("nan", f64::NAN)
            .object("o", inner);
        let text = o.finish();
        assert_eq!(
            text,
            "{\n  \"k\": \"v\",\n  \"f\": 1.235,\n  \"nan\": null,\n  \"o\": {\"a\":1,\"b\":2}\n}"
        );
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["o"]["b"], 2);
        assert_eq!(Object::new("  ").finish(), "{}");
    }
}
