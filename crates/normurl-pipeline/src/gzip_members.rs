//! gzip members one after another, and the zero padding after the last.
//!
//! flate2's `MultiGzDecoder` reads whatever follows a member as the next
//! member's header, so the zero bytes tape and block devices pad files
//! with were an error. `gzip -d` accepts them silently; so does
//! [`Members`]. Anything else after a member (zeros followed by more
//! bytes too, as for `gzip -d`) is still an error, after every byte of the
//! members before it.

use std::io::{self, BufRead, Read};

use flate2::bufread::GzDecoder;

use super::chunks::{is_bgzf, Marks};

/// The decompressed bytes of every gzip member of a stream.
pub(crate) struct Members<R> {
    state: State<R>,
    /// Where the ends of members go (see
    /// [`UnitEnds`](super::chunks::UnitEnds)), if anywhere.
    marks: Option<Marks>,
}

enum State<R> {
    /// Inside a member. (Boxed: a decoder is large, and each member
    /// allocates its inflate state anyway.)
    Member(Box<GzDecoder<R>>),
    /// After a member: another, padding, or the end.
    Between(R),
    Done,
}

impl<R: BufRead> Members<R> {
    pub(crate) fn new(inner: R) -> Self {
        Members {
            state: State::Member(Box::new(GzDecoder::new(inner))),
            marks: None,
        }
    }

    /// Reports the ends of members to `marks`.
    pub(crate) fn marking(mut self, marks: Marks) -> Self {
        self.marks = Some(marks);
        self
    }
}

impl<R: BufRead> Read for Members<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            match &mut self.state {
                State::Member(member) => {
                    let n = member.read(buf)?;
                    if let Some(marks) = &mut self.marks {
                        marks.out(&buf[..n]);
                    }
                    if n > 0 || buf.is_empty() {
                        return Ok(n);
                    }
                    if let Some(marks) = &mut self.marks {
                        // Before the next member's bytes go out.
                        let extra = member.header().and_then(|h| h.extra());
                        marks.unit_end(extra.is_some_and(is_bgzf));
                    }
                    if let State::Member(member) = std::mem::replace(&mut self.state, State::Done) {
                        self.state = State::Between(member.into_inner());
                    }
                }
                State::Between(inner) => {
                    // An error leaves the state as it is: reading again
                    // retries.
                    let another = next_member(inner)?;
                    if let State::Between(inner) = std::mem::replace(&mut self.state, State::Done) {
                        if another {
                            self.state = State::Member(Box::new(GzDecoder::new(inner)));
                        }
                    }
                }
                State::Done => return Ok(0),
            }
        }
    }
}

/// After a member: whether another member follows (false at the end of
/// the input, zero padding included).
pub(crate) fn next_member<R: BufRead>(inner: &mut R) -> io::Result<bool> {
    let mut padded = false;
    loop {
        let buf = match inner.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        let Some(&first) = buf.first() else {
            return Ok(false);
        };
        if first == 0x1f && !padded {
            return Ok(true);
        }
        let zeros = buf.iter().take_while(|&&b| b == 0).count();
        if zeros == 0 {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "trailing garbage after the last gzip member",
            ));
        }
        inner.consume(zeros);
        padded = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(bytes).unwrap();
        e.finish().unwrap()
    }

    fn decode(bytes: &[u8]) -> (Vec<u8>, Option<String>) {
        let mut out = Vec::new();
        // A tiny buffer, so that padding and headers span refills.
        let inner = io::BufReader::with_capacity(3, bytes);
        let err = Members::new(inner).read_to_end(&mut out).err();
        (out, err.map(|e| e.to_string()))
    }

    #[test]
    fn members_padding_and_garbage() {
        let a = gzip(b"one\n");
        let b = gzip(b"two\n");
        let ok = |bytes: Vec<u8>, text: &[u8]| assert_eq!(decode(&bytes), (text.to_vec(), None));
        ok([&a[..], &b].concat(), b"one\ntwo\n");
        ok([&a[..], &[0; 1000]].concat(), b"one\n");
        ok([&a[..], &b, &[0]].concat(), b"one\ntwo\n");
        let garbage = Some("trailing garbage after the last gzip member".to_string());
        for tail in [&b"x"[..], &[0, 0, b'x'], &[0, 0x1f]] {
            assert_eq!(
                decode(&[&a[..], tail].concat()),
                (b"one\n".to_vec(), garbage.clone())
            );
        }
        // A member after padding is garbage too, as for gzip -d.
        assert_eq!(
            decode(&[&a[..], &[0], &b].concat()),
            (b"one\n".to_vec(), garbage)
        );
        // A new member that is cut short is flate2's to report.
        let (out, err) = decode(&[&a[..], &[0x1f]].concat());
        assert!(out == b"one\n" && err.is_some());
    }
}
