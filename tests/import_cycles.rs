//! The layers hold: scripts/import-cycles.py draws the graph of `crate::`
//! and `super::` paths between the files of every crate of the workspace,
//! and no module depends, through a chain of imports, on one that depends
//! on it, between folders or between the files of one folder (issue 43).
//! Needs python3, as scripts/test.sh does.

use std::path::Path;
use std::process::{Command, Output};

/// The one cycle still known: the Python package's `config.rs` and
/// `psl_arg.rs` use each other (left to the developers of python/).
const KNOWN: &str = "normurl-python: in (root): config <-> psl_arg";

fn import_cycles(args: &[&str]) -> Output {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/import-cycles.py");
    Command::new("python3")
        .arg(&script)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("python3 {}: {e} (the test needs python3)", script.display()))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn no_import_cycle_but_the_known_one() {
    let out = import_cycles(&["--allow", KNOWN]);
    let stdout = text(&out.stdout);
    assert!(
        out.status.success(),
        "import cycles:\n{stdout}{}",
        text(&out.stderr)
    );
    assert!(stdout.contains("no import cycles"), "{stdout}");
}

/// The check can fail: a crate of two files that use each other, and two
/// folders that do, are reported, with exit status 1, and an allowed
/// cycle is not.
#[test]
fn a_cycle_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    for (path, text) in [
        ("lib.rs", "mod a;\nmod b;\nmod x;\nmod y;\n"),
        ("a.rs", "use super::b::B;\npub struct A;\n"),
        (
            "b.rs",
            "pub struct B;\nfn f() -> crate::a::A { crate::a::A }\n",
        ),
        ("x/mod.rs", "mod one;\n"),
        ("x/one.rs", "use crate::y::two::Two;\npub struct One;\n"),
        ("y/mod.rs", "pub mod two;\n"),
        (
            "y/two.rs",
            "pub struct Two;\nfn f() -> crate::x::one::One { todo!() }\n",
        ),
    ] {
        let path = src.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let spec = format!("demo={}", src.display());
    let out = import_cycles(&["--crate", &spec]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("demo: folders x <-> y\n"), "{stdout}");
    assert!(stdout.contains("demo: in (root): a <-> b\n"), "{stdout}");
    // Allowing one leaves the other failing the run; allowing both passes.
    let out = import_cycles(&["--crate", &spec, "--allow", "demo: in (root): a <-> b"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    let out = import_cycles(&[
        "--crate",
        &spec,
        "--allow",
        "demo: in (root): a <-> b",
        "--allow",
        "demo: folders x <-> y",
    ]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("demo: in (root): a <-> b (allowed)"),
        "{stdout}"
    );
}
