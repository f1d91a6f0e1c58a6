#if canImport(Glibc)
import Glibc
#endif

extension Array {
    /// Reserves room for `capacity` elements and, when that is many
    /// megabytes, asks the kernel to back it with transparent huge pages.
    ///
    /// The engine's large columns are read at random by queries: with 4 KiB
    /// pages nearly every such read also misses the TLB (a page walk), and
    /// building them takes one page fault per 4 KiB. Huge pages (2 MiB)
    /// remove most of both. Only a hint: where the kernel declines (THP
    /// off, another OS), nothing changes but speed.
    package mutating func reserveCapacityAdvisingHugePages(_ capacity: Int) {
        reserveCapacity(capacity)
        let bytes = capacity * MemoryLayout<Element>.stride
        guard bytes >= 4 << 20 else { return }
        withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            adviseHugePages(UnsafeMutableRawPointer(base), bytes: bytes)
        }
    }
}

/// Advises huge pages for the whole 2 MiB pages inside `bytes` at `start`.
package func adviseHugePages(_ start: UnsafeMutableRawPointer, bytes: Int) {
    #if os(Linux)
    let huge = 2 << 20
    let lo = (Int(bitPattern: start) + huge - 1) & ~(huge - 1)
    let hi = (Int(bitPattern: start) + bytes) & ~(huge - 1)
    guard hi > lo, let aligned = UnsafeMutableRawPointer(bitPattern: lo) else { return }
    _ = madvise(aligned, hi - lo, Int32(MADV_HUGEPAGE))
    #endif
}
