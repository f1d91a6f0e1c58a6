import Foundation
import Testing
@testable import AXHit

/// The README's library example, kept compiling and true.
@Test func readmeExample() throws {
    var tree = ElementTree()
    let window = try tree.append(.view("window", frame: CGRect(x: 0, y: 0, width: 390, height: 844)), under: .none)
    var list = Node.view("list", frame: CGRect(x: 0, y: 100, width: 390, height: 500))
    list.bounds = CGRect(x: 0, y: 120, width: 390, height: 500)  // scrolled by 120
    let listID = try tree.append(list, under: window)
    var row = Node.view("row", frame: CGRect(x: 0, y: 176, width: 390, height: 88))
    row.isAccessibilityElement = true
    let rowID = try tree.append(row, under: listID)

    var engine = HitTester(tree)
    // The row spans screen y 156..244 (100 + 176 - 120).
    #expect(engine.hit(CGPoint(x: 10, y: 200)) == rowID)
    try engine.scroll(listID, to: CGPoint(x: 0, y: 0))
    // Unscrolled it spans 276..364.
    #expect(engine.hit(CGPoint(x: 10, y: 200)) == nil)
    #expect(engine.hit(CGPoint(x: 10, y: 300)) == rowID)
    let space = ScreenSpace(engine.tree)
    #expect(space.accessibilityFrame(of: rowID) == CGRect(x: 0, y: 276, width: 390, height: 88))
    let analysis = try ScreenAnalysis(engine)
    #expect(analysis.analysis(of: rowID)?.status == .ok)
    #expect(try Auditor.findings(analysis).isEmpty)
}
