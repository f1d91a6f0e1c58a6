import Dispatch
import Foundation

/// `body(worker, i)` for every `i` in `0 ..< count`, on all cores, in order.
///
/// The items are cut into chunks of at least `minimumChunk` (about eight per
/// core, so a slow chunk does not hold the others back); each chunk makes
/// its own worker state with `makeWorker` (a GEOS context, a query's scratch
/// space), since such state is owned by one thread and never shared.
///
/// - Complexity: the sum of the bodies, divided among the cores.
package func parallelMap<Worker, T>(
    _ count: Int, minimumChunk: Int, makeWorker: @Sendable () -> Worker, _ body: @Sendable (inout Worker, Int) -> T
) -> [T] {
    guard count > 0 else { return [] }
    let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
    let chunk = max(max(1, minimumChunk), (count + cores * 8 - 1) / (cores * 8))
    let chunks = (count + chunk - 1) / chunk
    return Array(filling: count) { buffer, initialized in
        // Each chunk initializes only its own slots.
        nonisolated(unsafe) let out = buffer
        DispatchQueue.concurrentPerform(iterations: chunks) { c in
            var worker = makeWorker()
            for i in c * chunk ..< min(count, (c + 1) * chunk) {
                out.initializeElement(at: i, to: body(&worker, i))
            }
        }
        initialized = count
    }
}

/// `0 ..< count` cut into at most `parts` consecutive runs of equal length
/// (the last may be shorter), none empty: how the engine and the tools share
/// a list of items among cores. Empty for a count of 0.
package func consecutiveRuns(_ count: Int, parts: Int) -> [Range<Int>] {
    guard count > 0 else { return [] }
    let size = (count + max(1, parts) - 1) / max(1, parts)
    return stride(from: 0, to: count, by: size).map { $0 ..< min(count, $0 + size) }
}
