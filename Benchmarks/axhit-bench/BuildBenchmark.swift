import AXHit
import Foundation

/// `build/<workload>`: resolving and indexing a whole tree (`HitTester(tree)`:
/// exposure, z-order, every wide view's index, paths filled), against a bare
/// packed Hilbert R-tree (flatbush's algorithm, `PackedRTree`) and GEOS's
/// STRtree bulk load over the same boxes, and the memory each holds per
/// element (resident growth, `MemoryProbe`; for axhit also its own count of
/// bytes beyond the tree).
enum BuildBenchmark {
    static func run(_ c: BenchContext) throws {
        let name = c.name("build")
        let reps = c.settings.repetitions(c.elements)
        let times = c.repeated(name) { rep in
            let before = MemoryProbe.residentAfterTrim()
            let start = Stopwatch.now()
            let tester = HitTester(c.screen.tree)
            let ms = Double(Stopwatch.now() - start) / 1e6
            if rep == 0 {
                // Held alive while measured; kept for the query operations.
                let bytes = MemoryProbe.residentAfterTrim() - before
                c.adopt(tester: tester)
                c.results.add(
                    name, "axhit", elements: c.elements, metric: "engine-bytes-per-element", unit: "bytes",
                    samples: [Double(tester.memoryBytes) / Double(c.elements)])
                if c.elements >= MemoryProbe.minimumElements {
                    c.results.add(
                        name, "axhit", elements: c.elements, metric: "bytes-per-element", unit: "bytes",
                        samples: [Double(bytes) / Double(c.elements)])
                    c.results.add(
                        name, "axhit", elements: c.elements, metric: "tree-bytes-per-element", unit: "bytes",
                        samples: [Double(c.treeBytes) / Double(c.elements)])
                }
            }
            return ms
        }
        c.results.add(name, "axhit", elements: c.elements, metric: "time", unit: "ms", samples: times)
        try runBuilder(c, name, repetitions: min(reps, 3))

        let flat = try c.flat()
        let baselineReps = c.share(min(reps, 3))
        var rtreeTimes: [Double] = []
        for _ in 0 ..< baselineReps {
            let start = Stopwatch.now()
            let tree = PackedRTree(boxes: flat.rects)
            rtreeTimes.append(Double(Stopwatch.now() - start) / 1e6)
            precondition(tree.count == flat.rects.count)
        }
        c.results.add(name, "flatbush", elements: c.elements, metric: "time", unit: "ms", samples: rtreeTimes)
        c.log.log("  geos-strtree: building over \(flat.rects.count) boxes x\(baselineReps)")
        var geosTimes: [Double] = []
        for rep in 0 ..< baselineReps {
            let before = MemoryProbe.residentAfterTrim()
            let start = Stopwatch.now()
            let g = try GEOSBaseline(flat)
            geosTimes.append(Double(Stopwatch.now() - start) / 1e6)
            if rep == 0 {
                let bytes = MemoryProbe.residentAfterTrim() - before
                c.adopt(geos: g)
                guard c.elements >= MemoryProbe.minimumElements else { continue }
                c.results.add(
                    name, "geos-strtree", elements: c.elements, metric: "bytes-per-element", unit: "bytes",
                    samples: [Double(bytes) / Double(c.elements)])
            }
        }
        c.results.add(name, "geos-strtree", elements: c.elements, metric: "time", unit: "ms", samples: geosTimes)
    }

    /// `builder-time` (ms): the same tree made again through the public
    /// builder, as a library user makes one: `ElementTree()`, then
    /// `append(node, under:)` for every node in pre-order, with no capacity
    /// reserved. The nodes are read out of the workload's tree beforehand,
    /// untimed. Guard: the copy has every node, under the same parents.
    ///
    /// `batch-builder-time` (ms): the same nodes added to a `NodeBatch` and
    /// appended in one call, both timed; the same guard.
    static func runBuilder(_ c: BenchContext, _ name: String, repetitions: Int) throws {
        let source = c.screen.tree
        var nodes: [Node] = [], parents: [Int32] = []
        // Per slot of the source: the node's place in `nodes`.
        var order = [Int32](repeating: -1, count: source.capacity)
        nodes.reserveCapacity(source.count)
        for id in source.preOrder {
            order[id.index] = Int32(nodes.count)
            nodes.append(try source.node(id))
            let parent = source.parent(of: id)
            parents.append(parent.isNone ? -1 : order[parent.index])
        }
        var times: [Double] = []
        for _ in 0 ..< max(1, c.share(repetitions)) {
            let start = Stopwatch.now()
            var tree = ElementTree()
            var made: [NodeID] = []
            made.reserveCapacity(nodes.count)
            for k in nodes.indices {
                made.append(try tree.append(nodes[k], under: parents[k] < 0 ? .none : made[Int(parents[k])]))
            }
            times.append(Double(Stopwatch.now() - start) / 1e6)
            guard tree.count == source.count else {
                throw BenchError("\(name): the builder made \(tree.count) nodes of \(source.count)")
            }
            for k in made.indices where tree.parent(of: made[k]) != (parents[k] < 0 ? .none : made[Int(parents[k])]) {
                throw BenchError("\(name): the builder put node \(k) under another parent")
            }
            c.sink.consume(tree.count)
        }
        c.results.add(name, "axhit", elements: c.elements, metric: "builder-time", unit: "ms", samples: times)

        // The same nodes through a `NodeBatch`: filled, then appended in one
        // call, both timed.
        var batchTimes: [Double] = []
        for _ in 0 ..< max(1, c.share(repetitions)) {
            let start = Stopwatch.now()
            var batch = NodeBatch()
            batch.reserveCapacity(nodes.count)
            for k in nodes.indices { try batch.append(nodes[k], under: parents[k] < 0 ? nil : Int(parents[k])) }
            var tree = ElementTree()
            let made = try tree.append(batch, under: .none)
            batchTimes.append(Double(Stopwatch.now() - start) / 1e6)
            guard tree.count == source.count, made.count == nodes.count else {
                throw BenchError("\(name): the batch made \(tree.count) nodes of \(source.count)")
            }
            for k in made.indices where tree.parent(of: made[k]) != (parents[k] < 0 ? .none : made[Int(parents[k])]) {
                throw BenchError("\(name): the batch put node \(k) under another parent")
            }
            c.sink.consume(tree.count)
        }
        c.results.add(
            name, "axhit", elements: c.elements, metric: "batch-builder-time", unit: "ms", samples: batchTimes)
    }
}
