//! The calling thread's CPU clock, shared by the CPU-time examples
//! (`detector_cpu`, `tree_cpu`): unlike the wall clock it does not count
//! time spent waiting for a core, so it holds on a busy machine.

/// Nanoseconds of CPU time this thread has used.
pub fn thread_cpu_ns() -> u128 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec for the call's duration.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
    ts.tv_sec as u128 * 1_000_000_000 + ts.tv_nsec as u128
}
