import Foundation

/// Work cut into pieces that are handed out one at a time to whichever
/// threads ask: the work's owner and its workers, and a helper that joins
/// once it has nothing better to do.
///
/// Why: `axhit hit` reads the tree on one core while the points parse on
/// the others. Parsed on every core, the points competed with the tree's
/// thread for its core, and the tree (read, resolved, indexed) is the
/// longer of the two; parsed on the other cores alone, they leave the tree
/// its core, and the tree's thread takes what pieces are left once it is
/// done (a tiny tree and many points still parse on every core).
///
/// The owner may run several jobs in turn (each waits for the last piece
/// of the one before), then closes the share. A piece is claimed under a
/// lock: a job has at most a few hundred pieces, each of a megabyte or so,
/// so the lock costs nothing beside them.
final class PieceShare: @unchecked Sendable {
    // Unchecked: every field below is read and written under `condition`.
    private let condition = NSCondition()
    private var work: (@Sendable (Int) -> Void)?
    /// Which job `work` is (counted from 1), so that a helper that has
    /// taken part in one waits for the next instead of spinning.
    private var job = 0
    private var pieces = 0
    private var next = 0
    private var unfinished = 0
    private var closed = false

    /// Runs `work` on every piece `0 ..< count`, on this thread, on up to
    /// `workers` more threads and on any helper's, and returns once every
    /// piece is done.
    func run(_ count: Int, workers: Int, _ work: @escaping @Sendable (Int) -> Void) {
        condition.withLock {
            self.work = work
            job += 1
            pieces = count
            next = 0
            unfinished = count
            condition.broadcast()
        }
        DispatchQueue.concurrentPerform(iterations: 1 + max(0, workers)) { _ in takePieces() }
        condition.withLock {
            while unfinished > 0 { condition.wait() }
            self.work = nil
        }
    }

    /// Takes pieces of each job the owner runs, waiting for the next,
    /// until the owner closes the share.
    func help() {
        var done = 0
        while true {
            let open: Bool = condition.withLock {
                while !closed && (work == nil || job == done) { condition.wait() }
                guard work != nil, job != done else { return false }
                done = job
                return true
            }
            guard open else { return }
            takePieces()
        }
    }

    /// Ends the share: a helper returns once the job it is in is done.
    /// The owner calls it when it has no more work (or failed before any).
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
