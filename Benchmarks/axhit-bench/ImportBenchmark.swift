import AXHit
import Foundation

/// `import/corpus`: reading real dumps with `ElementTree(contentsOf:)`, the
/// largest corpus file of each format, one `time-<format>` row each (the
/// tiled canvas's size does not matter: the files are read as they are).
///
/// `import/android`: the workload's tree written as a uiautomator dump
/// (`UIAutomatorText`) and read back, against the `axhit/1` reader on the
/// same tree (the one the dump reads as, written as axhit/1), in turns in
/// the same run (`axhit1-reader`).
enum ImportBenchmark {
    static func run(_ c: BenchContext) throws {
        switch c.workload.name {
        case "corpus": try runCorpus(c)
        case "android": try runAndroid(c)
        default: return
        }
    }

    /// Reads of each file: medians want many, and the files are small.
    static func corpusRepetitions(_ c: BenchContext) -> Int { c.share(c.settings.quick ? 21 : 101) }

    static func runCorpus(_ c: BenchContext) throws {
        // Run once, at the smallest size: the files do not grow with it.
        guard c.sizeName == Report.count(c.settings.sizes.min() ?? c.elements) else { return }
        let reps = corpusRepetitions(c)
        guard reps > 0 else { return }
        var largest: [TreeFormat: (url: URL, data: Data)] = [:]
        for url in try CorpusWorkload.files(c.settings.corpus) {
            guard let data = try? Data(contentsOf: url), let format = TreeFormat.detect(data) else { continue }
            if data.count > largest[format]?.data.count ?? -1 { largest[format] = (url, data) }
        }
        for format in TreeFormat.allCases {
            guard let (url, data) = largest[format] else { continue }
            let file = url.lastPathComponent
            let first = try ElementTree(contentsOf: data, file: file)
            c.log.log("  \(format.rawValue): \(file), \(data.count / 1024) KiB, \(first.count) nodes")
            var times: [Double] = []
            for _ in 0 ..< reps {
                let (tree, ns) = try Stopwatch.time { try ElementTree(contentsOf: data, file: file) }
                c.sink.consume(tree.count)
                times.append(ns / 1e6)
            }
            c.results.add(
                c.name("import"), "axhit", elements: first.count, metric: "time-\(format.rawValue)", unit: "ms",
                samples: times)
        }
    }

    static func runAndroid(_ c: BenchContext) throws {
        let name = c.name("import")
        let reps = c.share(c.settings.loadRepetitions(c.elements))
        guard reps > 0 else { return }
        let dump = try UIAutomatorText.dump(c.screen.tree)
        let first = try ElementTree(contentsOf: dump, file: "generated.xml")
        guard first.count == c.elements else {
            throw BenchError("\(name): read \(first.count) nodes from the dump, wrote \(c.elements)")
        }
        // The same tree: the one the dump reads as, written as axhit/1.
        let json = first.axhitJSON()
        c.log.log("  dump: \(dump.count / 1024) KiB; axhit/1 of the tree it reads as: \(json.count / 1024) KiB")
        var dumpTimes: [Double] = [], jsonTimes: [Double] = []
        // In turns, so that both see the same machine.
        for _ in 0 ..< reps {
            let (a, ns) = try Stopwatch.time { try ElementTree(contentsOf: dump, file: "generated.xml") }
            c.sink.consume(a.count)
            dumpTimes.append(ns / 1e6)
            let (b, ms) = try Stopwatch.time { try ElementTree(contentsOf: json, file: "generated.json") }
            c.sink.consume(b.count)
            jsonTimes.append(ms / 1e6)
        }
        c.results.add(name, "axhit", elements: c.elements, metric: "time", unit: "ms", samples: dumpTimes)
        c.results.add(name, "axhit1-reader", elements: c.elements, metric: "time", unit: "ms", samples: jsonTimes)
    }
}

/// A tree written as `uiautomator dump` writes a screen: nested `node`
/// elements in a `hierarchy`, each with its bounds in screen pixels as
/// `[left,top][right,bottom]`, its label as `text`, and its actions as the
/// clickable, long-clickable and focusable flags.
enum UIAutomatorText {
    static func dump(_ tree: ElementTree) throws -> Data {
        let tester = HitTester(tree)
        var out = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">"
        out.reserveCapacity(tree.count * 300)
        var open: [NodeID] = []
        for n in tree.preOrder {
            while let top = open.last, top != tree.parent(of: n) {
                out += "</node>"
                open.removeLast()
            }
            guard let frame = tester.accessibilityFrame(of: n) else {
                throw BenchError("import: no frame for \(tree.id(of: n))")
            }
            let node = try tree.node(n)
            let actions = node.actions
            func int(_ v: CGFloat) -> String { String(Int(v.rounded())) }
            out += "<node index=\"0\" text=\"\(escaped(node.accessibilityLabel ?? ""))\" resource-id=\"\" "
            out += "class=\"android.view.View\" package=\"bench\" content-desc=\"\" checkable=\"false\" "
            out += "checked=\"false\" clickable=\"\(actions.contains(.click))\" enabled=\"true\" "
            out += "focusable=\"\(actions.contains(.focus))\" focused=\"false\" scrollable=\"false\" "
            out += "long-clickable=\"\(actions.contains(.longClick))\" password=\"false\" selected=\"false\" "
            out += "visible-to-user=\"true\" bounds=\"[\(int(frame.minX)),\(int(frame.minY))]"
            out += "[\(int(frame.maxX)),\(int(frame.maxY))]\">"
            open.append(n)
        }
        out += String(repeating: "</node>", count: open.count) + "</hierarchy>"
        return Data(out.utf8)
    }

    static func escaped(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;")
    }
}
