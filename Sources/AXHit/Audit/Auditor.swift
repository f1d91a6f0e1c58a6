import AXGeometry
import Foundation

/// Runs the audit of tree-format.md, "Audits: what a reviewer would ask to
/// fix", over a `ScreenAnalysis`: every `AuditRule`, on exact geometry,
/// reporting only what a careful reviewer would ask the app's developers to
/// change.
///
/// The terms are the platform's (`PlatformRules.isControl`,
/// `isScrollContainer`); sizes are in points (iOS) or dp (Android: the
/// dump's pixels divided by the density, `screen.scale` or inferred from
/// the screen's width and said so). Nothing is reported about the part of
/// an element a scroll would bring into view (*scrolled away*), and an
/// element wholly scrolled away is not judged at all.
///
/// The element checks run one pass per element on all cores; `covered` and
/// `unreachable` ask an R-tree for the elements (iOS) or nodes (Android)
/// that meet the element, never all pairs.
public enum Auditor {
    /// A covered part narrower than this (points, dp) is where two cells
    /// meet, not a defect.
    public static let minimumCoveredWidth = 2.0
    /// An element with less than this left uncovered (square screen units)
    /// counts as wholly covered.
    public static let coveredTolerance = 0.01
    /// At most this many cells per element are asked TalkBack's hover
    /// (`covered`, `unreachable` on Android); an element whose box more
    /// nodes cut into is not judged by those two rules.
    public static let coverageCellBudget = 1 << 16

    /// Every finding on `tester`'s screen: `findings(_:options:screen:)`
    /// over an analysis that searches the largest inscribed circle (most of
    /// an analysis's cost) only where a finding can cite it: controls whose
    /// activation fails, points outside their shape, and the controls
    /// Apple's size rule measures.
    ///
    /// - Throws: `TreeError` as `ScreenAnalysis.init(_:visibility:)` and
    ///   `findings(_:options:screen:)`.
    public static func findings(
        _ tester: HitTester, options: AuditOptions = AuditOptions(), screen: String? = nil
    ) throws(TreeError) -> [AuditFinding] {
        let rules = tester.rules, tree = tester.tree
        let analysis = try ScreenAnalysis(
            tester, visibility: true,
            circles: .audit(
                isControl: { rules.isControl($0, in: tree) },
                measuresControls: TouchTargetAudit.measuresCircles(options.profile, on: rules.platform)))
        return try findings(analysis, options: options, screen: screen)
    }

    /// Every finding, ordered by element (pre-order), then by rule, each
    /// with its fingerprint, whether `options.baseline` holds it, and
    /// `screen`.
    ///
    /// - Parameters:
    ///   - analysis: the screen, analysed.
    ///   - options: the size profile, a replacement minimum size and the
    ///     baseline.
    ///   - screen: the screen's name (its file) for the findings, or nil.
    /// - Complexity: O(n log n) plus GEOS for the regions that are not
    ///   axis-aligned rects where something covers them.
    /// - Throws: `TreeError` naming the element when GEOS fails.
    public static func findings(
        _ analysis: ScreenAnalysis, options: AuditOptions = AuditOptions(), screen: String? = nil
    ) throws(TreeError) -> [AuditFinding] {
        let context = AuditContext(analysis, options: options)
        let elements = analysis.elements
        let tree = analysis.tree
        let results = parallelMap(
            elements.count, minimumChunk: 32,
            makeWorker: {
                Result { () throws(GeometryError) -> ElementAudit in
                    ElementAudit(context: context, builder: try RegionBuilder())
                }
            }
        ) { audit, k -> Result<[AuditFinding], TreeError> in
            audit.flatMap { audit in Result { try audit.findings(k) } }
                .mapError { TreeError(.geometry, "\($0)", node: tree.id(of: elements[k].element)) }
        }
        var all: [AuditFinding] = []
        for r in results { all += try r.get() }
        all += try TouchTargetAudit(context: context).findings()
        all += DuplicateBoundsCheck(context: context).findings()

        let order = analysis.order
        let ranks = Dictionary(uniqueKeysWithValues: AuditRule.allCases.enumerated().map { ($1, $0) })
        all.sort {
            let a = order.position[$0.element.index], b = order.position[$1.element.index]
            return a != b ? a < b : ranks[$0.rule, default: 0] < ranks[$1.rule, default: 0]
        }
        for k in all.indices {
            all[k].screen = screen
            all[k].fingerprint = AuditFingerprint.of(all[k].rule, element: all[k].element, in: tree)
            all[k].baseline = options.baseline.contains(all[k].fingerprint)
        }
        return all
    }

    /// A number for a message: at most two decimals, no trailing zeros.
    static func text(_ v: Double) -> String {
        let rounded = (v * 100).rounded() / 100
        // Huge values print as Swift does; Int64 would trap on them.
        guard rounded.isFinite, abs(rounded) < 1e15 else { return "\(v)" }
        if rounded == rounded.rounded() { return String(Int64(rounded)) }
        guard abs(rounded) < 1e9 else {
            var s = String(format: "%.2f", rounded)
            while s.hasSuffix("0") { s.removeLast() }
            return s
        }
        // Hundredths in integers (Foundation's formatting was most of the
        // time spent on messages). Below 1e9 a double is within 1e-7 of
        // the hundredths it rounds to, so these are the digits "%.2f"
        // prints, without its trailing zero.
        let cents = Int64((v * 100).rounded()).magnitude
        let fraction = cents % 100
        let digits = fraction % 10 == 0 ? "\(fraction / 10)" : (fraction < 10 ? "0\(fraction)" : "\(fraction)")
        return (rounded < 0 ? "-" : "") + "\(cents / 100)." + digits
    }

    static func text(_ p: CGPoint) -> String { "(\(text(Double(p.x))), \(text(Double(p.y))))" }

    static func text(_ r: CGRect) -> String {
        "[\(text(Double(r.minX))), \(text(Double(r.minY))), \(text(Double(r.width))), \(text(Double(r.height)))]"
    }
}

extension AuditFinding {
    /// A finding of `rule` on `element`, its fingerprint and baseline state
    /// filled in by `Auditor.findings`.
    init(
        _ rule: AuditRule, _ element: NodeID, _ message: String, severity: AuditSeverity? = nil,
        region: Region? = nil, points: [CGPoint] = [], related: NodeID? = nil
    ) {
        self.init(
            rule: rule, severity: severity ?? rule.severity, element: element, message: message,
            points: points, related: related, screen: nil,
            fingerprint: "", baseline: false, geometry: region)
    }
}
