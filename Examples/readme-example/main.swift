import AXHit
import Foundation

// A window holding a list scrolled by 120 points, holding one row.
var tree = ElementTree()
let window = try tree.append(.view("window", frame: CGRect(x: 0, y: 0, width: 390, height: 844)), under: .none)
var list = Node.view("list", frame: CGRect(x: 0, y: 100, width: 390, height: 500))
list.bounds = CGRect(x: 0, y: 120, width: 390, height: 500)
let listID = try tree.append(list, under: window)
var row = Node.view("row", frame: CGRect(x: 0, y: 176, width: 390, height: 88))
row.isAccessibilityElement = true
row.accessibilityLabel = "Inbox"
try tree.append(row, under: listID)

var engine = HitTester(tree)  // or HitTester(ElementTree(contentsOf: data, file: name))
if let id = engine.hit(CGPoint(x: 10, y: 200)), let element = engine.element(id) {
    print(element.id, element.label ?? "", element.frame.minY)  // row Inbox 156.0
}
try engine.scroll(listID, to: .zero)  // O(1), whatever the number of rows
print(engine.hit(CGPoint(x: 10, y: 200)).map(engine.tree.id(of:)) ?? "nothing")  // nothing
let analysis = try ScreenAnalysis(engine)  // activation, reachable regions, visibility
print(analysis.elements.map { "\($0.status)" }, try Auditor.findings(analysis).count)  // ["ok"] 0
