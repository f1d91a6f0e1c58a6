import Foundation

/// Choices an importer of a foreign page source (Appium iOS, uiautomator,
/// DroidBot, WebDriverAgent JSON) cannot read from the file itself.
///
/// `axhit/1` JSON ignores these: it says everything it means.
public struct ImportOptions: Sendable, Hashable {
    /// Pixels per point for Android sources, whose bounds are in pixels:
    /// every coordinate is divided by it, and it becomes the tree's
    /// `screenScale`. Default 1 (pixels are kept as points), because a dump
    /// does not record the device's density. Must be finite and > 0, or the
    /// importer throws. iOS sources are in points already and ignore it.
    public var density: CGFloat
    /// Whether a node the source marks as not visible (Appium iOS
    /// `visible="false"`, WebDriverAgent JSON `isVisible: "0"`, uiautomator
    /// `visible-to-user="false"` or `displayed="false"`, DroidBot
    /// `visible: false`) becomes `isHidden` (and so hides its subtree).
    /// Default true; see each importer's documentation for why.
    public var hidesInvisibleNodes: Bool

    /// Options with the given values; the defaults suit a plain dump.
    public init(density: CGFloat = 1, hidesInvisibleNodes: Bool = true) {
        self.density = density
        self.hidesInvisibleNodes = hidesInvisibleNodes
    }

    /// The density, checked.
    ///
    /// - Throws: `TreeError` naming `file` when it is not finite and > 0.
    func checkedDensity(file: String?) throws(TreeError) -> CGFloat {
        guard density.isFinite && density > 0 else {
            throw TreeError(.validation, "density must be a finite number > 0, got \(density)", file: file)
        }
        return density
    }
}
