import Foundation

/// Draws a screen as an SVG picture: every view's bounds faintly, every
/// exposed element's frame and shape coloured by its worst finding (the
/// shape's tooltip, a `<title>`, is what the screen reader says there), the
/// activation points by status, the suggested points, the views that take
/// obstructed taps, the regions behind findings, and a legend; beside it,
/// the two maps of where a finger lands: the focus map (each element's
/// region, numbered in navigation order) and the touch map (each view's).
///
/// Coordinates are screen points (the picture's user units); the map panels
/// and the legend sit to the right of the screen.
public enum SVGRenderer {
    /// The picture as SVG text.
    ///
    /// - Parameters:
    ///   - analysis: The analysed screen.
    ///   - findings: The audit's findings (`Auditor.findings`), or none.
    ///   - title: A caption (a file name), or nil.
    /// - Complexity: O(n + vertices of the drawn regions), plus the maps
    ///   (`HitTester.focusMap()`, `touchMap()`) and the navigation order.
    /// - Throws: `TreeError` (`.validation`, key `screen.bounds`) when the
    ///   picture would be larger than `maximumExtent` units across, where
    ///   its numbers would stop being exact (or exist).
    public static func svg(
        _ analysis: ScreenAnalysis, findings: [AuditFinding], title: String? = nil
    ) throws(TreeError) -> String {
        var r = Renderer(analysis: analysis, findings: findings)
        return try r.draw(title: title)
    }

    /// The largest picture drawn, in screen units across (or from the origin).
    public static let maximumExtent = 1e12
}

private struct Renderer {
    let analysis: ScreenAnalysis
    let findings: [AuditFinding]
    var out = ""

    init(analysis: ScreenAnalysis, findings: [AuditFinding]) {
        self.analysis = analysis
        self.findings = findings
    }

    var tree: ElementTree { analysis.tree }

    static let errorColour = "#d7263d", warningColour = "#f49d37", okColour = "#1b998b"
    static let lostColour = "#5c5c5c", suggestedColour = "#2e86ff", receiverColour = "#b43fd9"

    mutating func draw(title: String?) throws(TreeError) -> String {
        let root = tree.root
        var screen = tree.screenBounds ?? (root.isNone ? .null : analysis.space.accessibilityFrame(of: root))
        if screen.isNull || !(screen.width > 0 && screen.height > 0) {
            screen = CGRect(x: 0, y: 0, width: 390, height: 844)
        }
        // Strokes and text scale with the screen so every size reads alike.
        let unit = max(Double(max(screen.width, screen.height)) / 844, 0.25)
        let legendWidth = 300 * unit
        // One panel per map, each the screen's size, a gap apart.
        let pitch = Double(screen.width) + 16 * unit
        let minX = Double(screen.minX), minY = Double(screen.minY)
        let width = Double(screen.width) + 2 * pitch + legendWidth, height = max(Double(screen.height), 360 * unit)
        let extent = [abs(minX), abs(minY), width, height].max() ?? 0
        guard extent < SVGRenderer.maximumExtent else {
            throw TreeError(
                .validation,
                "the screen \(Auditor.text(screen)) is too large to draw: the picture would be "
                    + "more than \(Auditor.text(SVGRenderer.maximumExtent)) units across", key: "screen.bounds")
        }
        out += "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"\(n(minX)) \(n(minY)) \(n(width)) \(n(height))\" "
        out +=
            "width=\"\(n(width / unit))\" height=\"\(n(height / unit))\" font-family=\"Helvetica, Arial, sans-serif\">\n"
        out +=
            "<rect x=\"\(n(minX))\" y=\"\(n(minY))\" width=\"\(n(width))\" height=\"\(n(height))\" fill=\"#ffffff\"/>\n"
        out +=
            "<rect x=\"\(n(screen.minX))\" y=\"\(n(screen.minY))\" width=\"\(n(screen.width))\" height=\"\(n(screen.height))\" fill=\"#f4f4f6\" stroke=\"#222\" stroke-width=\"\(n(unit))\"/>\n"

        // Layout: every drawn view's bounds, faint.
        out += "<g fill=\"none\" stroke=\"#b9bcc6\" stroke-width=\"\(n(0.5 * unit))\">\n"
        for v in tree.preOrder where tree.isView(v) && analysis.space.resolved[v.index].contains(.invertible) {
            path(Region.quad(tree.bounds(of: v), analysis.space.toScreen[v.index]), attributes: "")
        }
        out += "</g>\n"

        var worst: [NodeID: AuditSeverity] = [:]
        for f in findings { worst[f.element] = min(worst[f.element] ?? f.severity, f.severity) }
        func colour(_ e: NodeID) -> String {
            switch worst[e] {
            case .error?: return Self.errorColour
            case .warning?: return Self.warningColour
            case .info?, nil: return Self.okColour
            }
        }

        // Shapes, each with what the screen reader says there as its
        // tooltip; then frames.
        let spoken = spokenText()
        out += "<g fill-opacity=\"0.16\" stroke-width=\"\(n(unit))\">\n"
        for a in analysis.elements {
            let c = colour(a.element)
            if a.pathOverBudget != nil {
                unfilledPath(of: a.element, attributes: "fill=\"\(c)\" stroke=\"\(c)\"", title: spoken[a.element])
            } else {
                path(a.shape, attributes: "fill=\"\(c)\" stroke=\"\(c)\"", title: spoken[a.element])
            }
        }
        out +=
            "</g>\n<g fill=\"none\" stroke-dasharray=\"\(n(4 * unit)) \(n(2 * unit))\" stroke-width=\"\(n(0.8 * unit))\">\n"
        for a in analysis.elements {
            let f = analysis.space.accessibilityFrame(of: a.element)
            if f.width > 0 && f.height > 0 { path(.rect(of: f), attributes: "stroke=\"\(colour(a.element))\"") }
        }
        out += "</g>\n"

        // Regions behind findings: covered parts, duplicate bounds, small
        // touch targets (on Android, nodes that may not be exposed).
        out += "<g fill-opacity=\"0.35\" stroke=\"none\">\n"
        for f in findings where [.covered, .duplicateBounds, .smallTouchTarget].contains(f.rule) {
            if let g = f.geometry {
                path(g, attributes: "fill=\"\(f.severity == .error ? Self.errorColour : Self.warningColour)\"")
            }
        }
        out += "</g>\n"

        // Receivers of obstructed taps, with the tap's path to them.
        out += "<g fill=\"none\" stroke=\"\(Self.receiverColour)\" stroke-width=\"\(n(1.6 * unit))\">\n"
        var outlined = Set<NodeID>()
        for a in analysis.elements where a.status == .obstructed {
            guard let r = a.receiver else { continue }
            if outlined.insert(r).inserted {
                path(
                    Region.quad(tree.bounds(of: r), analysis.space.toScreen[r.index]),
                    attributes: "stroke-dasharray=\"\(n(2 * unit)) \(n(2 * unit))\"")
            }
        }
        out += "</g>\n"

        // Suggested points, linked to the activation point they replace.
        out += "<g stroke=\"\(Self.suggestedColour)\" stroke-width=\"\(n(unit))\">\n"
        for a in analysis.elements {
            guard let s = a.suggested else { continue }
            if a.status != .ok || a.outside {
                out +=
                    "<line x1=\"\(n(a.activationPoint.x))\" y1=\"\(n(a.activationPoint.y))\" x2=\"\(n(s.x))\" y2=\"\(n(s.y))\" stroke-dasharray=\"\(n(2 * unit)) \(n(1.5 * unit))\"/>\n"
            }
            diamond(s, 3.5 * unit)
        }
        out += "</g>\n"

        // Activation points by status; a ring marks a point outside the shape.
        for a in analysis.elements {
            let c: String
            switch a.status {
            case .ok: c = Self.okColour
            case .obstructed: c = Self.errorColour
            case .lost: c = Self.lostColour
            }
            out +=
                "<circle cx=\"\(n(a.activationPoint.x))\" cy=\"\(n(a.activationPoint.y))\" r=\"\(n(2.8 * unit))\" fill=\"\(c)\" stroke=\"#fff\" stroke-width=\"\(n(0.6 * unit))\"/>\n"
            if a.outside {
                out +=
                    "<circle cx=\"\(n(a.activationPoint.x))\" cy=\"\(n(a.activationPoint.y))\" r=\"\(n(5 * unit))\" fill=\"none\" stroke=\"\(c)\" stroke-width=\"\(n(0.8 * unit))\"/>\n"
            }
        }

        // Ids of the flagged elements, so the text report can be matched up.
        out +=
            "<g font-size=\"\(n(7 * unit))\" fill=\"#111\" stroke=\"#fff\" stroke-width=\"\(n(0.25 * unit))\" paint-order=\"stroke\">\n"
        for a in analysis.elements where worst[a.element] != nil {
            let f = analysis.space.accessibilityFrame(of: a.element)
            guard f.width > 0 && f.height > 0 else { continue }
            out +=
                "<text x=\"\(n(f.minX + unit))\" y=\"\(n(f.minY + 7.5 * unit))\">\(escape(tree.id(of: a.element)))</text>\n"
        }
        out += "</g>\n"

        mapPanels(screen: screen, pitch: pitch, unit: unit)

        let legendX = Double(screen.maxX) + 2 * pitch + 12 * unit
        var legendTop = Double(screen.minY) + 4 * unit
        if let title {
            // Smaller for a long name, so that it stays in the legend's column
            // (about 0.6 em a character).
            let size = min(12, 280 / (0.6 * Double(max(title.count, 1)))) * unit
            out +=
                "<text x=\"\(n(legendX))\" y=\"\(n(legendTop + 10 * unit))\" font-size=\"\(n(size))\" fill=\"#222\">\(escape(title))</text>\n"
            legendTop += 24 * unit
        }
        legend(x: legendX, y: legendTop, unit: unit)
        out += "</svg>\n"
        return out
    }

    /// What the screen reader says at each exposed element (tree-format.md,
    /// "What the screen reader says"), as a tooltip's text: the description,
    /// then the hint on a line of its own; none where it says nothing. From
    /// the transcript; where the order cannot be made (an invalid
    /// `accessibilityElements`, which the focus map's panel reports), from
    /// each element's speech alone, and none for an element whose speech
    /// needs the order (a tab).
    func spokenText() -> [NodeID: String] {
        var tester = analysis.tester
        let speeches =
            (try? tester.transcript())
            ?? analysis.elements.compactMap { a in try? tester.speech(of: a.element) }
        var text: [NodeID: String] = [:]
        for s in speeches where text[s.element] == nil {
            let lines = [s.description, s.hint ?? ""].filter { !$0.isEmpty }
            if !lines.isEmpty { text[s.element] = lines.map(escape).joined(separator: "\n") }
        }
        return text
    }

    /// The focus map and the touch map, each in a copy of the screen to the
    /// right of it (`pitch` apart): every region in a colour of its own,
    /// outlined; the focus map's regions numbered in navigation order.
    mutating func mapPanels(screen: CGRect, pitch: Double, unit: Double) {
        var tester = analysis.tester
        let panels: [(title: String, map: Result<[MapRegion], TreeError>)] = [
            (
                "Focus map: where a finger lands (numbers: swipe order)",
                Result { () throws(TreeError) in try tester.focusMap() }
            ),
            ("Touch map: which node a tap reaches", Result { () throws(TreeError) in try tester.touchMap() }),
        ]
        // Without an order the focus map is still right; the panel says why
        // its regions are not numbered.
        let order = Result { () throws(TreeError) in try tester.navigationOrder() }
        var rank: [NodeID: Int] = [:]
        if case let .success(order) = order {
            for (i, e) in order.enumerated() where rank[e] == nil { rank[e] = i }
        }
        for (k, panel) in panels.enumerated() {
            let dx = pitch * Double(k + 1)
            out += "<g id=\"\(k == 0 ? "focus-map" : "touch-map")\" transform=\"translate(\(n(dx)) 0)\">\n"
            out +=
                "<rect x=\"\(n(screen.minX))\" y=\"\(n(screen.minY))\" width=\"\(n(screen.width))\" height=\"\(n(screen.height))\" fill=\"#f4f4f6\" stroke=\"#222\" stroke-width=\"\(n(unit))\"/>\n"
            switch panel.map {
            case let .success(map):
                out += "<g fill-opacity=\"0.6\" stroke=\"#fff\" stroke-width=\"\(n(0.6 * unit))\">\n"
                for r in map { polygons(r.polygons, attributes: "fill=\"\(Self.colour(of: r.node))\"") }
                out += "</g>\n"
                if k == 0 {
                    // Each element's place in the swipe order, at the top left of its region.
                    out +=
                        "<g font-size=\"\(n(8 * unit))\" fill=\"#111\" stroke=\"#fff\" stroke-width=\"\(n(0.3 * unit))\" paint-order=\"stroke\">\n"
                    for r in map {
                        guard let i = rank[r.node],
                            let corner = r.polygons.first?.first?.min(by: { ($0.y, $0.x) < ($1.y, $1.x) })
                        else { continue }
                        out += "<text x=\"\(n(corner.x + unit))\" y=\"\(n(corner.y + 8 * unit))\">\(i + 1)</text>\n"
                    }
                    out += "</g>\n"
                    if case let .failure(error) = order {
                        out +=
                            "<text x=\"\(n(screen.minX + 4 * unit))\" y=\"\(n(screen.minY + 24 * unit))\" font-size=\"\(n(9 * unit))\" fill=\"\(Self.errorColour)\">\(escape("no swipe order: \(error)"))</text>\n"
                    }
                }
            case let .failure(error):
                out +=
                    "<text x=\"\(n(screen.minX + 4 * unit))\" y=\"\(n(screen.midY))\" font-size=\"\(n(9 * unit))\" fill=\"\(Self.errorColour)\">\(escape("no map: \(error)"))</text>\n"
            }
            out +=
                "<text x=\"\(n(screen.minX + 4 * unit))\" y=\"\(n(screen.minY + 12 * unit))\" font-size=\"\(n(10 * unit))\" fill=\"#222\" stroke=\"#fff\" stroke-width=\"\(n(2 * unit))\" paint-order=\"stroke\">\(escape(panel.title))</text>\n"
            out += "</g>\n"
        }
    }

    /// A colour of its own for each node (a hue from its slot), so
    /// neighbouring regions differ.
    static func colour(of node: NodeID) -> String {
        let hue = (Int(node.rawValue) &* 137) % 360
        return "hsl(\((hue + 360) % 360), 62%, \(node.rawValue % 2 == 0 ? 58 : 70)%)"
    }

    /// Draws `polygons`; `title`, escaped text, is the path's tooltip.
    mutating func polygons(_ polygons: [[[CGPoint]]], attributes: String, title: String? = nil) {
        guard !polygons.isEmpty else { return }
        var d = ""
        for polygon in polygons {
            for ring in polygon {
                for (i, p) in ring.enumerated() { d += "\(i == 0 ? "M" : "L")\(n(p.x)) \(n(p.y))" }
                d += "Z"
            }
        }
        out += "<path d=\"\(d)\" fill-rule=\"evenodd\" \(attributes)"
        close("path", title: title)
    }

    /// Ends the element `name` whose attributes were just written: with
    /// `title` (escaped text) as its `<title>` child, else empty.
    mutating func close(_ name: String, title: String?) {
        if let title {
            out += "><title>\(title)</title></\(name)>\n"
        } else {
            out += "/>\n"
        }
    }

    mutating func legend(x: Double, y: Double, unit: Double) {
        var y = y
        let size = 11 * unit
        func line(_ text: String) -> String {
            "<text x=\"\(n(x + 18 * unit))\" y=\"\(n(y + 4 * unit))\" font-size=\"\(n(size))\" fill=\"#222\">\(escape(text))</text>\n"
        }
        out +=
            "<text x=\"\(n(x))\" y=\"\(n(y + 6 * unit))\" font-size=\"\(n(13 * unit))\" font-weight=\"bold\" fill=\"#222\">Legend</text>\n"
        y += 24 * unit
        for (c, text) in [
            (Self.okColour, "element without findings"), (Self.warningColour, "element with a warning"),
            (Self.errorColour, "element with an error"),
        ] {
            out +=
                "<rect x=\"\(n(x))\" y=\"\(n(y - 5 * unit))\" width=\"\(n(12 * unit))\" height=\"\(n(10 * unit))\" fill=\"\(c)\" fill-opacity=\"0.16\" stroke=\"\(c)\" stroke-width=\"\(n(unit))\"/>\n"
            out += line(text + ": shape")
            y += 17 * unit
        }
        out +=
            "<rect x=\"\(n(x))\" y=\"\(n(y - 5 * unit))\" width=\"\(n(12 * unit))\" height=\"\(n(10 * unit))\" fill=\"none\" stroke=\"#555\" stroke-dasharray=\"\(n(4 * unit)) \(n(2 * unit))\" stroke-width=\"\(n(0.8 * unit))\"/>\n"
        out += line("accessibility frame (dashed)")
        y += 17 * unit
        for (c, text) in [
            (Self.okColour, "activation point: tap reaches it"), (Self.errorColour, "activation point: obstructed"),
            (Self.lostColour, "activation point: lost"),
        ] {
            out += "<circle cx=\"\(n(x + 6 * unit))\" cy=\"\(n(y))\" r=\"\(n(2.8 * unit))\" fill=\"\(c)\"/>\n"
            out += line(text)
            y += 17 * unit
        }
        out +=
            "<circle cx=\"\(n(x + 6 * unit))\" cy=\"\(n(y))\" r=\"\(n(5 * unit))\" fill=\"none\" stroke=\"#555\" stroke-width=\"\(n(0.8 * unit))\"/>\n"
        out += line("ring: point outside the shape")
        y += 17 * unit
        out += "<g stroke=\"\(Self.suggestedColour)\" stroke-width=\"\(n(unit))\">"
        diamond(CGPoint(x: x + 6 * unit, y: y), 3.5 * unit)
        out += "</g>\n" + line("suggested point (centre of the largest")
        y += 13 * unit
        out += line("reachable circle), dashed from the old point")
        y += 17 * unit
        out +=
            "<rect x=\"\(n(x))\" y=\"\(n(y - 5 * unit))\" width=\"\(n(12 * unit))\" height=\"\(n(10 * unit))\" fill=\"none\" stroke=\"\(Self.receiverColour)\" stroke-dasharray=\"\(n(2 * unit)) \(n(2 * unit))\" stroke-width=\"\(n(1.6 * unit))\"/>\n"
        out += line("view that takes an obstructed tap")
        y += 17 * unit
        out +=
            "<rect x=\"\(n(x))\" y=\"\(n(y - 5 * unit))\" width=\"\(n(12 * unit))\" height=\"\(n(10 * unit))\" fill=\"\(Self.warningColour)\" fill-opacity=\"0.35\"/>\n"
        out += line("overlap / stray path / off screen")
        y += 17 * unit
        out +=
            "<rect x=\"\(n(x))\" y=\"\(n(y - 5 * unit))\" width=\"\(n(12 * unit))\" height=\"\(n(10 * unit))\" fill=\"none\" stroke=\"#b9bcc6\" stroke-width=\"\(n(0.5 * unit))\"/>\n"
        out += line("view bounds")
        y += 24 * unit
        let errors = findings.filter { $0.severity == .error }.count
        let obstructed = analysis.elements.filter { $0.status == .obstructed }.count
        let lost = analysis.elements.filter { $0.status == .lost }.count
        for text in [
            "\(analysis.elements.count) exposed elements",
            "\(obstructed) obstructed, \(lost) lost activations",
            "\(findings.count) findings (\(errors) errors)",
        ] {
            out += "<text x=\"\(n(x))\" y=\"\(n(y))\" font-size=\"\(n(size))\" fill=\"#222\">\(escape(text))</text>\n"
            y += 14 * unit
        }
    }

    mutating func diamond(_ p: CGPoint, _ r: Double) {
        let x = Double(p.x), y = Double(p.y)
        out +=
            "<path d=\"M\(n(x)) \(n(y - r))L\(n(x + r)) \(n(y))L\(n(x)) \(n(y + r))L\(n(x - r)) \(n(y))Z\" fill=\"\(Self.suggestedColour)\"/>\n"
    }

    /// Draws `region`; `title`, escaped text, is its tooltip.
    mutating func path(_ region: Region, attributes: String, title: String? = nil) {
        switch region {
        case let .rect(r):
            guard !region.isEmpty else { return }
            out +=
                "<rect x=\"\(n(r.minX))\" y=\"\(n(r.minY))\" width=\"\(n(r.width))\" height=\"\(n(r.height))\" \(attributes)"
            close("rect", title: title)
        case let .polygons(set):
            polygons(set.polygons, attributes: attributes, title: title)
        }
    }

    /// An element whose path was not filled (`pathOverBudget`), drawn by
    /// what is known: the path itself, as SVG fills it by its rule. Not
    /// drawn when its control points reach past `maximumExtent`, where the
    /// picture's numbers stop being exact (its frame is drawn regardless).
    mutating func unfilledPath(of e: NodeID, attributes: String, title: String? = nil) {
        guard let p = analysis.space.screenPath(of: e) else { return }
        let box = p.controlPointBounds
        guard !box.isNull,
            [box.minX, box.maxX, box.minY, box.maxY].allSatisfy({ Double(abs($0)) < SVGRenderer.maximumExtent })
        else { return }
        let rule = p.fillRule == .evenOdd ? "evenodd" : "nonzero"
        out += "<path d=\"\(p.svgPathData)\" fill-rule=\"\(rule)\" \(attributes)"
        close("path", title: title)
    }

    func n(_ v: CGFloat) -> String { n(Double(v)) }

    /// A coordinate with at most two decimals: plenty for a picture, and short.
    func n(_ v: Double) -> String {
        guard v.isFinite else { return "0" }
        let r = abs(v) < 1e15 ? (v * 100).rounded() / 100 : v
        if r == r.rounded(), abs(r) < 1e15 { return String(Int64(r)) }
        return String(r)
    }

    /// `s` as XML text: markup characters escaped, and what XML 1.0 forbids
    /// (C0 controls, U+FFFE, U+FFFF) replaced, so that no id or label makes
    /// the picture unparseable.
    func escape(_ s: String) -> String {
        var out = ""
        for ch in s.unicodeScalars {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case _ where ch.value < 0x20: out += " "
            case "\u{FFFE}", "\u{FFFF}": out += "\u{FFFD}"
            default: out.unicodeScalars.append(ch)
            }
        }
        return out
    }
}
