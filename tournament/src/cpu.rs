//! The CPU time the tournament counts: the process's and its children's, and the
//! calling thread's. One of the tournament's system-call boundaries (the workspace
//! denies `unsafe` elsewhere).

/// CPU seconds of this process (all threads) and of its reaped children.
#[allow(unsafe_code)]
pub fn rusage() -> (f64, f64) {
    let get = |who| {
        let mut u = std::mem::MaybeUninit::<libc::rusage>::zeroed();
        // SAFETY: getrusage writes one rusage into the pointer it is given, which
        // points to a zeroed rusage of ours.
        let ok = unsafe { libc::getrusage(who, u.as_mut_ptr()) } == 0;
        if !ok {
            return 0.0;
        }
        // SAFETY: zeroed is a valid rusage (plain integers), and getrusage filled it.
        let u = unsafe { u.assume_init() };
        let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
        tv(u.ru_utime) + tv(u.ru_stime)
    };
    (get(libc::RUSAGE_SELF), get(libc::RUSAGE_CHILDREN))
}

/// CPU time of the calling thread in nanoseconds (0 if the clock cannot be read):
/// one `clock_gettime`, where reading `/proc/thread-self/schedstat` took an open, a
/// read and a close, sixteen times a game. Beside [`rusage`] at the same boundary.
#[allow(unsafe_code)]
pub fn thread_cpu_ns() -> u64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec into the pointer it is given, which
    // points to one of ours.
    if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } != 0 {
        return 0;
    }
    let secs = u64::try_from(t.tv_sec).unwrap_or(0);
    let nanos = u64::try_from(t.tv_nsec).unwrap_or(0);
    secs.saturating_mul(1_000_000_000).saturating_add(nanos)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_cpu_time_grows_with_work_and_not_with_sleep() {
        let a = thread_cpu_ns();
        let mut x = 0u64;
        let start = std::time::Instant::now();
        while start.elapsed() < std::time::Duration::from_millis(30) {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
        }
        let b = thread_cpu_ns();
        std::thread::sleep(std::time::Duration::from_millis(30));
        let c = thread_cpu_ns();
        assert!(a > 0, "the clock reads");
        assert!(b - a >= 10_000_000, "30 ms of work counted: {} ns", b - a);
        assert!(c - b < 10_000_000, "a sleep costs no CPU: {} ns", c - b);
    }
}
