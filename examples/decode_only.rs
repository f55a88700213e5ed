//! Decoding alone: an input's decompressed bytes, read with the code the
//! pipeline reads them with (`Input::open_threads`: the same decoders,
//! chunking and decoding threads as `normurl -j THREADS`), and thrown
//! away. The floor that `normurl -j THREADS FILE` is compared with in
//! scripts/bench-compressed.sh.
//!
//! ```text
//! cargo run --release --example decode_only -- big.txt.gz 2
//! ```
//!
//! Arguments: FILE [THREADS (default 1)]. Writes the decompressed size
//! and the time to stderr.

use std::io::Read;
use std::time::Instant;

use normurl::pipeline::Input;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args_os().skip(1);
    let file = args.next().ok_or("usage: decode_only FILE [THREADS]")?;
    let threads = match args.next() {
        Some(t) => t.to_str().ok_or("THREADS must be a number")?.parse()?,
        None => 1,
    };
    let start = Instant::now();
    let mut rdr = Input::from_arg(&file).open_threads(8 << 20, threads)?;
    // The pipeline reads batches of 1 MiB.
    let mut buf = vec![0; 1 << 20];
    let mut total = 0u64;
    loop {
        match rdr.read(&mut buf)? {
            0 => break,
            n => total += n as u64,
        }
    }
    eprintln!("{total} bytes in {:.2} s", start.elapsed().as_secs_f64());
    Ok(())
}
