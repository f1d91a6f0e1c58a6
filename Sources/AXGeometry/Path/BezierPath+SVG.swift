import Foundation

extension BezierPath {
    /// Parses SVG path data (the whole grammar: `M L H V C S Q T A Z`,
    /// absolute and relative, implicit repeats) into a path in the data's own
    /// coordinate space, with fill rule `.nonZero`.
    ///
    /// Relative commands become absolute points, `S`/`T` reflections are
    /// resolved, and arcs become cubic Béziers (at most 90° each) as
    /// UIBezierPath does. A drawing command after `Z` starts a new subpath at
    /// the closed subpath's start (an explicit `move` is inserted). The empty
    /// string (or only whitespace) is the empty path.
    ///
    /// - Complexity: O(n) in the length of `svgPathData`.
    /// - Throws: `GeometryError.pathSyntax(offset:expected:found:)` at the
    ///   first character that breaks the grammar (data not starting with
    ///   `M`/`m`, a missing number, a stray comma, an unknown letter), and
    ///   `GeometryError.nonFiniteCoordinate(offset:)` for a number that
    ///   overflows (`1e999`) or a relative coordinate whose sum does. Offsets
    ///   are zero-based, in Unicode scalars.
    public init(svgPathData: String) throws(GeometryError) {
        self = try SVGPathParser.parse(svgPathData)
    }

    /// The path as SVG path data with absolute `M L Q C Z` commands only,
    /// in the path's coordinate space, e.g. `M10 10L20 0.5Z`.
    ///
    /// Numbers are written in their shortest form that parses back to the
    /// same double (`10`, not `10.0`; `1e-5`), so `BezierPath(svgPathData:)`
    /// restores a path built by the builder methods or the parser exactly
    /// (the fill rule is not part of path data). A non-finite coordinate is
    /// written as `nan`/`inf`, which does not parse. O(n).
    public var svgPathData: String {
        var out = ""
        out.reserveCapacity(elements.count * 16)
        var hasCurrentPoint = false
        var isOpen = false
        func put(_ command: Character, _ points: CGPoint...) {
            out.append(command)
            for (k, p) in points.enumerated() {
                if k > 0 { out.append(" ") }
                out.append(Self.svgNumber(p.x))
                out.append(" ")
                out.append(Self.svgNumber(p.y))
            }
        }
        for e in elements {
            switch e {
            case let .move(p):
                put("M", p)
            case let .line(p):
                put(hasCurrentPoint ? "L" : "M", p)
            case let .quadCurve(p, c):
                if hasCurrentPoint { put("Q", c, p) } else { put("M", p) }
            case let .curve(p, c1, c2):
                if hasCurrentPoint { put("C", c1, c2, p) } else { put("M", p) }
            case .closeSubpath:
                if isOpen { out.append("Z") }
                isOpen = false
                continue
            }
            hasCurrentPoint = true
            isOpen = true
        }
        return out
    }

    /// The shortest text that parses back to exactly `x`: integers without
    /// a fraction, other values as Swift's shortest round-trip form with the
    /// exponent trimmed (`1e-05` becomes `1e-5`, `1e+20` becomes `1e20`).
    static func svgNumber(_ x: CGFloat) -> String {
        let v = Double(x)
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        var s = v.description
        if let e = s.firstIndex(of: "e") {
            var mantissa = String(s[..<e])
            if mantissa.hasSuffix(".0") { mantissa.removeLast(2) }
            let exponent = Int(s[s.index(after: e)...]) ?? 0
            s = mantissa + "e" + String(exponent)
        } else if s.hasSuffix(".0") {
            s.removeLast(2)
        }
        return s
    }
}
