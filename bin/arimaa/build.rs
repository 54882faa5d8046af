//! Names the build for `id version` and `--version`: the package version and
//! the commit it was built from, `0.1.0+1a2b3c4`, so that a game log or a
//! match record says exactly which engine played. Outside a git checkout of
//! this repository (a source tarball, no `git` installed) it is the package
//! version alone.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let version = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let name = match commit(&manifest) {
        Some(hash) => format!("{version}+{hash}"),
        None => version,
    };
    println!("cargo:rustc-env=ARIMAA_VERSION={name}");
    println!("cargo:rerun-if-changed=build.rs");
}

/// The short hash of HEAD, if `manifest` lies in a git checkout of this
/// repository. Asks cargo to build again when HEAD moves: the HEAD file
/// (a branch switch), the branch's ref (a commit) and HEAD's reflog (which
/// git appends to on every move, even when the ref lives in packed-refs and
/// a commit writes a loose ref file not watched yet), wherever git keeps
/// them (a worktree has its own HEAD and log and shares the refs). Only
/// files that exist are watched: cargo reruns the script on every build
/// for a missing one.
fn commit(manifest: &Path) -> Option<String> {
    let git = |args: &[&str]| -> Option<String> {
        let out = Command::new("git").arg("-C").arg(manifest).args(args).output().ok()?;
        let text = String::from_utf8(out.stdout).ok()?;
        (out.status.success() && !text.trim().is_empty()).then(|| text.trim().to_string())
    };
    // Only this repository's commit: a tarball unpacked inside some other
    // checkout must not take that checkout's hash.
    let top = PathBuf::from(git(&["rev-parse", "--show-toplevel"])?);
    if !same_dir(&top.join("bin").join("arimaa"), manifest) {
        return None;
    }
    let hash = git(&["rev-parse", "--short", "HEAD"])?;
    let mut watched = vec![
        git(&["rev-parse", "--git-path", "HEAD"])?,
        git(&["rev-parse", "--git-path", "logs/HEAD"])?,
    ];
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
        watched.push(git(&["rev-parse", "--git-path", &branch])?);
        // A ref that `git gc` packed lives in packed-refs instead.
        watched.push(git(&["rev-parse", "--git-path", "packed-refs"])?);
    }
    for path in watched {
        let path = manifest.join(path);
        if path.exists() {
            println!("cargo:rerun-if-changed={}", path.display());
        }
    }
    Some(hash)
}

fn same_dir(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}
