import Foundation

/// Process memory, read from /proc (Linux only).
///
/// Foundation on Linux does not surface glibc's `mallinfo2`, so memory is
/// measured as resident-set growth: `malloc_trim(0)` first hands freed pages
/// back to the kernel, so what stays resident is what live objects hold.
/// Page granularity (4 KiB) makes small trees' figures coarse, so the bench
/// reports them from 5k elements up.
enum MemoryProbe {
    /// The smallest element count whose memory figures mean something.
    static let minimumElements = 5_000

    /// Makes glibc serve every block of 64 KiB or more with its own mmap, and
    /// stop raising that threshold as blocks are freed (its default), so a
    /// large array costs resident memory when made and returns it when freed
    /// instead of reusing a previous workload's heap: resident growth then
    /// measures what a build holds. Call once, before measuring anything.
    static func fixAllocatorThreshold() {
        typealias MallOpt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        let M_MMAP_THRESHOLD: Int32 = -3
        _ = unsafeBitCast(symbol, to: MallOpt.self)(M_MMAP_THRESHOLD, 64 * 1024)
    }

    /// Resident bytes now, after returning free heap pages (VmRSS).
    static func residentAfterTrim() -> Int {
        _ = trim?(0)
        return status("VmRSS:") ?? 0
    }

    /// Peak resident set size of this process so far (VmHWM), in bytes.
    static func peakResident() -> Int? { status("VmHWM:") }

    private typealias Trim = @convention(c) (Int) -> Int32

    /// glibc's `malloc_trim`, looked up at run time (its header is not
    /// imported); nil on a libc without it.
    private static let trim: Trim? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: Trim.self)
    }()

    private static func status(_ key: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(key) {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count >= 2, let kb = Int(fields[1]) { return kb * 1024 }
        }
        return nil
    }
}
