//! Decompression on a thread of its own, ahead of the workers.
//!
//! Workers take turns at the reader (see `order.rs`), so a decompressor
//! read under the reader's lock runs on one core at a time while the
//! others wait for their next batch: a gzip input took several times as
//! long as the same file uncompressed (docs/performance-history.md).
//! [`Ahead`] runs the decompressor on a
//! thread that fills chunks while the workers transform, and the reader
//! only copies them out.
//!
//! The decompressor is read exactly as the reader would read it, in calls
//! whose size does not depend on the chunks (its reads are cut to a fixed
//! size below), so the bytes handed out before an error are the same as
//! without the thread: output before an error does not depend on `-j`.

use std::io::{self, Read};
use std::panic::{catch_unwind, AssertUnwindSafe};

use crossbeam_channel::{bounded, Receiver, Sender, TryRecvError};

/// Decompressed bytes per chunk sent to the reader.
const CHUNK: usize = 256 << 10;

/// Chunks decoded ahead of the reader: 2 MiB, enough to cover a batch
/// (1 MiB by default) while the workers are busy, and little memory.
const AHEAD: usize = 8;

/// What the decoding thread sends.
enum Msg {
    /// A chunk, with how many of its bytes are data.
    Data(Vec<u8>, usize),
    /// The decompressor's error, after the data before it.
    Failed(io::Error),
    /// The end of the input.
    End,
}

/// The reading end: decompressed bytes, as the decompressor gave them.
pub(crate) struct Ahead {
    rx: Receiver<Msg>,
    /// Chunks going back to the thread, to be refilled.
    back: Sender<Vec<u8>>,
    cur: Vec<u8>,
    pos: usize,
    len: usize,
    ended: bool,
}

impl Ahead {
    /// Starts decoding `rdr` on a new thread.
    pub(crate) fn spawn(rdr: Box<dyn Read + Send>) -> io::Result<Ahead> {
        let (tx, rx) = bounded(AHEAD);
        let (back, spare) = bounded(AHEAD + 2);
        std::thread::Builder::new()
            .name("normurl-decode".into())
            .spawn(move || decode(rdr, &tx, &spare))?;
        Ok(Ahead {
            rx,
            back,
            cur: Vec::new(),
            pos: 0,
            len: 0,
            ended: false,
        })
    }
}

/// Decodes `rdr` into chunks until its end, its error, or until the
/// reading end goes away.
fn decode(mut rdr: Box<dyn Read + Send>, tx: &Sender<Msg>, spare: &Receiver<Vec<u8>>) {
    loop {
        let mut buf = match spare.try_recv() {
            Ok(buf) => buf,
            Err(TryRecvError::Empty | TryRecvError::Disconnected) => vec![0; CHUNK],
        };
        let (n, last) = fill(&mut rdr, &mut buf);
        if n > 0 && tx.send(Msg::Data(buf, n)).is_err() {
            return;
        }
        if let Some(last) = last {
            let _ = tx.send(last);
            return;
        }
    }
}

/// Fills `buf` from `rdr`; returns the bytes read and, at the end of the
/// input or an error, the message that follows them. A panic in the
/// decompressor is an error too, after the bytes before it: the reader
/// must not take a missing rest for the end of the input.
fn fill(rdr: &mut Box<dyn Read + Send>, buf: &mut [u8]) -> (usize, Option<Msg>) {
    let mut n = 0;
    while n < buf.len() {
        let read = catch_unwind(AssertUnwindSafe(|| rdr.read(&mut buf[n..])));
        match read {
            Ok(Ok(0)) => return (n, Some(Msg::End)),
            Ok(Ok(k)) => n += k,
            Ok(Err(e)) if e.kind() == io::ErrorKind::Interrupted => {}
            Ok(Err(e)) => return (n, Some(Msg::Failed(e))),
            Err(payload) => {
                let message = super::panic_message(&*payload);
                let e = io::Error::other(format!("the decompressor panicked: {message}"));
                return (n, Some(Msg::Failed(e)));
            }
        }
    }
    (n, None)
}

impl Read for Ahead {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.pos == self.len {
            if self.ended || buf.is_empty() {
                return Ok(0);
            }
            match self.rx.recv() {
                Ok(Msg::Data(chunk, n)) => {
                    let old = std::mem::replace(&mut self.cur, chunk);
                    if old.len() == CHUNK {
                        let _ = self.back.try_send(old);
                    }
                    (self.pos, self.len) = (0, n);
                }
                Ok(Msg::End) => self.ended = true,
                Ok(Msg::Failed(e)) => {
                    self.ended = true;
                    return Err(e);
                }
                Err(_) => {
                    self.ended = true;
                    return Err(io::Error::other("the decoding thread stopped"));
                }
            }
        }
        let n = buf.len().min(self.len - self.pos);
        buf[..n].copy_from_slice(&self.cur[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Gives `data` in reads of at most `step` bytes, then `error` if any.
    struct Scripted {
        data: Vec<u8>,
        pos: usize,
        step: usize,
        error: Option<io::ErrorKind>,
        panic: bool,
    }

    impl Read for Scripted {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = buf.len().min(self.step).min(self.data.len() - self.pos);
            if n == 0 {
                if self.panic {
                    panic!("boom");
                }
                return match self.error {
                    Some(kind) => Err(io::Error::new(kind, "broken")),
                    None => Ok(0),
                };
            }
            buf[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
            self.pos += n;
            Ok(n)
        }
    }

    fn read_all(rdr: Scripted) -> (Vec<u8>, Option<String>) {
        let Ok(mut ahead) = Ahead::spawn(Box::new(rdr)) else {
            panic!("no thread");
        };
        let mut out = Vec::new();
        let mut buf = [0; 1000];
        loop {
            match ahead.read(&mut buf) {
                Ok(0) => return (out, None),
                Ok(n) => out.extend_from_slice(&buf[..n]),
                Err(e) => return (out, Some(e.to_string())),
            }
        }
    }

    #[test]
    fn every_byte_in_order_then_the_end_or_the_error() {
        let data: Vec<u8> = (0..3 * CHUNK + 17).map(|i| (i % 251) as u8).collect();
        for step in [1 << 20, 32 << 10, 7] {
            let rdr = |error, panic| Scripted {
                data: data.clone(),
                pos: 0,
                step,
                error,
                panic,
            };
            assert_eq!(read_all(rdr(None, false)), (data.clone(), None));
            assert_eq!(
                read_all(rdr(Some(io::ErrorKind::InvalidData), false)),
                (data.clone(), Some("broken".to_string()))
            );
            let (out, err) = read_all(rdr(None, true));
            assert_eq!(out, data);
            assert_eq!(err.unwrap(), "the decompressor panicked: boom");
        }
        assert_eq!(
            read_all(Scripted {
                data: Vec::new(),
                pos: 0,
                step: 1,
                error: None,
                panic: false,
            }),
            (Vec::new(), None)
        );
    }

    #[test]
    fn the_thread_stops_when_the_reader_goes_away() {
        // An endless input: the thread must notice the dropped reader.
        struct Endless;
        impl Read for Endless {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                buf.fill(b'x');
                Ok(buf.len())
            }
        }
        let Ok(mut ahead) = Ahead::spawn(Box::new(Endless)) else {
            panic!("no thread");
        };
        let mut buf = [0; 10];
        assert_eq!(ahead.read(&mut buf).unwrap(), 10);
        drop(ahead);
    }
}
