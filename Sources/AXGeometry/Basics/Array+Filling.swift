/// Arrays filled in place, safe to make on several threads at once.
extension Array {
    /// An array of `count` elements that `body` initializes (setting its
    /// second argument to how many it did), as
    /// `init(unsafeUninitializedCapacity:initializingWith:)` makes one, but
    /// `[]` without calling `body` when `count` is 0. Given no capacity, the
    /// standard library's initializer writes the count into the one
    /// storage every empty array shares: a write of 0 over 0, yet a data
    /// race with any thread reading an empty array's count, which
    /// ThreadSanitizer reports (a batch of no points did, beside a query).
    @inlinable
    package init(
        filling count: Int, _ body: (inout UnsafeMutableBufferPointer<Element>, inout Int) throws -> Void
    ) rethrows {
        guard count > 0 else {
            self = []
            return
        }
        self = try Array(unsafeUninitializedCapacity: count, initializingWith: body)
    }
}
