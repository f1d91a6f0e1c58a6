import AXHit
import Foundation

/// `load/<workload>`: reading the tree back from `axhit/1` JSON text in
/// memory with the library's reader, against Foundation's JSONDecoder
/// decoding the same bytes into a Codable mirror, in the same run.
enum LoadBenchmark {
    static func run(_ c: BenchContext) throws {
        let name = c.name("load")
        guard c.workload.supportsLoad else {
            c.results.note(
                "\(name): skipped (too deep for Foundation's JSONDecoder, whose nesting limit is far below 100k)")
            return
        }
        let reps = c.share(c.settings.loadRepetitions(c.elements))
        guard reps > 0 else { return }
        let data = c.screen.tree.axhitJSON()
        c.log.log("  file: \(data.count / 1024) KiB (\(data.count / max(c.elements, 1)) bytes per element)")

        // The library's reader, if this build has it; a first read, untimed,
        // checks it.
        do {
            let first = try ElementTree(contentsOf: data, file: "generated")
            guard first.count == c.elements else {
                throw BenchError("\(name): read \(first.count) nodes back, wrote \(c.elements)")
            }
            var times: [Double] = []
            for _ in 0 ..< reps {
                let (tree, ns) = try Stopwatch.time { try ElementTree(contentsOf: data, file: "generated") }
                c.sink.consume(tree.count)
                times.append(ns / 1e6)
            }
            c.results.add(name, "axhit", elements: c.elements, metric: "time", unit: "ms", samples: times)
        } catch let error as TreeError {
            c.results.note("load: the axhit/1 reader failed (\(error)); only JSONDecoder measured")
        }

        var times: [Double] = []
        for _ in 0 ..< reps {
            let (file, ns) = try Stopwatch.time { try JSONDecoder().decode(AXHitFileMirror.self, from: data) }
            times.append(ns / 1e6)
            if times.count == 1 && file.nodeCount != c.elements {
                throw BenchError("\(name): JSONDecoder read \(file.nodeCount) nodes, wrote \(c.elements)")
            }
        }
        c.results.add(name, "jsondecoder", elements: c.elements, metric: "time", unit: "ms", samples: times)
    }
}
