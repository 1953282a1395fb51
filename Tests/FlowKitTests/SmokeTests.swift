import Testing

@testable import FlowKit

@MainActor
@Suite("Smoke")
struct SmokeTests {
    @Test("Start, push, pop and switch run hooks in order and report changes")
    func basicLifecycle() throws {
        let journal = Journal()
        let (runtime, host, app, _, stack, _) = try makeApp(journal: journal)
        #expect(
            journal.entries == [
                "enter main", "enter list", "active main", "active list",
            ])
        #expect(runtime.focusedPath.map(\.path) == ["app", "app/main", "app/main/stack", "app/main/stack/list"])
        journal.entries = []
        let detail = LoggingNode("detail", journal: journal)
        try stack.push(detail)
        #expect(journal.entries == ["enter detail", "inactive list", "active detail"])
        journal.entries = []
        try stack.pop()
        #expect(journal.entries == ["exit detail", "active list"])
        #expect(detail.state == .exited)
        try app.switch(to: LoggingNode("login", journal: journal))
        #expect(host.changes.map(\.description) == [
            "start +app",
            "push app/main/stack +app/main/stack/detail",
            "pop app/main/stack -app/main/stack/detail",
            "switch app -app/main +app/login",
        ])
        print(runtime.trace.lines.joined(separator: "\n"))
    }
}
