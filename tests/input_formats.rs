//! Input formats through the binary: zstd skippable frames and window
//! sizes, zero padding after gzip, compression formats normurl does not
//! decode, and `normurl bench` on compressed files. What each must give is
//! in README.md, "Guarantees".

mod common;

use common::bin::{file, gzip, numbered_urls, run};

#[test]
fn gzip_with_zero_padding_and_trailing_garbage() {
    let dir = tempfile::tempdir().unwrap();
    let text = numbered_urls(1000);
    let packed = gzip(text.as_bytes());
    let padded = [packed.clone(), vec![0; 4096]].concat();
    let path = file(&dir, "padded.gz", &padded);
    for j in ["1", "2"] {
        assert_eq!(run(&["-j", j, &path], b"").ok().out(), text, "-j {j}");
    }
    assert_eq!(run(&[], &padded).ok().out(), text, "on stdin");
    let two = [packed.clone(), packed.clone(), vec![0; 3]].concat();
    let path = file(&dir, "two.gz", &two);
    assert_eq!(run(&[&path], b"").ok().out(), text.repeat(2));
    // Trailing garbage: every line of the members before is written, then
    // the run stops with an error, as before (gzip -dc writes the data too
    // and exits with status 2). Zeros followed by more are not padding:
    // gzip -d ignores a member after them as "trailing garbage" too.
    let good = file(&dir, "good.txt", b"http://good.example/\n");
    for (name, tail) in [
        ("garbage.gz", b"garbage\n".to_vec()),
        (
            "zeros-then-garbage.gz",
            [vec![0; 10], b"x".to_vec()].concat(),
        ),
        (
            "zeros-then-member.gz",
            [vec![0; 10], packed.clone()].concat(),
        ),
    ] {
        let path = file(&dir, name, &[packed.clone(), tail].concat());
        for j in ["1", "2"] {
            let ran = run(&["-j", j, &path, &good], b"").failed(&[&format!(
                "{path}: corrupt or truncated gzip data near compressed byte"
            )]);
            assert_eq!(ran.out(), text, "{name} -j {j}");
        }
    }
}
