/// Text from an input made safe for a terminal: what the command line's
/// human-readable output and every `TreeError` message pass through, so that
/// an id or label carrying escape sequences (`ESC ] 52` sets the clipboard,
/// `ESC [2J` clears the screen) or line breaks reaches no terminal raw.
public enum TerminalText {
    /// `text` with C0 controls, DEL, C1 controls and Unicode line and
    /// paragraph separators escaped (`\n`, `\t`, `\u{1b}`, `\u{2028}`);
    /// everything else as it is.
    ///
    /// - Complexity: O(n); no copy when nothing needs escaping.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        for u in text.unicodeScalars {
            switch u {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where needsEscape(u): out += "\\u{\(String(u.value, radix: 16))}"
            default: out.unicodeScalars.append(u)
            }
        }
        return out
    }

    private static func needsEscape(_ u: Unicode.Scalar) -> Bool {
        u.value < 0x20 || (0x7F ... 0x9F).contains(u.value) || u.value == 0x2028 || u.value == 0x2029
    }
}
