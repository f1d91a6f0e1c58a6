import Foundation

/// Work cut into pieces that are handed out one at a time to whichever
/// threads ask: the work's owner and its workers, and a helper that joins
/// once it has nothing better to do.
///
/// Why: `axhit hit` reads the tree on one core while the points parse on
/// the others. Parsed on every core, the points took half of the core the
/// tree needs, and the tree (read, resolved, indexed) is the longer of the
/// two; parsed on the other cores alone, they leave the tree its core, and
/// the tree's thread takes what pieces are left once it is done (a tiny
/// tree and many points still parse on every core).
///
/// A piece is claimed under a lock: the work has at most a few hundred
/// pieces, each of a megabyte or so, so the lock costs nothing beside them.
final class PieceShare: @unchecked Sendable {
    // Unchecked: every field below is read and written under `condition`.
    private let condition = NSCondition()
    private var work: (@Sendable (Int) -> Void)?
    private var pieces = 0
    private var next = 0
    private var unfinished = 0
    private var closed = false

    /// Runs `work` on every piece `0 ..< count`, on this thread, on
    /// `workers` more threads and on any helper's, and returns once every
    /// piece is done. Call at most once; the share is closed afterwards.
    func run(_ count: Int, workers: Int, _ work: @escaping @Sendable (Int) -> Void) {
        condition.withLock {
            self.work = work
            pieces = count
            next = 0
            unfinished = count
            condition.broadcast()
        }
        DispatchQueue.concurrentPerform(iterations: 1 + max(0, workers)) { _ in takePieces() }
        condition.withLock {
            while unfinished > 0 { condition.wait() }
            self.work = nil
            closed = true
            condition.broadcast()
        }
    }

    /// Takes pieces of the work until none is left: waits for the work to
    /// start if it has not, and returns at once if the share is closed.
    func help() {
        condition.withLock {
            while work == nil && !closed { condition.wait() }
        }
        takePieces()
    }

    /// Ends the share without work (its owner failed before `run`), so
    /// that a helper waiting for the work returns. Harmless after `run`.
    func close() {
        condition.withLock {
            closed = true
            condition.broadcast()
        }
    }

    private func takePieces() {
        while true {
            let claimed: (Int, @Sendable (Int) -> Void)? = condition.withLock {
                guard let work, next < pieces else { return nil }
                next += 1
                return (next - 1, work)
            }
            guard let (k, work) = claimed else { return }
            work(k)
            condition.withLock {
                unfinished -= 1
                if unfinished == 0 { condition.broadcast() }
            }
        }
    }
}
