import AXHit
import Foundation

/// Checks shared by the fuzz targets. A failed check traps (`fatalError`),
/// which libFuzzer records as a crash with the input that caused it.
enum FuzzChecks {
    /// An input's bytes as `Data` (copied: the parsers may keep slices).
    static func data(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> Data { Data(bytes: bytes, count: size) }

    /// A reader's error must carry the file and print as one line (cli.md).
    static func check(_ error: TreeError, file: String) {
        guard error.file == file else { fatalError("error without its file: \(error)") }
        let text = error.description
        guard !text.contains(where: { $0.isNewline }) else { fatalError("error of more than one line: \(text)") }
    }

    /// What every successfully read tree must do: write out and read back
    /// equal, resolve, and answer queries at points taken from the input.
    static func exercise(_ tree: ElementTree, probes: UnsafeBufferPointer<UInt8>) {
        let order = tree.preOrder
        // The writer's output reads back to the same nodes in the same order.
        let written = tree.axhitJSON()
        let again: ElementTree
        do { again = try ElementTree(axhitJSON: written, file: "written") } catch {
            fatalError("the writer's output does not read back: \(error)")
        }
        let againOrder = again.preOrder
        guard againOrder.count == order.count else { fatalError("round trip changed the node count") }
        for (a, b) in zip(order, againOrder) where tree[a] != again[b] {
            fatalError("round trip changed node \(tree.id(of: a))")
        }
        let tester = HitTester(tree)
        var scratch = HitScratch()
        // A screen grid must not change an answer (where it is built).
        var gridded = tester
        let grid = gridded.buildScreenGrid()
        for p in probePoints(probes) {
            for policy in [HitPolicy.frame, .shape] {
                let front = tester.hit(p, policy: policy, scratch: &scratch)
                let all = tester.hitAll(p, policy: policy)
                // VoiceOver's hit is the frontmost of hitAll; TalkBack's is
                // the hover's choice, one of them (an empty overlay in front
                // passes the hover to the node behind it, tree-format.md).
                let agrees = tree.platform == .android ? front.map(all.contains) ?? true : front == all.first
                guard agrees else { fatalError("hit and hitAll disagree at \(p)") }
                if grid && gridded.hit(p, policy: policy, scratch: &scratch) != front {
                    fatalError("the screen grid changes the answer at \(p)")
                }
            }
        }
        // Nor may a batch that reads the grid ahead (as `axhit hit` does).
        if grid {
            let points = probePoints(probes)
            var batch = [NodeID?](repeating: nil, count: points.count)
            points.withUnsafeBufferPointer { points in
                batch.withUnsafeMutableBufferPointer {
                    gridded.hit(points, policy: .frame, scratch: &scratch, into: $0, readingAhead: true)
                }
            }
            for (p, answer) in zip(points, batch) where answer != tester.hit(p, policy: .frame, scratch: &scratch) {
                fatalError("a batch read ahead changes the answer at \(p)")
            }
        }
    }

    /// A few points: fixed ones, and coordinates read from the input's bytes
    /// so that the fuzzer can steer them.
    static func probePoints(_ bytes: UnsafeBufferPointer<UInt8>) -> [CGPoint] {
        var points = [CGPoint(x: 0, y: 0), CGPoint(x: 5, y: 5), CGPoint(x: 50, y: 50), CGPoint(x: -1, y: 1e6)]
        var i = 0
        while i + 2 <= bytes.count && points.count < 12 {
            points.append(CGPoint(x: CGFloat(bytes[i]), y: CGFloat(bytes[i + 1])))
            i += max(2, bytes.count / 8)
        }
        return points
    }
}
