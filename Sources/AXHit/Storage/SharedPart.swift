import Synchronization

/// What the parts columns share have in common (a chunk, a group of
/// chunks): the count of their holders (the groups that hold a chunk, the
/// tables that hold a group), kept by hand rather than by ARC. A holder
/// refers to its parts through `Unmanaged` references, which ARC leaves
/// alone; each part is owned by one ARC reference, released when its last
/// holder lets it go.
///
/// **Why.** A copy of a table (or of a group) counts one more holder of
/// each of its groups (or chunks): ~1,000 of them for an insert under a
/// snapshot of a 1M-element tree, and as many fewer when the snapshot
/// goes. ARC makes each an atomic operation (which, by our reading of the
/// profiles, also keeps the next one's cache miss from starting: a probe
/// that made them all non-atomic took 15-18% off such inserts). Here every
/// change of a count happens under a lock (`HolderLock`), taken once per
/// copy or release of a whole table or group, so the counts themselves are
/// plain loads and stores (acquiring and releasing, which cost nothing
/// more on x86-64).
///
/// **Whose lock.** A part is only ever held within the family of the
/// column that made it (a table, its copies, and the groups they make), so
/// each family counts under its own lock (`HolderLock`), one of a fixed
/// set chosen by its first table's address: two engines, or two trees,
/// wait for each other's counts only when their columns happen to draw the
/// same lock, not always as with one lock for the process. Every call
/// below names the lock of the family whose parts it counts.
///
/// **The rule.** A count changes only under its family's lock. A holder that reads
/// its part's count as 1 (`isHeldOnce`, outside the lock) holds it alone:
/// no one else can add a holder (only a holder can, by copying itself,
/// and the writer's table and group are its own by the checks before). A
/// count above 1 may fall meanwhile, as other holders let go; read stale,
/// it costs a needless copy, never a shared write. The count is released
/// as it falls and acquired as it is read, so a reader's last use of a
/// part happens before a writer's first write to it.
class SharedPart {
    /// The tables (for a group) or groups (for a chunk) that hold this part.
    final let holders = Atomic<Int>(1)

    /// Whether `part`'s one holder is the caller.
    @inline(__always)
    static func isHeldOnce(_ part: Unmanaged<some SharedPart>) -> Bool {
        Unmanaged<SharedPart>.fromOpaque(part.toOpaque())._withUnsafeGuaranteedRef {
            $0.holders.load(ordering: .acquiring) == 1
        }
    }

    /// Counts one more holder of each of the `count` parts at `parts`.
    @inline(__always)
    static func hold(_ parts: UnsafePointer<Unmanaged<some SharedPart>>, count: Int, under lock: Unmanaged<HolderLock>)
    {
        change(holding: UnsafeRawPointer(parts), count, dropping: UnsafeRawPointer(parts), 0, under: lock)
    }

    /// Counts one more holder of each of the `count` parts at `parts` and
    /// one fewer of `part`, under one hold of the lock: a copy of a group
    /// that takes the old one's place.
    @inline(__always)
    static func hold(
        _ parts: UnsafePointer<Unmanaged<some SharedPart>>, count: Int, dropping part: Unmanaged<some SharedPart>,
        under lock: Unmanaged<HolderLock>
    ) {
        withUnsafePointer(to: part.toOpaque()) {
            change(holding: UnsafeRawPointer(parts), count, dropping: UnsafeRawPointer($0), 1, under: lock)
        }
    }

    /// Counts one holder fewer of each of the `count` parts at `parts`,
    /// and frees each that no one holds any more, after the lock (freeing a
    /// group lets its chunks go, which takes the lock again).
    @inline(__always)
    static func drop(_ parts: UnsafePointer<Unmanaged<some SharedPart>>, count: Int, under lock: Unmanaged<HolderLock>)
    {
        change(holding: UnsafeRawPointer(parts), 0, dropping: UnsafeRawPointer(parts), count, under: lock)
    }

    /// `drop` of the `count` parts at `start`, for a generic class's
    /// `deinit`: its generic arguments are not known there (it is not
    /// specialized), and a generic call or a typed pointer's method would
    /// look their metadata up in the runtime's cache (hundreds of
    /// instructions a call, as much as the rest of a scroll under a
    /// snapshot).
    static func drop(raw start: UnsafeRawPointer, count: Int, under lock: Unmanaged<HolderLock>) {
        change(holding: start, 0, dropping: start, count, under: lock)
    }

    /// `drop` of one part.
    @inline(__always)
    static func drop(_ part: Unmanaged<some SharedPart>, under lock: Unmanaged<HolderLock>) {
        withUnsafePointer(to: part.toOpaque()) {
            change(holding: UnsafeRawPointer($0), 0, dropping: UnsafeRawPointer($0), 1, under: lock)
        }
    }

    /// The work itself, on the parts as `SharedPart`s through raw pointers:
    /// not generic, so that a generic class's `deinit` (which is not
    /// specialized) looks no type's metadata up to call it. A count of 0
    /// reads nothing at its pointer.
    private static func change(
        holding held: UnsafeRawPointer, _ holdCount: Int, dropping dropped: UnsafeRawPointer, _ dropCount: Int,
        under lock: Unmanaged<HolderLock>
    ) {
        guard holdCount > 0 || dropCount > 0 else { return }
        held.withMemoryRebound(to: Unmanaged<SharedPart>.self, capacity: holdCount) { held in
            dropped.withMemoryRebound(to: Unmanaged<SharedPart>.self, capacity: dropCount) { dropped in
                withUnsafeTemporaryAllocation(of: Unmanaged<SharedPart>.self, capacity: dropCount) { unheld in
                    var n = 0
                    // Borrowed: a family's lock outlives its parts (`HolderLock.all`).
                    lock._withUnsafeGuaranteedRef { family in
                        family.mutex.withLock { _ in
                            for i in 0 ..< holdCount {
                                held[i]._withUnsafeGuaranteedRef { part in
                                    part.holders.store(
                                        part.holders.load(ordering: .acquiring) &+ 1, ordering: .releasing)
                                }
                            }
                            for i in 0 ..< dropCount {
                                let left = dropped[i]._withUnsafeGuaranteedRef { part in
                                    let left = part.holders.load(ordering: .acquiring) &- 1
                                    part.holders.store(left, ordering: .releasing)
                                    return left
                                }
                                if left == 0 {
                                    unheld[n] = dropped[i]
                                    n += 1
                                }
                            }
                        }
                    }
                    for i in 0 ..< n { unheld[i].release() }
                }
            }
        }
    }
}

/// One of the locks under which families of tables count their parts'
/// holders (`SharedPart`). A fixed set, made once and never freed, so that
/// a family's lock needs no allocation and outlives every part: a table,
/// its copies and their groups keep a borrowed reference to it, read with
/// the rest of their header, so a change of counts looks nothing up. The
/// counts are atomics read acquiring and written releasing, so the race
/// detector sees their order even where it does not see a contended
/// `Mutex` acquired (`ConcurrentQueryTests`).
final class HolderLock: Sendable {
    let mutex = Mutex(())

    /// The set: 64 locks, so that a handful of engines on as many threads
    /// seldom share one, in 64 small objects.
    static let all = (0 ..< 64).map { _ in HolderLock() }

    /// The lock of a new family whose first table is at `address`, by a
    /// hash of its bits above the allocator's 16-byte alignment (tables
    /// made one after another sit a fixed step apart, which the low bits
    /// alone would spread over a few locks).
    static func forFamily(of address: UnsafeRawPointer) -> Unmanaged<HolderLock> {
        let k = Int(truncatingIfNeeded: (UInt64(UInt(bitPattern: address) &>> 4) &* 0x9E37_79B9_7F4A_7C15) &>> 58)
        return .passUnretained(all[k])
    }
}
