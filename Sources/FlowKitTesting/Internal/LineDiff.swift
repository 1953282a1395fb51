/// A line-by-line difference between what a test expected and what happened.
///
/// Lines both sides share are shown with two spaces, lines only expected with `- `, lines
/// only found with `+ `, in the order of a longest common subsequence (like `diff`).
enum _LineDiff {
    /// The diff of `expected` against `actual`, one line per element, or `(nothing)` for two
    /// empty sides.
    static func render<Element>(
        expected: [Element], actual: [Element], equal: (Element, Element) -> Bool,
        text: (Element) -> String
    ) -> String {
        if expected.isEmpty && actual.isEmpty { return "  (nothing)" }
        let n = expected.count
        let m = actual.count
        // lengths[i][j]: the longest common subsequence of expected[i...] and actual[j...].
        var lengths = Array(repeating: Array(repeating: 0, count: m + 1), count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                lengths[i][j] =
                    equal(expected[i], actual[j])
                    ? lengths[i + 1][j + 1] + 1
                    : max(lengths[i + 1][j], lengths[i][j + 1])
            }
        }
        var lines: [String] = []
        var i = 0
        var j = 0
        while i < n || j < m {
            if i < n, j < m, equal(expected[i], actual[j]) {
                lines.append("  " + text(expected[i]))
                i += 1
                j += 1
            } else if i < n, j == m || lengths[i + 1][j] >= lengths[i][j + 1] {
                lines.append("- " + text(expected[i]))
                i += 1
            } else {
                lines.append("+ " + text(actual[j]))
                j += 1
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The diff of two lists of lines.
    static func render(expected: [String], actual: [String]) -> String {
        render(expected: expected, actual: actual, equal: ==, text: { $0 })
    }
}
