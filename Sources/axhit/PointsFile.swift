import AXHit
import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A points file (`axhit hit --points`): one point per line, `x y` or `x,y`
/// (spaces, tabs or one comma between), in the tree's screen units; blank
/// lines and lines starting with `#` are skipped.
///
/// Parsed in place, on all cores (or all but the caller's, with a
/// `PieceShare`): the bytes are cut at line ends into pieces of about a
/// megabyte, and each piece is read a byte at a time with no `String` per
/// line. A plain decimal (at most 15 significant digits, no
/// exponent: what coordinates are written as) is read exactly from its
/// digits: m / 10^k, both exact doubles, correctly rounded, is the double
/// nearest the decimal, as C's `strtod` gives it. Anything else goes to
/// `strtod` itself, so the two agree on every line.
enum PointsFile {
    /// The longest line a points file may have: two numbers need far less,
    /// and a bound keeps a file of one huge line from being read as text.
    static let maximumLine = 1024

    /// Bytes below which a file is read as one piece.
    static let minimumPiece = 1 << 16
    /// Bytes a piece has in a large file: small enough that a thread that
    /// joins late (`PieceShare.help()`) finds many left.
    static let largePiece = 1 << 20

    /// The points of `bytes`, in order.
    ///
    /// Each piece's lines are counted first, so that the pieces parse
    /// straight into their places in the one array returned (no array per
    /// piece, no copy but where blank or comment lines leave a gap).
    ///
    /// A UTF-8 byte order mark at the very start is skipped; anywhere else
    /// it is not a point.
    ///
    /// With `share`, the pieces are parsed on every core but one, and on
    /// the thread that calls `share.help()` once it is free; without, on
    /// every core.
    ///
    /// - Throws: `TreeError` naming `file` and the first line (in file order)
    ///   that is not two finite numbers (a NUL, trailing junk, a third
    ///   number) or is longer than `maximumLine` bytes.
    static func points(
        in bytes: UnsafeBufferPointer<UInt8>, file: String, sharing share: PieceShare? = nil
    ) throws(TreeError) -> [CGPoint] {
        // A UTF-8 byte order mark at the start (editors on Windows save
        // one) is skipped, as the tree readers skip it; it is on line 1, so
        // line numbers are unchanged.
        let hasMark = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
        let text = hasMark ? UnsafeBufferPointer(rebasing: bytes[3...]) : bytes
        let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let starts = pieceStarts(text, cores: cores)
        let pieces = starts.count
        // The pieces only read the bytes.
        nonisolated(unsafe) let bytes = text
        @Sendable func piece(_ k: Int) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(rebasing: bytes[starts[k] ..< (k + 1 < pieces ? starts[k + 1] : bytes.count)])
        }
        // Each pass on every core, or with `share` on all but the one the
        // caller keeps busy, and on its thread once it helps.
        func onCores(_ work: @escaping @Sendable (Int) -> Void) {
            if let share {
                share.run(pieces, workers: cores - 2, work)
            } else {
                DispatchQueue.concurrentPerform(iterations: pieces, execute: work)
            }
        }
        // At most one point per line: a line ends at each newline, and the
        // last piece's may end at the end.
        let lineCounts = [Int](filling: pieces) { buffer, initialized in
            nonisolated(unsafe) let out = buffer
            onCores { k in
                var lines = 0
                for b in piece(k) where b == UInt8(ascii: "\n") { lines += 1 }
                out.initializeElement(at: k, to: lines + (k == pieces - 1 ? 1 : 0))
            }
            initialized = pieces
        }
        let offsets = lineCounts.reduce(into: [0]) { offsets, count in
            offsets.append(offsets[offsets.count - 1] + count)
        }
        var firstProblem: (piece: Int, problem: LineProblem)?
        let all = [CGPoint](filling: offsets[pieces]) { buffer, initialized in
            let results = [Result<Int, LineProblem>](filling: pieces) { resultBuffer, done in
                // Each piece writes only its own range of points and its
                // own result.
                nonisolated(unsafe) let results = resultBuffer
                nonisolated(unsafe) let points = buffer
                onCores { k in
                    let place = UnsafeMutableBufferPointer(rebasing: points[offsets[k] ..< offsets[k + 1]])
                    results.initializeElement(
                        at: k, to: Result { () throws(LineProblem) in try parse(piece(k), into: place) })
                }
                done = pieces
            }
            // Pieces moved down over the gaps, in order: each is initialized
            // and trivial, so a move is a copy.
            var filled = 0
            for (k, result) in results.enumerated() {
                switch result {
                case .success(let count):
                    if filled != offsets[k], let base = buffer.baseAddress {
                        (base + filled).update(from: base + offsets[k], count: count)
                    }
                    filled += count
                case .failure(let problem):
                    firstProblem = (k, problem)
                }
                if firstProblem != nil { break }
            }
            initialized = filled
        }
        if let (k, problem) = firstProblem {
            // Lines are counted from the file's start only for the error.
            let before = lineCounts[0 ..< k].reduce(0, +)
            throw TreeError(problem.category, problem.message, file: file, line: before + problem.line)
        }
        return all
    }

    /// Where each piece starts: just after a newline, about evenly spaced:
    /// a piece of `largePiece` bytes, or four per core where that makes
    /// too few (none under `minimumPiece` bytes).
    private static func pieceStarts(_ bytes: UnsafeBufferPointer<UInt8>, cores: Int) -> [Int] {
        let pieces = max(1, min(max(cores * 4, bytes.count / largePiece), bytes.count / minimumPiece))
        var starts = [0]
        for k in 1 ..< pieces {
            var s = max(starts[starts.count - 1], bytes.count * k / pieces)
            while s < bytes.count && bytes[s - 1] != UInt8(ascii: "\n") { s += 1 }
            // No line end after this one: the rest is one piece (each byte
            // is looked at once, even in a file of one huge line).
            if s == bytes.count { break }
            if s > starts[starts.count - 1] { starts.append(s) }
        }
        return starts
    }

    /// A line that is not a point: its number within its piece (from 1).
    struct LineProblem: Error {
        var category: TreeError.Kind
        var message: String
        var line: Int
    }

    /// Parses one piece (whole lines) into `points`, which has room for a
    /// point per line, and returns how many it wrote.
    private static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>, into points: UnsafeMutableBufferPointer<CGPoint>
    ) throws(LineProblem) -> Int {
        var count = 0
        var start = 0, lineNumber = 0
        while start < bytes.count {
            lineNumber += 1
            var end = start
            // Stops at the newline, or just past the longest line allowed.
            while end < bytes.count && bytes[end] != UInt8(ascii: "\n") && end - start <= maximumLine { end += 1 }
            var length = end - start
            guard length <= maximumLine else {
                throw LineProblem(
                    category: .input,
                    message: "the line is longer than \(maximumLine) bytes (expected a point as 'x y' or 'x,y')",
                    line: lineNumber)
            }
            if length > 0 && bytes[start + length - 1] == UInt8(ascii: "\r") { length -= 1 }
            let line = UnsafeBufferPointer(rebasing: bytes[start ..< start + length])
            if let point = try point(in: line, lineNumber: lineNumber) {
                points.initializeElement(at: count, to: point)
                count += 1
            }
            start = end + 1
        }
        return count
    }

    /// The point on one line, or nil for a blank or comment line.
    private static func point(in line: UnsafeBufferPointer<UInt8>, lineNumber: Int) throws(LineProblem) -> CGPoint? {
        func isBlank(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 }
        let length = line.count
        var i = 0
        while i < length && isBlank(line[i]) { i += 1 }
        if i == length || line[i] == UInt8(ascii: "#") { return nil }
        func fail() -> LineProblem {
            let shown = String(decoding: line[0 ..< min(length, 40)], as: UTF8.self)
            return LineProblem(
                category: .input,
                message: "expected a point as 'x y' or 'x,y', found '\(shown)\(length > 40 ? "…" : "")'",
                line: lineNumber)
        }
        guard let (x, afterX) = number(in: line, at: i) else { throw fail() }
        var k = afterX
        while k < length && isBlank(line[k]) { k += 1 }
        if k < length && line[k] == UInt8(ascii: ",") { k += 1 }
        // A separator (blanks, a comma) between the two numbers.
        guard k > afterX, let (y, afterY) = number(in: line, at: k) else { throw fail() }
        var rest = afterY
        while rest < length && isBlank(line[rest]) { rest += 1 }
        // Anything left (junk, a third number, a NUL inside the line) is an error.
        guard rest == length else { throw fail() }
        guard x.isFinite, y.isFinite else {
            throw LineProblem(category: .validation, message: "the point is not finite", line: lineNumber)
        }
        return CGPoint(x: x, y: y)
    }

    /// The number at `i` of `line` (after any white space, as `strtod`
    /// skips it) and where it ends; nil when nothing there is a number.
    static func number(in line: UnsafeBufferPointer<UInt8>, at i: Int) -> (Double, Int)? {
        plainDecimal(in: line, at: i) ?? strtodNumber(in: line, at: i)
    }

    /// The fast path: `[+-]digits[.digits]` with at most 15 significant
    /// digits, followed by neither a letter nor a digit it could not take
    /// (an exponent, `inf`, a hexadecimal float go to `strtod`).
    private static func plainDecimal(in line: UnsafeBufferPointer<UInt8>, at start: Int) -> (Double, Int)? {
        let length = line.count
        var i = start
        // strtod's white space (isspace): space, \t, \n, \v, \f, \r.
        while i < length && (line[i] == 0x20 || (line[i] >= 0x09 && line[i] <= 0x0D)) { i += 1 }
        var negative = false
        if i < length && (line[i] == UInt8(ascii: "-") || line[i] == UInt8(ascii: "+")) {
            negative = line[i] == UInt8(ascii: "-")
            i += 1
        }
        var m: UInt64 = 0, significant = 0, fraction = 0, digits = 0, seenPoint = false
        while i < length {
            let c = line[i]
            if c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") {
                digits += 1
                if m > 0 || c != UInt8(ascii: "0") { significant += 1 }
                guard significant <= 15 else { return nil }
                m = m * 10 + UInt64(c - UInt8(ascii: "0"))
                if seenPoint { fraction += 1 }
            } else if c == UInt8(ascii: ".") && !seenPoint {
                seenPoint = true
            } else {
                break
            }
            i += 1
        }
        guard digits > 0, fraction <= 22 else { return nil }
        if i < length {
            let c = line[i] | 0x20  // lower case for letters
            guard !(c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) else { return nil }
        }
        let magnitude = fraction == 0 ? Double(m) : Double(m) / powersOfTen[fraction]
        return (negative ? -magnitude : magnitude, i)
    }

    /// 10^0 ... 10^22: every one an exact double.
    private static let powersOfTen: [Double] = (0 ... 22).map { k in
        (0 ..< k).reduce(1.0) { value, _ in value * 10 }
    }

    /// C's `strtod` on a NUL-terminated copy of the line from `i`.
    private static func strtodNumber(in line: UnsafeBufferPointer<UInt8>, at i: Int) -> (Double, Int)? {
        var text = [CChar](repeating: 0, count: line.count - i + 1)
        for k in i ..< line.count { text[k - i] = CChar(bitPattern: line[k]) }
        return text.withUnsafeBufferPointer { buffer -> (Double, Int)? in
            guard let base = buffer.baseAddress else { return nil }
            var end: UnsafeMutablePointer<CChar>?
            let v = strtod(base, &end)
            // It must have consumed something.
            guard let end, UnsafePointer(end) > base else { return nil }
            return (v, i + (UnsafePointer(end) - base))
        }
    }
}
