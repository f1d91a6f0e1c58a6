import Foundation

/// Where a double-tap on one exposed element lands and what of the element a
/// finger can reach and an eye can see, all in screen points.
public struct ElementAnalysis: Sendable {
    /// The exposed element.
    public let element: NodeID
    /// The view a tap must reach: the element's own view, or its container
    /// for an element node.
    public let view: NodeID
    /// Its activation point: the explicit one, or the midpoint of its
    /// accessibility frame.
    public let activationPoint: CGPoint
    /// The view `touch(activationPoint)` delivers to, or nil.
    public let receiver: NodeID?
    /// `ok`, `obstructed` or `lost`.
    public let status: ActivationStatus
    /// Whether the activation point lies outside the element's region under
    /// the `shape` policy (cut by its ancestors' bounds).
    public let outside: Bool
    /// A point of the element's shape region that a tap delivers to the
    /// element (checked with `touch`), as far from the edges of the
    /// deliverable region as the largest-inscribed-circle search finds
    /// (`PolygonSet.largestInscribedCircle`); nil when there is none.
    public let suggested: CGPoint?
    /// The radius of the largest circle inside the deliverable region: the
    /// element's true touch-target size (0 when nothing is deliverable).
    public let touchTargetRadius: Double
    /// The share (0...1) of the element's shape that is visible: not clipped
    /// by `clipsToBounds` ancestors or the screen, not under an opaque view
    /// in front (see `ScreenAnalysis` for the opacity rule). NaN when the
    /// analysis skipped visibility, or when the path was not filled.
    public let visibleFraction: Double
    /// Why the element's `accessibilityPath` was not filled (it goes over a
    /// budget), or nil. When set, `suggested` is nil, `touchTargetRadius`
    /// 0, `visibleFraction` NaN and `shapeRegion` and `deliverableRegion`
    /// empty, since each needs the filled path; `activationPoint`,
    /// `receiver`, `status` and `outside` (the path's winding test) are
    /// answered as for any element.
    public let pathOverBudget: PathOverBudget?

    /// The shape-policy region before any cut.
    let shape: Region
    /// The shape-policy region cut by every proper ancestor view's bounds
    /// (the spec's region, where `hit(_:policy: .shape)` can answer it).
    let region: Region
    /// The frame-policy region cut the same way (VoiceOver's touch exploration).
    let frameRegion: Region
    /// Where a tap reaches the element and lies in `region`.
    let deliverable: Region
    /// What of the shape is visible.
    let visible: Region?

    init(
        element: NodeID, view: NodeID, activationPoint: CGPoint, receiver: NodeID?, status: ActivationStatus,
        outside: Bool, suggested: CGPoint?, touchTargetRadius: Double, visibleFraction: Double, shape: Region,
        region: Region, frameRegion: Region, deliverable: Region, visible: Region?, pathOverBudget: PathOverBudget?
    ) {
        self.element = element
        self.view = view
        self.activationPoint = activationPoint
        self.receiver = receiver
        self.status = status
        self.outside = outside
        self.suggested = suggested
        self.touchTargetRadius = touchTargetRadius
        self.visibleFraction = visibleFraction
        self.pathOverBudget = pathOverBudget
        self.shape = shape
        self.region = region
        self.frameRegion = frameRegion
        self.deliverable = deliverable
        self.visible = visible
    }

    /// The element's region under the `shape` policy, cut by its ancestors'
    /// bounds. O(1) for a polygonal region; builds a polygon for a rect.
    public var shapeRegion: PolygonSet { region.polygonSet }

    /// The part of `shapeRegion` where a tap reaches the element (its view or
    /// a descendant; for an element node, its container or a descendant).
    public var deliverableRegion: PolygonSet { deliverable.polygonSet }

    /// The area of `deliverableRegion`, in square points. O(1).
    public var deliverableArea: Double { deliverable.area }
}
