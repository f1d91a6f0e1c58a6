import Foundation

/// A single-pass parser of SVG path data (the `d` attribute) over UTF-8 bytes.
///
/// Follows the SVG 1.1 path grammar (section 8.3.9): commands `M L H V C S
/// Q T A Z` in both cases, implicit repeats (further pairs after `M`/`m` are
/// `L`/`l`), numbers such as `.5.5` (two numbers), `-5-5`, `+3`, `1e-3`, and
/// arc flags written without separators (`a1 1 0 001 1`). Relative commands
/// are resolved to absolute points as they are read, `S`/`T` reflections are
/// resolved, and arcs become cubic Béziers, so the result holds only
/// `move`, `line`, `quadCurve`, `curve` and `closeSubpath`.
///
/// Leniencies, each following a rule of the SVG implementation notes: a
/// negative arc radius counts as positive (F.6.6.1). A second `Z` right after
/// a `Z` adds nothing.
///
/// Never traps on any input: every read checks the bound, and numbers are
/// validated against the grammar before conversion. O(n) in the data length.
struct SVGPathParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let count: Int
    private var i = 0
    private var path = BezierPath()
    private var current = CGPoint.zero
    private var subpathStart = CGPoint.zero
    /// After `Z`: the next drawing command first moves to `subpathStart`.
    private var needsMove = false
    /// The control point an `S` reflects: set only right after `C` or `S`.
    private var lastCubicControl: CGPoint?
    /// The control point a `T` reflects: set only right after `Q` or `T`.
    private var lastQuadControl: CGPoint?

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        self.count = bytes.count
    }

    /// Parses `data` into absolute path elements (fill rule `.nonZero`).
    /// Throws `GeometryError.pathSyntax` at the first character that breaks
    /// the grammar and `.nonFiniteCoordinate` for a number (or a resolved
    /// relative coordinate) that overflows. Offsets count Unicode scalars.
    static func parse(_ data: String) throws(GeometryError) -> BezierPath {
        var data = data
        let result: Result<BezierPath, GeometryError> = data.withUTF8 { buffer in
            var parser = SVGPathParser(bytes: buffer)
            do throws(GeometryError) { return .success(try parser.run()) } catch { return .failure(error) }
        }
        return try result.get()
    }

    // MARK: Grammar

    private mutating func run() throws(GeometryError) -> BezierPath {
        skipWhitespace()
        guard i < count else { return path }
        guard peek == UInt8(ascii: "M") || peek == UInt8(ascii: "m") else {
            throw fail(expected: "moveto command (M or m)")
        }
        while true {
            skipWhitespace()
            guard i < count else { break }
            var command = peek
            guard Self.isCommand(command) else { throw fail(expected: "command") }
            i += 1
            if command == UInt8(ascii: "Z") || command == UInt8(ascii: "z") {
                closePath()
                continue
            }
            skipWhitespace()
            while true {
                try execute(command)
                // Further argument groups repeat the command; after a moveto they are linetos.
                if command == UInt8(ascii: "M") { command = UInt8(ascii: "L") }
                if command == UInt8(ascii: "m") { command = UInt8(ascii: "l") }
                let sawComma = skipCommaWhitespace()
                if i < count && Self.isNumberStart(peek) { continue }
                if sawComma { throw fail(expected: "number") }
                if i < count && !Self.isCommand(peek) { throw fail(expected: "command or number") }
                break
            }
        }
        return path
    }

    private mutating func execute(_ command: UInt8) throws(GeometryError) {
        let isRelative = command >= UInt8(ascii: "a")
        switch command | 0x20 {  // lower-cased
        case UInt8(ascii: "m"):
            let p = try readPoint(relative: isRelative)
            path.elements.append(.move(to: p))
            current = p
            subpathStart = p
            needsMove = false
            clearReflections()
        case UInt8(ascii: "l"):
            let p = try readPoint(relative: isRelative)
            lineTo(p)
        case UInt8(ascii: "h"):
            let start = i
            let x = try readNumber() + (isRelative ? current.x : 0)
            guard x.isFinite else { throw nonFinite(at: start) }
            lineTo(CGPoint(x: x, y: current.y))
        case UInt8(ascii: "v"):
            let start = i
            let y = try readNumber() + (isRelative ? current.y : 0)
            guard y.isFinite else { throw nonFinite(at: start) }
            lineTo(CGPoint(x: current.x, y: y))
        case UInt8(ascii: "c"):
            let c1 = try readPoint(relative: isRelative)
            skipSeparator()
            let c2 = try readPoint(relative: isRelative)
            skipSeparator()
            let p = try readPoint(relative: isRelative)
            curveTo(p, c1, c2)
        case UInt8(ascii: "s"):
            let start = i
            let c1 = try reflection(of: lastCubicControl, at: start)
            let c2 = try readPoint(relative: isRelative)
            skipSeparator()
            let p = try readPoint(relative: isRelative)
            curveTo(p, c1, c2)
        case UInt8(ascii: "q"):
            let c = try readPoint(relative: isRelative)
            skipSeparator()
            let p = try readPoint(relative: isRelative)
            quadTo(p, c)
        case UInt8(ascii: "t"):
            let start = i
            let c = try reflection(of: lastQuadControl, at: start)
            let p = try readPoint(relative: isRelative)
            quadTo(p, c)
        case UInt8(ascii: "a"):
            let rx = try readNumber()
            skipSeparator()
            let ry = try readNumber()
            skipSeparator()
            let rotation = try readNumber()
            skipSeparator()
            let largeArc = try readFlag()
            skipSeparator()
            let sweep = try readFlag()
            skipSeparator()
            let p = try readPoint(relative: isRelative)
            clearReflections()
            // F.6.2: identical end points omit the arc entirely.
            guard p != current else { return }
            beginDrawing()
            path.appendSVGArc(
                from: current, to: p, radiusX: rx, radiusY: ry,
                xAxisRotation: rotation, largeArc: largeArc, sweep: sweep)
            current = p
        default:
            // Unreachable: `run` only passes command letters.
            throw fail(expected: "command")
        }
    }

    // MARK: Path state

    private mutating func beginDrawing() {
        if needsMove {
            path.elements.append(.move(to: current))
            needsMove = false
        }
    }

    private mutating func lineTo(_ p: CGPoint) {
        beginDrawing()
        path.elements.append(.line(to: p))
        current = p
        clearReflections()
    }

    private mutating func curveTo(_ p: CGPoint, _ c1: CGPoint, _ c2: CGPoint) {
        beginDrawing()
        path.elements.append(.curve(to: p, control1: c1, control2: c2))
        current = p
        lastCubicControl = c2
        lastQuadControl = nil
    }

    private mutating func quadTo(_ p: CGPoint, _ c: CGPoint) {
        beginDrawing()
        path.elements.append(.quadCurve(to: p, control: c))
        current = p
        lastQuadControl = c
        lastCubicControl = nil
    }

    private mutating func closePath() {
        // A `Z` right after a `Z` has no open subpath to close.
        if !needsMove {
            path.elements.append(.closeSubpath)
            needsMove = true
        }
        current = subpathStart
        clearReflections()
    }

    private mutating func clearReflections() {
        lastCubicControl = nil
        lastQuadControl = nil
    }

    /// The reflection of `control` about the current point, or the current
    /// point when the previous command was not of the same curve kind.
    private func reflection(of control: CGPoint?, at offset: Int) throws(GeometryError) -> CGPoint {
        guard let control else { return current }
        let r = CGPoint(x: 2 * current.x - control.x, y: 2 * current.y - control.y)
        guard r.x.isFinite, r.y.isFinite else { throw nonFinite(at: offset) }
        return r
    }

    // MARK: Lexing

    @inline(__always)
    private var peek: UInt8 { i < count ? bytes[i] : 0 }

    @inline(__always)
    private static func isWhitespace(_ b: UInt8) -> Bool {
        // SVG's wsp: space, tab, line feed, form feed, carriage return.
        b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0C || b == 0x0D
    }

    @inline(__always)
    private static func isDigit(_ b: UInt8) -> Bool { b &- UInt8(ascii: "0") < 10 }

    @inline(__always)
    private static func isNumberStart(_ b: UInt8) -> Bool {
        isDigit(b) || b == UInt8(ascii: ".") || b == UInt8(ascii: "-") || b == UInt8(ascii: "+")
    }

    private static func isCommand(_ b: UInt8) -> Bool {
        switch b | 0x20 {
        case UInt8(ascii: "m"), UInt8(ascii: "l"), UInt8(ascii: "h"), UInt8(ascii: "v"),
            UInt8(ascii: "c"), UInt8(ascii: "s"), UInt8(ascii: "q"), UInt8(ascii: "t"),
            UInt8(ascii: "a"), UInt8(ascii: "z"):
            return true
        default:
            return false
        }
    }

    private mutating func skipWhitespace() {
        while i < count && Self.isWhitespace(bytes[i]) { i += 1 }
    }

    /// Skips SVG's `comma-wsp?`; returns whether a comma was skipped (then a
    /// number must follow).
    @discardableResult
    private mutating func skipCommaWhitespace() -> Bool {
        skipWhitespace()
        guard i < count, bytes[i] == UInt8(ascii: ",") else { return false }
        i += 1
        skipWhitespace()
        return true
    }

    /// Between the arguments of one command.
    private mutating func skipSeparator() { skipCommaWhitespace() }

    private mutating func readPoint(relative: Bool) throws(GeometryError) -> CGPoint {
        let start = i
        var x = try readNumber()
        skipSeparator()
        var y = try readNumber()
        if relative {
            x += current.x
            y += current.y
            // Finite numbers can still sum past the largest double.
            guard x.isFinite, y.isFinite else { throw nonFinite(at: start) }
        }
        return CGPoint(x: x, y: y)
    }

    private mutating func readFlag() throws(GeometryError) -> Bool {
        switch peek {
        case UInt8(ascii: "0"):
            i += 1
            return false
        case UInt8(ascii: "1"):
            i += 1
            return true
        default: throw fail(expected: "flag (0 or 1)")
        }
    }

    /// 10^0 ... 10^22: every one exact in a double.
    private static let exactPowersOfTen: [Double] = {
        var p: [Double] = [1]
        for _ in 1 ... 22 { p.append(p[p.count - 1] * 10) }
        return p
    }()

    /// Reads `sign? (digits ("." digits?)? | "." digits) (("e"|"E") sign? digits)?`.
    ///
    /// Up to 19 significant digits are gathered into an integer on the way;
    /// when that integer and the decimal exponent are both exactly
    /// representable (mantissa < 2^53, |exponent| <= 22), one correctly
    /// rounded multiply or divide gives the correctly rounded value (Clinger's
    /// fast path). Other numbers go through the standard library's parser.
    private mutating func readNumber() throws(GeometryError) -> CGFloat {
        let start = i
        var negative = false
        if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") {
            negative = peek == UInt8(ascii: "-")
            i += 1
        }
        var mantissa: UInt64 = 0
        var significantDigits = 0
        var exponent = 0
        var truncated = false
        var sawDigit = false
        while i < count && Self.isDigit(bytes[i]) {
            let d = UInt64(bytes[i] &- UInt8(ascii: "0"))
            sawDigit = true
            if mantissa == 0 && d == 0 {
                // A leading zero adds nothing.
            } else if significantDigits < 19 {
                mantissa = mantissa &* 10 &+ d
                significantDigits += 1
            } else {
                exponent += 1
                truncated = truncated || d != 0
            }
            i += 1
        }
        if peek == UInt8(ascii: ".") {
            i += 1
            while i < count && Self.isDigit(bytes[i]) {
                let d = UInt64(bytes[i] &- UInt8(ascii: "0"))
                sawDigit = true
                if mantissa == 0 && d == 0 {
                    exponent -= 1
                } else if significantDigits < 19 {
                    mantissa = mantissa &* 10 &+ d
                    significantDigits += 1
                    exponent -= 1
                } else {
                    truncated = truncated || d != 0
                }
                i += 1
            }
        }
        guard sawDigit else {
            throw fail(expected: i == start ? "number" : "digit")
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            i += 1
            var negativeExponent = false
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") {
                negativeExponent = peek == UInt8(ascii: "-")
                i += 1
            }
            guard i < count && Self.isDigit(bytes[i]) else { throw fail(expected: "exponent digits") }
            var e = 0
            while i < count && Self.isDigit(bytes[i]) {
                // Clamped: anything this large overflows or underflows anyway.
                if e < 1_000_000 { e = e * 10 + Int(bytes[i] &- UInt8(ascii: "0")) }
                i += 1
            }
            exponent += negativeExponent ? -e : e
        }
        var value: Double
        if !truncated && mantissa < (1 << 53) && exponent >= -22 && exponent <= 22 {
            let m = Double(mantissa)
            value =
                exponent >= 0
                ? m * Self.exactPowersOfTen[exponent]
                : m / Self.exactPowersOfTen[-exponent]
            if negative { value = -value }
        } else {
            // The text was checked against the grammar above, so it parses.
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start ..< i]), as: UTF8.self)
            value = Double(text) ?? .nan
        }
        guard value.isFinite else { throw nonFinite(at: start) }
        return CGFloat(value)
    }

    // MARK: Errors

    /// The Unicode-scalar offset of byte `byteOffset`: the bytes before it
    /// that are not UTF-8 continuation bytes. Only computed on failure.
    private func scalarOffset(_ byteOffset: Int) -> Int {
        var n = 0
        for j in 0 ..< Swift.min(byteOffset, count) where bytes[j] & 0xC0 != 0x80 { n += 1 }
        return n
    }

    private func fail(expected: String) -> GeometryError {
        let found: String
        if i >= count {
            found = "end of data"
        } else {
            // One scalar: the lead byte and its continuation bytes.
            var end = i + 1
            while end < count && bytes[end] & 0xC0 == 0x80 { end += 1 }
            found = String(decoding: UnsafeBufferPointer(rebasing: bytes[i ..< end]), as: UTF8.self).debugDescription
        }
        return .pathSyntax(offset: scalarOffset(i), expected: expected, found: found)
    }

    private func nonFinite(at byteOffset: Int) -> GeometryError {
        .nonFiniteCoordinate(offset: scalarOffset(byteOffset))
    }
}
