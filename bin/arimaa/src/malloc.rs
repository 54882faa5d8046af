//! One allocator setting for glibc.
//!
//! glibc raises its mmap threshold each time a large block is freed (up to
//! 32 MB), and from then on blocks of that size come from the heap, where
//! freed memory stays resident. Each search allocates and frees such blocks
//! (the root turn list, the generator's tables, per-thread buffers), so an
//! engine at hash 64 grew to 105-111 MB over a 600-game soak. A fixed
//! threshold keeps large blocks mmapped, and freeing one returns its memory.

/// Fixes the mmap threshold at glibc's initial 128 KB. Call it first in `main`.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
pub fn keep_large_blocks_mapped() {
    // SAFETY: mallopt only sets an allocator parameter; it is called before
    // any other thread exists, and a refusal (return 0) leaves glibc as it was.
    let ok = unsafe { libc::mallopt(libc::M_MMAP_THRESHOLD, 128 * 1024) };
    if ok == 0 {
        log::debug!("mallopt(M_MMAP_THRESHOLD) refused; glibc keeps its dynamic threshold");
    }
}

/// Other platforms' allocators are left as they are.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn keep_large_blocks_mapped() {}
