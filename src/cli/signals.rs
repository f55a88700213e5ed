//! Removing `--dedup`'s spill files when the command is ended by SIGINT,
//! SIGTERM or SIGHUP, as GNU sort does. The library installs no signal
//! handlers; the command does, only when dedup may spill.
//!
//! No code runs in signal context: the signals are blocked in every thread
//! (the mask is set before any other thread starts, and threads inherit
//! it) and one thread takes them with `sigwait`. That thread removes the
//! spill directories, which also stops new ones from being made (see
//! [`normurl::dedup::remove_spill_dirs`]), then ends the process by the
//! same signal with its default action, so that the parent sees the usual
//! status (128 + N in a shell). A signal ignored when the command started
//! (`nohup`) stays ignored.

use std::sync::atomic::{AtomicBool, Ordering};

use normurl::dedup::{DedupConfig, DedupMode};

/// Set when the signal thread has taken a signal: the process is ending.
static ENDING: AtomicBool = AtomicBool::new(false);

/// Returned by [`install`]; dropping it at the end of the run holds the
/// main thread back while the signal thread is ending the process.
pub struct Guard(());

impl Drop for Guard {
    fn drop(&mut self) {
        // An error the run meets now comes from the removed spill files and
        // is not worth a message, and returning from main would exit with
        // another status than the signal's.
        while ENDING.load(Ordering::SeqCst) {
            std::thread::park();
        }
    }
}

/// Starts the signal thread if `dedup` may spill (`--assume-sorted` never
/// does). Call it before any other thread is started: a thread started
/// earlier would still get the signals' default action.
pub fn for_dedup(dedup: Option<&DedupConfig>) -> Option<Guard> {
    dedup
        .filter(|d| d.mode == DedupMode::Exact)
        .map(|_| install())
}

#[cfg(unix)]
fn install() -> Guard {
    if let Some(set) = unix::block() {
        let thread = std::thread::Builder::new().name("signals".into());
        if thread.spawn(move || unix::wait(set)).is_err() {
            // Without the thread, the signals are better left as they were.
            unix::unblock(&set);
        }
    }
    Guard(())
}

/// Elsewhere, the spill files of an interrupted run are left behind.
#[cfg(not(unix))]
fn install() -> Guard {
    Guard(())
}

#[cfg(unix)]
mod unix {
    use std::mem::MaybeUninit;
    use std::ptr;

    use libc::{c_int, sigset_t, SIGHUP, SIGINT, SIGTERM};

    use super::{Ordering, ENDING};

    /// Blocks in this thread the signals that are not ignored, and returns
    /// them (`None` if that failed).
    pub fn block() -> Option<sigset_t> {
        let mut set = MaybeUninit::<sigset_t>::uninit();
        // SAFETY: sigemptyset initializes the set it is given; sigaddset
        // and pthread_sigmask get that initialized set and valid signal
        // numbers, and a null old set is allowed.
        unsafe {
            libc::sigemptyset(set.as_mut_ptr());
            let mut set = set.assume_init();
            for sig in [SIGINT, SIGTERM, SIGHUP] {
                if !ignored(sig) {
                    libc::sigaddset(&mut set, sig);
                }
            }
            (libc::pthread_sigmask(libc::SIG_BLOCK, &set, ptr::null_mut()) == 0).then_some(set)
        }
    }

    pub fn unblock(set: &sigset_t) {
        // SAFETY: `set` is an initialized signal set; a null old set is
        // allowed.
        unsafe { libc::pthread_sigmask(libc::SIG_UNBLOCK, set, ptr::null_mut()) };
    }

    fn ignored(sig: c_int) -> bool {
        let mut old = MaybeUninit::<libc::sigaction>::uninit();
        // SAFETY: a null new action only reads the current one into `old`,
        // which is initialized when the call succeeds.
        unsafe {
            libc::sigaction(sig, ptr::null(), old.as_mut_ptr()) == 0
                && old.assume_init().sa_sigaction == libc::SIG_IGN
        }
    }

    /// Waits for one of the signals in `set`, removes the spill
    /// directories and ends the process by that signal.
    pub fn wait(set: sigset_t) {
        let mut sig: c_int = 0;
        // SAFETY: `set` is initialized and `sig` is a valid place for the
        // result; sigwait fails only for an invalid set, hence the loop.
        while unsafe { libc::sigwait(&set, &mut sig) } != 0 {}
        ENDING.store(true, Ordering::SeqCst);
        // Whatever happens there, the process must end: the main thread
        // waits for it.
        let _ = std::panic::catch_unwind(normurl::dedup::remove_spill_dirs);
        reraise(sig);
    }

    /// Ends the process by `sig` with its default action.
    fn reraise(sig: c_int) -> ! {
        // SAFETY: a zeroed sigaction with SIG_DFL as its handler is a valid
        // action; the set is initialized by sigemptyset before use.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = libc::SIG_DFL;
            libc::sigaction(sig, &action, ptr::null_mut());
            let mut only = MaybeUninit::<sigset_t>::uninit();
            libc::sigemptyset(only.as_mut_ptr());
            let mut only = only.assume_init();
            libc::sigaddset(&mut only, sig);
            libc::pthread_sigmask(libc::SIG_UNBLOCK, &only, ptr::null_mut());
            libc::raise(sig);
        }
        // Not reached: the default action of these signals ends the process.
        std::process::exit(128 + sig)
    }
}
