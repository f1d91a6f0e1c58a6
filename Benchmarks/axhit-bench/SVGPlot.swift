import Foundation

/// `--svg`: per-query latency (p50, ns) against element count, log-log, one
/// panel per workload, one line per implementation (the engine's frame and
/// shape policies, and the frame baselines), with a shared legend.
enum SVGPlot {
    struct Series: Sendable {
        let label: String
        let color: String
        let dashed: Bool
        let match: @Sendable (ResultRow) -> Bool
    }

    static let series: [Series] = [
        Series(label: "axhit (frame)", color: "#d62728", dashed: false) {
            $0.implementation == "axhit" && $0.benchmark.hasPrefix("hit-frame/")
        },
        Series(label: "axhit (shape)", color: "#ff7f0e", dashed: true) {
            $0.implementation == "axhit" && $0.benchmark.hasPrefix("hit-shape/")
        },
        Series(label: "naive walk", color: "#1f77b4", dashed: false) {
            $0.implementation == "naive" && $0.benchmark.hasPrefix("hit-frame/")
        },
        Series(label: "flat scan", color: "#2ca02c", dashed: false) {
            $0.implementation == "flat-scan" && $0.benchmark.hasPrefix("hit-frame/")
        },
        Series(label: "GEOS STRtree", color: "#9467bd", dashed: false) {
            $0.implementation == "geos-strtree" && $0.benchmark.hasPrefix("hit-frame/")
        },
        Series(label: "uniform grid", color: "#8c564b", dashed: false) {
            $0.implementation == "uniform-grid" && $0.benchmark.hasPrefix("hit-frame/")
        },
        Series(label: "axhit touch", color: "#8c564b", dashed: false) {
            $0.implementation == "axhit" && $0.benchmark.hasPrefix("touch/")
        },
        Series(label: "naive hitTest", color: "#17becf", dashed: true) {
            $0.implementation == "naive" && $0.benchmark.hasPrefix("touch/")
        },
    ]

    static func render(_ allRows: [ResultRow]) -> String {
        // Only what a series draws: other latencies (updates) would stretch the axes.
        let rows = allRows.filter { r in r.metric == "latency" && r.p50 > 0 && series.contains { $0.match(r) } }
        var workloads: [String] = []
        for r in rows {
            let w = String(r.benchmark.split(separator: "/").last ?? "")
            if !workloads.contains(w) { workloads.append(w) }
        }
        let panelW = 300.0, panelH = 230.0, margin = 55.0, top = 70.0
        let columns = max(1, min(4, workloads.count))
        let gridRows = (workloads.count + columns - 1) / max(columns, 1)
        let width = Double(columns) * (panelW + margin) + margin,
            height = top + Double(max(gridRows, 1)) * (panelH + margin) + 20
        var s =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" font-family=\"sans-serif\" font-size=\"11\">\n"
        s += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        s +=
            "<text x=\"\(margin)\" y=\"22\" font-size=\"15\">axhit-bench: hit and touch latency p50 (ns per query) against elements, log-log</text>\n"
        var lx = margin
        for se in series {
            s +=
                "<line x1=\"\(lx)\" y1=\"42\" x2=\"\(lx + 24)\" y2=\"42\" stroke=\"\(se.color)\" stroke-width=\"2\"\(se.dashed ? " stroke-dasharray=\"5,3\"" : "")/>"
            s += "<text x=\"\(lx + 30)\" y=\"46\">\(se.label)</text>\n"
            lx += 135
        }
        guard !rows.isEmpty else {
            return s + "<text x=\"\(margin)\" y=\"\(top + 20)\">no latency measurements</text>\n</svg>\n"
        }
        // Shared decade ranges, so panels compare at a glance.
        let xs = rows.map { Double($0.elements) }, ys = rows.map(\.p50)
        let x0 = floor(log10(xs.min() ?? 1)), x1 = max(ceil(log10(xs.max() ?? 10)), x0 + 1)
        let y0 = floor(log10(ys.min() ?? 1)), y1 = max(ceil(log10(ys.max() ?? 10)), y0 + 1)
        for (k, w) in workloads.enumerated() {
            let ox = margin + Double(k % columns) * (panelW + margin),
                oy = top + Double(k / columns) * (panelH + margin)
            func px(_ v: Double) -> Double { ox + (log10(v) - x0) / (x1 - x0) * panelW }
            func py(_ v: Double) -> Double { oy + panelH - (log10(v) - y0) / (y1 - y0) * panelH }
            s +=
                "<g>\n<rect x=\"\(ox)\" y=\"\(oy)\" width=\"\(panelW)\" height=\"\(panelH)\" fill=\"none\" stroke=\"#888\"/>\n"
            s += "<text x=\"\(ox + 6)\" y=\"\(oy + 14)\" font-weight=\"bold\">\(w)</text>\n"
            for d in stride(from: x0, through: x1, by: 1) {
                let x = px(pow(10, d))
                s += "<line x1=\"\(x)\" y1=\"\(oy)\" x2=\"\(x)\" y2=\"\(oy + panelH)\" stroke=\"#eee\"/>"
                s += "<text x=\"\(x)\" y=\"\(oy + panelH + 14)\" text-anchor=\"middle\">\(label(d))</text>\n"
            }
            for d in stride(from: y0, through: y1, by: 1) {
                let y = py(pow(10, d))
                s += "<line x1=\"\(ox)\" y1=\"\(y)\" x2=\"\(ox + panelW)\" y2=\"\(y)\" stroke=\"#eee\"/>"
                s += "<text x=\"\(ox - 4)\" y=\"\(y + 4)\" text-anchor=\"end\">\(label(d))</text>\n"
            }
            s += "<text x=\"\(ox + panelW / 2)\" y=\"\(oy + panelH + 30)\" text-anchor=\"middle\">elements</text>\n"
            s +=
                "<text transform=\"translate(\(ox - 38),\(oy + panelH / 2)) rotate(-90)\" text-anchor=\"middle\">ns per query</text>\n"
            for se in series {
                let pts = rows.filter { se.match($0) && $0.benchmark.hasSuffix("/" + w) }
                    .sorted { $0.elements < $1.elements }
                    .map { (px(Double($0.elements)), py($0.p50)) }
                guard !pts.isEmpty else { continue }
                let path = pts.map { String(format: "%.1f,%.1f", $0.0, $0.1) }.joined(separator: " ")
                s +=
                    "<polyline points=\"\(path)\" fill=\"none\" stroke=\"\(se.color)\" stroke-width=\"2\"\(se.dashed ? " stroke-dasharray=\"5,3\"" : "")/>"
                for p in pts {
                    s += String(format: "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%@\"/>", p.0, p.1, se.color)
                }
                s += "\n"
            }
            s += "</g>\n"
        }
        return s + "</svg>\n"
    }

    /// 10^d as 1, 10, 100, 1k, 10k, ..., 1M, 10M, 1G.
    static func label(_ d: Double) -> String {
        let v = Int(pow(10, d).rounded())
        if v >= 1_000_000_000 { return "\(v / 1_000_000_000)G" }
        if v >= 1_000_000 { return "\(v / 1_000_000)M" }
        if v >= 1_000 { return "\(v / 1_000)k" }
        return String(v)
    }
}
