import FlowDemo
import FlowKit
import FlowKitInspector
import FlowKitRecorder
import Foundation
import Testing

/// A clock for recorders under test: each reading is a millisecond after the last.
@MainActor
final class TickingClock {
    private var ticks = 0
    func read() -> Double {
        ticks += 1
        return Double(ticks) / 1_000
    }
}

/// Events of the tests.
struct Ping: FlowEvent {
    var value = 1
}
struct SignOut: FlowEvent {}
struct Carrying: FlowEvent {
    let node: FlowController
}

/// The records of a recorder's lines as JSON objects (the header first).
func objects(_ lines: [String]) -> [[String: Any]] {
    lines.compactMap {
        (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
    }
}

/// The records of kind `kind`.
func records(_ lines: [String], _ kind: String) -> [[String: Any]] {
    objects(lines).filter { $0["k"] as? String == kind }
}

/// A small running app: `app` (a switch) → `main` → `stack` → `list`.
@MainActor
func makeSmallApp(
    host: (any FlowHost)? = nil
) throws -> (FlowRuntime, FlowSwitch, FlowStack, FlowController) {
    let list = FlowController(name: "list")
    let stack = FlowStack(name: "stack", root: list)
    let main = FlowController(name: "main")
    try main.embed(stack)
    let app = FlowSwitch(name: "app", initial: main)
    let runtime = try FlowRuntime(root: app, host: host)
    return (runtime, app, stack, list)
}

/// The walkthrough of README and Docs/Demo.md (a deep link redirected to sign-in and
/// replayed, a wrong password, a book, the favourites, tabs, logout), with a swipe back on the
/// favourites' stack cancelled and one released, and a rating sheet.
let demoSessionCommands = [
    "open flowdemo://books/12", "login alice secret", "login alice wonderland", "back",
    "filter dickens", "select 1", "fav", "tab favourites", "select 1", "swipe", "swipe 40%",
    "cancel", "swipe 60%", "release", "tree", "tab catalog", "back", "select 3", "rate",
    "stars 4", "tab profile", "logout", "quit",
]

/// Records the demo running `commands` (a recorder with snapshots and tree text), and the
/// runtime's own `treeDescription()` after each command with the number of steps then.
@MainActor
func recordDemo(
    _ commands: [String] = demoSessionCommands, options: FlowRecorder.Options? = nil
) async throws -> (recorder: FlowRecorder, idle: [(steps: Int, tree: String)], app: DemoApp) {
    let clock = TickingClock()
    let recorder = FlowRecorder(
        bufferLimit: 100_000,
        options: options ?? FlowRecorder.Options(snapshots: true, treeText: true),
        clock: { clock.read() })
    let app = try DemoApp.shipped()
    recorder.attach(app.windows)
    _ = await app.start()
    var idle: [(Int, String)] = []
    func steps() -> Int { records(recorder.lines, "step").count }
    idle.append((steps(), app.runtime.treeDescription()))
    for command in commands where !app.hasQuit {
        _ = await app.run(command)
        idle.append((steps(), app.runtime.treeDescription()))
    }
    recorder.finish()
    return (recorder, idle, app)
}
