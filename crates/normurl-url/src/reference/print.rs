//! alwinb's *Printing* section: a [`Reference`] to its URL-string.

use std::fmt::{self, Write};

use super::{Order, Reference};

impl fmt::Display for Reference {
    /// Prints the reference's components with their sigils. Two guards
    /// keep the string from reading back as something else: a path whose
    /// first dir is empty and that follows no authority nor drive starts
    /// with `./` (else `//` would read as an authority), and a first
    /// segment that looks like a scheme has its `:` encoded (`%3A`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(s) = &self.scheme {
            write!(f, "{s}:")?;
        }
        if let Some(a) = &self.authority {
            f.write_str("//")?;
            if let Some(u) = &a.username {
                f.write_str(u)?;
                if let Some(p) = &a.password {
                    write!(f, ":{p}")?;
                }
                f.write_char('@')?;
            }
            f.write_str(&a.host)?;
            if let Some(p) = &a.port {
                write!(f, ":{p}")?;
            }
        }
        if let Some(d) = &self.drive {
            write!(f, "/{d}")?;
        }
        if self.root {
            f.write_char('/')?;
        }
        let order = self.order();
        let guard_empty = self.authority.is_none()
            && self.drive.is_none()
            && self.dirs.first().is_some_and(|d| d.is_empty());
        if guard_empty {
            f.write_str("./")?;
        }
        for (i, d) in self.dirs.iter().enumerate() {
            let guard = i == 0 && order == Order::Dir;
            write_segment(f, d, guard)?;
            f.write_char('/')?;
        }
        if let Some(file) = &self.file {
            write_segment(f, file, order == Order::File)?;
        }
        if let Some(q) = &self.query {
            write!(f, "?{q}")?;
        }
        if let Some(h) = &self.fragment {
            write!(f, "#{h}")?;
        }
        Ok(())
    }
}

/// Writes a path segment; with `guard`, a segment that would read as a
/// scheme (spec-url's pattern: a letter, then letters, `+`, `-`, `.`, then
/// `:`) has that `:` written as `%3A`.
fn write_segment(f: &mut fmt::Formatter<'_>, seg: &str, guard: bool) -> fmt::Result {
    if guard {
        let b = seg.as_bytes();
        let name = b
            .iter()
            .skip(1)
            .take_while(|c| c.is_ascii_alphabetic() || matches!(c, b'+' | b'-' | b'.'))
            .count();
        if b.first().is_some_and(u8::is_ascii_alphabetic) && b.get(name + 1) == Some(&b':') {
            return write!(f, "{}%3A{}", &seg[..name + 1], &seg[name + 2..]);
        }
    }
    f.write_str(seg)
}
