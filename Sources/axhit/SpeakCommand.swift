import AXHit
import CommandLineSupport
import Foundation

/// `axhit speak TREE [--element ID]`.
enum SpeakCommand {
    static let help = """
        usage: axhit speak TREE [--element ID]

        What the screen reader says at each exposed element, in navigation order
        (the order of `axhit order`), one per line:
          {"index":i,"element":"ID","speech":"...","hint":"..." or null}
        index    from 0, the element's place in navigation order
        speech   what is spoken when the element is focused, in English
        hint     what is spoken after a pause (null when nothing is)
        VoiceOver (iOS): AccessibilitySnapshot's description from the label, value,
        hint and traits ("Wi-Fi. Switch Button. On."), with a tab's "Tab. 2 of 4.",
        a segmented control's "2 of 3." and a list's or landmark's start and end;
        snapshots: the traits each element type implies.
        TalkBack (Android), at its default preferences: selected, checked, then
        state, name and role ("on, Wi-Fi, Switch"), the non-focusable children's
        words when the node has no content description, its hint, "disabled";
        hint: "Double-tap to activate" and the like.
        --element ID   only that element (an id no node has, or a node the screen
                       reader does not focus, is an error)

        \(TreeOptions.help)

        \(Limits.geometry)
        """

    static func run(_ argv: [String]) throws {
        let (args, treeOptions) = try TreeOptions.parse(argv, options: ["element"], flags: ["help"])
        if args.flag("help") {
            Output.line(help)
            return
        }
        let treePath = try args.single("TREE")
        let file = Input.displayName(treePath)
        var tester = try Input.hitTester(treePath, treeOptions)
        var only: NodeID?
        if let name = args.option("element") {
            guard let id = tester.tree.node(withID: name) else {
                throw TreeError(.validation, "no node has id \"\(name)\"", file: file)
            }
            guard tester.isExposed(id) else {
                throw TreeError(.validation, "not exposed: the screen reader never focuses it", file: file, node: name)
            }
            only = id
        }
        let transcript: [Speech]
        do throws(TreeError) {
            transcript = try tester.transcript()
        } catch {
            throw error.located(file: file)
        }
        let out = Output.buffer()
        for (i, s) in transcript.enumerated() where only == nil || s.element == only {
            out.writeLine(
                "{\"index\":\(i),\"element\":\(JSONText.string(tester.tree.id(of: s.element)))"
                    + ",\"speech\":\(JSONText.string(s.description))"
                    + ",\"hint\":\(s.hint.map(JSONText.string) ?? "null")}")
        }
        out.flush()
    }
}
