import AXHit
import CommandLineSupport
import Foundation

/// `axhit convert TREE --view ID (--rect x,y,w,h | --point x,y | --path D) [--inverse]`.
enum ConvertCommand {
    static let help = """
        usage: axhit convert TREE --view ID (--rect x,y,w,h | --point x,y | --path D) [--inverse]

        Convert a rect, point or SVG path from the bounds space of view ID to the
        screen (UIAccessibilityConvertFrameToScreenCoordinates and friends), or with
        --inverse from the screen into the view's bounds space. Prints one line:
          {"rect":[x,y,w,h]}   {"point":[x,y]}   {"d":"..."}
        A rect converts to the bounding box of its four converted corners; a path
        converts exactly. For an element node, its container's space is used.

        \(TreeOptions.help)

        \(Limits.geometry)
        """

    static func run(_ argv: [String]) throws {
        let (args, treeOptions) = try TreeOptions.parse(
            argv, options: ["view", "rect", "point", "path"], flags: ["inverse", "help"])
        if args.flag("help") {
            Output.line(help)
            return
        }
        let treePath = try args.single("TREE")
        let viewName = try args.required("view")
        let given = ["rect", "point", "path"].filter { args.option($0) != nil }
        guard given.count == 1 else { throw UsageError("give exactly one of --rect, --point, --path") }
        let inverse = args.flag("inverse")
        let file = Input.displayName(treePath)

        // Parse the operand before reading the tree: a usage error wins.
        var rect: CGRect?
        var point: CGPoint?
        var path: BezierPath?
        if let text = args.option("rect") {
            let v = try Input.numbers(text, count: 4, option: "rect")
            guard v[2] >= 0, v[3] >= 0 else { throw UsageError("--rect width and height must be >= 0") }
            rect = CGRect(x: v[0], y: v[1], width: v[2], height: v[3])
        } else if let text = args.option("point") {
            let v = try Input.numbers(text, count: 2, option: "point")
            point = CGPoint(x: v[0], y: v[1])
        } else if let d = args.option("path") {
            do { path = try BezierPath(svgPathData: d) } catch {
                // Invalid input (exit 1), as `shape --d`, named by its option.
                throw TreeError(.validation, "\(error)", file: "--path")
            }
        }

        let space = ScreenSpace(try Input.tree(treePath, treeOptions))
        guard let view = space.tree.node(withID: viewName) else {
            throw TreeError(.validation, "no node has this id", file: file, node: viewName, key: "id")
        }
        func noInverse() -> TreeError {
            TreeError(
                .validation, "the view is scaled to nothing on screen: screen points have no place in its space",
                file: file, node: viewName, key: "transform")
        }
        /// The operand converted one way or the other; nil when the inverse does not exist.
        func converted<T>(
            _ value: T, _ toScreen: (T, NodeID) -> T, _ fromScreen: (T, NodeID) -> T?
        ) throws(TreeError) -> T {
            guard inverse else { return toScreen(value, view) }
            guard let c = fromScreen(value, view) else { throw noInverse() }
            return c
        }
        let line: String
        if let rect {
            let r = try converted(rect, space.convertToScreen, space.convertFromScreen)
            line = "{\"rect\":\(JSONText.numbers([r.origin.x, r.origin.y, r.size.width, r.size.height]))}"
        } else if let point {
            let p = try converted(point, space.convertToScreen, space.convertFromScreen)
            line = "{\"point\":\(JSONText.point(p.x, p.y))}"
        } else {
            // Exactly one operand was given (checked above): the path.
            guard let path else { throw UsageError("give exactly one of --rect, --point, --path") }
            let d = try converted(path, space.convertToScreen, space.convertFromScreen)
            line = "{\"d\":\(JSONText.string(d.svgPathData))}"
        }
        Output.line(line)
    }
}
