import AXGeometry
import Dispatch
import Foundation

/// Every node's id as a JSON string, made once before any point is
/// answered (on all cores) and then only read, by every core
/// (`HitTester.writeAnswers(for:policy:to:)`): answers repeat
/// a screen's elements over millions of points, and one shared table stays
/// in the cache where a table per core would not. A quoted id of up to 15
/// bytes (most ids) is kept in its node's slot itself, so that an answer's
/// id costs one 16-byte read; a longer one in `bytes`. Memory: 16 bytes per
/// node slot, plus the longer ids' text.
struct QuotedIDs: Sendable {
    /// Per node slot: its last byte (in memory, the high byte of `[1]` on
    /// the little-endian machines Swift runs on) is the quoted id's length
    /// (2...15) with the text in the bytes before it, or `outOfLine` with
    /// the text's offset and length in `bytes` in the first and second 8
    /// bytes.
    private let slots: [SIMD2<UInt64>]
    private let bytes: [UInt8]
    /// The longest quoted id.
    let longest: Int

    /// The last byte's mark for a text kept in `bytes`.
    private static let outOfLine: UInt8 = 0xFF

    /// The slot of the id "".
    private static let empty = SIMD2<UInt64>(0x2222, 2 << 56)

    /// Room an id kept in its slot needs: the whole slot is copied.
    static let inlineLength = 16

    /// Makes every node's quoted id (`JSONBytes.appendString`), one run of
    /// slots per core.
    init(_ tree: ElementTree, cores: Int) {
        let runs = consecutiveRuns(tree.capacity, parts: cores)
        // Per run: its longer ids (slot, text) and its longest id.
        var longer = [[(slot: Int, text: [UInt8])]](repeating: [], count: runs.count)
        var longest = [Int](repeating: 0, count: runs.count)
        var slots = [SIMD2<UInt64>](repeating: .zero, count: tree.capacity)
        slots.withUnsafeMutableBufferPointer { slotBuffer in
            longer.withUnsafeMutableBufferPointer { longerBuffer in
                longest.withUnsafeMutableBufferPointer { longestBuffer in
                    // Each run writes only its own slots and its own entries.
                    nonisolated(unsafe) let (slots, longer, longest) = (slotBuffer, longerBuffer, longestBuffer)
                    DispatchQueue.concurrentPerform(iterations: runs.count) { r in
                        var quoted: [UInt8] = []
                        for i in runs[r] {
                            quoted.removeAll(keepingCapacity: true)
                            // A free slot's id is "", as `id(of:)` says.
                            JSONBytes.appendString(tree.nodeID(inSlot: i).map { tree.id(of: $0) } ?? "", to: &quoted)
                            longest[r] = max(longest[r], quoted.count)
                            guard quoted.count < Self.inlineLength else {
                                longer[r].append((i, quoted))
                                continue
                            }
                            withUnsafeMutableBytes(of: &slots[i]) { raw in
                                raw.copyBytes(from: quoted)
                                raw[15] = UInt8(quoted.count)
                            }
                        }
                    }
                }
            }
        }
        var bytes: [UInt8] = []
        for (slot, text) in longer.joined() {
            slots[slot] = SIMD2(UInt64(bytes.count), UInt64(text.count) | UInt64(Self.outOfLine) << 56)
            bytes.append(contentsOf: text)
        }
        self.slots = slots
        self.bytes = bytes
        self.longest = longest.max() ?? 0
    }

    /// Node `n`'s slot.
    @inline(__always)
    func slot(of n: NodeID) -> SIMD2<UInt64> {
        // Past the slots (no node of the tree): "", as `id(of:)` says.
        n.index >= 0 && n.index < slots.count ? slots[n.index] : Self.empty
    }

    /// Writes the quoted id of `slot` (`slot(of:)`) at `out` and returns how
    /// many bytes; nil, with nothing written, when it needs more than
    /// `room` (at least `inlineLength`).
    @inline(__always)
    func write(_ slot: SIMD2<UInt64>, to out: UnsafeMutablePointer<UInt8>, room: Int) -> Int? {
        let length = UInt8(truncatingIfNeeded: slot[1] >> 56)
        if length != Self.outOfLine {
            UnsafeMutableRawPointer(out).storeBytes(of: slot, as: SIMD2<UInt64>.self)
            return Int(length)
        }
        let start = Int(slot[0]), count = Int(slot[1] & 0xFF_FFFF_FFFF)
        guard count <= room else { return nil }
        bytes.withUnsafeBufferPointer { out.update(from: $0.baseAddress! + start, count: count) }
        return count
    }
}
