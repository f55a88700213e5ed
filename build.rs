//! With `--features peers`: compiles src/cli/bench/ada_shim.cpp, which
//! times ada's own C++ entry points (`ada::parse<ada::url_aggregator>` and
//! `ada::can_parse`) with the loop over the URLs inside C++, as ada's own
//! benchmarks call them. Without the feature there is nothing to do.
//!
//! The shim includes ada.h from the ada-url crate's sources and links
//! against the ada that crate builds, so that both measure the same ada.
//! When no C++ compiler (or no ada.h) is found the shim is skipped and
//! `normurl bench` says so: the `ada_cpp` cfg is set only when it built.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(ada_cpp)");
    #[cfg(feature = "peers")]
    peers::build();
}

#[cfg(feature = "peers")]
mod peers {
    use std::path::{Path, PathBuf};

    const SHIM: &str = "src/cli/bench/ada_shim.cpp";

    pub fn build() {
        println!("cargo::rerun-if-changed={SHIM}");
        println!("cargo::rerun-if-env-changed=NORMURL_ADA_INCLUDE");
        let Some(include) = ada_include() else {
            return skip("ada.h not found (set NORMURL_ADA_INCLUDE to its folder)");
        };
        // The flags ada-url builds ada.cpp with (its build.rs): the shim's
        // inline ada code must agree with the library it links to.
        let result = cc::Build::new()
            .cpp(true)
            .std("c++20")
            .define("ADA_INCLUDE_URL_PATTERN", "0")
            .include(&include)
            .file(SHIM)
            .cargo_warnings(false)
            .try_compile("normurl_ada_shim");
        match result {
            Ok(()) => {
                println!("cargo::rustc-cfg=ada_cpp");
                println!("cargo::rustc-env=NORMURL_ADA_CPP_NOTE=built");
            }
            Err(e) => {
                println!("cargo::warning=ada C++ shim not built: {e}");
                skip("no C++ compiler");
            }
        }
    }

    /// Records why the shim is missing; `normurl bench` prints it.
    fn skip(why: &str) {
        println!("cargo::rustc-env=NORMURL_ADA_CPP_NOTE={why}");
    }

    /// The folder of ada.h: `NORMURL_ADA_INCLUDE`, else the `deps` folder of
    /// the ada-url crate Cargo.lock names, in Cargo's registry sources
    /// (ada-url exports no include path of its own).
    fn ada_include() -> Option<PathBuf> {
        if let Some(dir) = std::env::var_os("NORMURL_ADA_INCLUDE") {
            return Some(PathBuf::from(dir));
        }
        let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR")?);
        let version = locked_version(&manifest.join("Cargo.lock"))?;
        let home = std::env::var_os("CARGO_HOME")
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cargo")))?;
        let crate_dir = format!("ada-url-{version}");
        std::fs::read_dir(home.join("registry").join("src"))
            .ok()?
            .flatten()
            .map(|index| index.path().join(&crate_dir).join("deps"))
            .find(|deps| deps.join("ada.h").is_file())
    }

    /// The version of ada-url in Cargo.lock.
    fn locked_version(lock: &Path) -> Option<String> {
        let text = std::fs::read_to_string(lock).ok()?;
        let mut lines = text.lines();
        lines.find(|l| l.trim() == "name = \"ada-url\"")?;
        let version = lines.next()?.trim().strip_prefix("version = \"")?;
        Some(version.trim_end_matches('"').to_string())
    }
}
