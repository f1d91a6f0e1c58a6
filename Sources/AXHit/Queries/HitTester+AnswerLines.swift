import AXGeometry
import Dispatch
import Foundation

/// Answers for many points as text: the JSON lines `axhit hit` prints, made
/// here so that every caller (the tool, a service, a script's pipe) gets
/// the same bytes at the same speed without repeating the batching.
extension HitTester {
    /// Writes one JSON line per point, in the points' order, naming the
    /// element `hit(_:policy:)` answers there:
    /// `{"point":[x,y],"element":"ID"}`, or `"element":null` where nothing is
    /// hit. Numbers are plain JSON numbers in their shortest form that reads
    /// back to the same value (`10`, `0.5`; `null` if not finite); ids are
    /// JSON strings, with U+FEFF, U+2028 and U+2029 escaped as well.
    ///
    /// The points are answered on all cores a window at a time (2^18
    /// points, about 10 MB of text): while one window's text goes to
    /// `sink` on the calling thread, the next is answered on the other
    /// cores, so that a slow writer (a pipe, a file) does not leave them
    /// idle. At least half as many frame queries as nodes first build a
    /// screen grid, on a copy (`prepare(forQueries:policy:)`), as
    /// `hit(_:policy:threads:)` does.
    ///
    /// - Parameters:
    ///   - points: The points, in screen points (the dump's pixels on
    ///     Android).
    ///   - policy: The region that must hold a point: the accessibility
    ///     frame or the exact shape.
    ///   - sink: Takes the text in order, a run of whole lines at a time,
    ///     valid only during the call.
    /// - Throws: What `sink` throws. No line is written after it: the
    ///   call returns once the window being answered meanwhile is done.
    /// - Complexity: a table of every node's quoted id first (O(n), 16
    ///   bytes a node: 70–260 ms on the harness's 1M-node screens, on two
    ///   shared cores), then the points' queries divided among the cores;
    ///   two windows' text. No points: nothing at all.
    public func writeAnswers(
        for points: [CGPoint], policy: HitPolicy = .frame, to sink: (UnsafeRawBufferPointer) throws -> Void
    ) rethrows {
        try writeAnswers(for: points, policy: policy, windowPoints: Self.answerWindow, cores: nil, to: sink)
    }

    /// `writeAnswers(for:policy:to:)` with `windowPoints` points a window,
    /// one run of them per core on `cores` cores (nil: all), so that tests
    /// cross windows and runs with few points.
    func writeAnswers(
        for points: [CGPoint], policy: HitPolicy, windowPoints: Int, cores: Int?,
        to sink: (UnsafeRawBufferPointer) throws -> Void
    ) rethrows {
        if let prepared = prepared(forQueries: points.count, policy: policy) {
            return try prepared.writeAnswers(
                for: points, policy: policy, windowPoints: windowPoints, cores: cores, to: sink)
        }
        guard !points.isEmpty else { return }
        // A window of points at a time, answered as text on all cores (one
        // run of points per core) and written in input order. While a
        // window's text is written, the next window is answered into the
        // other of two sets of writers. Each writer keeps its text buffer
        // and scratch from window to window; all read one table of quoted
        // ids, made first.
        let cores = cores ?? max(1, ProcessInfo.processInfo.activeProcessorCount)
        let windowPoints = max(1, windowPoints)
        let windows = consecutiveRuns(points.count, parts: (points.count + windowPoints - 1) / windowPoints)
        let runs = windows.map { consecutiveRuns($0.count, parts: cores) }
        let ids = QuotedIDs(tree, cores: cores)
        var writers = (0 ..< 2 * cores).map { _ in AnswerLines(self, policy, ids) }
        try writers.withUnsafeMutableBufferPointer { buffer in
            // Window k is answered by set k % 2 alone, while only set
            // (k - 1) % 2 is read.
            nonisolated(unsafe) let writers = buffer
            @Sendable func answer(_ k: Int) {
                let window = windows[k], set = k % 2 * cores
                DispatchQueue.concurrentPerform(iterations: runs[k].count) { r in
                    let run = runs[k][r]
                    writers[set + r].answer(
                        points[window.lowerBound + run.lowerBound ..< window.lowerBound + run.upperBound])
                }
            }
            answer(0)
            for k in windows.indices {
                let next = DispatchGroup()
                if k + 1 < windows.count { DispatchQueue.global().async(group: next) { answer(k + 1) } }
                // Even when `sink` throws: no writer is still at work once
                // this returns.
                defer { next.wait() }
                let set = k % 2 * cores
                for r in runs[k].indices { try writers[set + r].text.withUnsafeBytes(sink) }
            }
        }
    }

    /// Points a window of `writeAnswers(for:policy:to:)` answers: about
    /// 10 MB of text.
    static let answerWindow = 1 << 18

    /// A copy of the engine prepared for `count` queries under `policy`
    /// (`prepare(forQueries:policy:)`), when that gave it a whole, current
    /// screen grid that it lacks; else nil, and the engine answers as it is.
    func prepared(forQueries count: Int, policy: HitPolicy) -> HitTester? {
        guard lacksCurrentScreenGrid else { return nil }
        var prepared = self
        prepared.prepare(forQueries: count, policy: policy)
        return prepared.lacksCurrentScreenGrid ? nil : prepared
    }
}
