import CPrefetch

/// Starts fetching the cache line that holds `address` into the cache, with
/// no wait and no fault whatever the address: a query loop that knows its
/// next reads begins them for many queries at once, so that their cache
/// misses overlap instead of following one another.
@inlinable @inline(__always)
package func prefetch<T>(_ address: UnsafePointer<T>) {
    axhit_prefetch(address)
}
