// The code of Docs/Results.md. GuideCodeBlockTests checks that every ```swift block of the
// page appears here verbatim: change the page and this file together.

import FlowKit
import Testing

struct Account: Equatable, Sendable {
    let name: String
}

struct CredentialsAccepted: FlowEvent {
    let account: Account
}

final class LoginFlow: FlowController, ResultFlow {
    typealias Result = Account

    init() {
        super.init(name: "login")
        respond(to: CredentialsAccepted.self) { login, accepted in
            login.finish(with: accepted.account)
            return .handled
        }
    }
}

final class AppRoot: FlowSwitch {
    private(set) var signedIn: Account?

    init() {
        super.init(name: "app")
    }

    override func didEnter() {
        task { [weak self] in
            guard let self else { return }
            let account = try await run(LoginFlow(), .switch)
            signedIn = account
            try self.switch(to: FlowController(name: "main"))
        }
    }
}

final class RatingSheet: FlowController, ResultFlow {
    typealias Result = Int

    init() {
        super.init(name: "rating")
    }
}

struct Save: FlowEvent {}

@MainActor
@Suite("Results guide")
struct ResultsGuideTests {
    // The time limits guard against a hang, never time anything: these tests await the main
    // actor, which every @MainActor suite of the parallel run shares, so on a loaded 2-core
    // machine a test that takes 1 s alone can wait a minute for it.
    @Test("run shows a child and returns its result", .timeLimit(.minutes(5)))
    func awaitingAResult() async throws {
        let app = FlowSwitch(name: "app")
        let runtime = try FlowRuntime(root: app)
        try runtime.start()
        let task = Task {
            let account = try await app.run(LoginFlow(), .switch)
            return account
        }
        while app.current == nil { await Task.yield() }
        app.current?.send(CredentialsAccepted(account: Account(name: "bo")))
        #expect(try await task.value == Account(name: "bo"))
        #expect(runtime.trace.lines.contains("finished app/login: result to run at app"))
    }

    @Test("A flow's didEnter awaits a child, end to end")
    func didEnterAwaits() async throws {
        let root = AppRoot()
        let runtime = try FlowRuntime(root: root)
        try runtime.start()  // app enters; its task shows the login flow
        await runtime.settle()
        let login = try #require(root.current as? LoginFlow)
        login.send(CredentialsAccepted(account: Account(name: "ada")))
        await runtime.settle()
        #expect(root.signedIn == Account(name: "ada"))
        #expect(runtime.focusedPath.map(\.path) == ["app", "app/main"])
    }

    @Test(
        "A dismissed child cancels the run; a cancelled task removes the child",
        .timeLimit(.minutes(5)))
    func cancellation() async throws {
        let detail = FlowController(name: "detail")
        let runtime = try FlowRuntime(root: FlowStack(name: "stack", root: detail))
        try runtime.start()
        let rating = Task { try await detail.run(RatingSheet(), .present) }
        while detail.presentedChild == nil { await Task.yield() }  // until the sheet is presented
        try detail.platformDidDismiss()  // the user swiped it away
        await #expect(throws: FlowError.flowCancelled(flow: "stack/detail/rating")) {
            try await rating.value
        }

        let waiting = Task { try await detail.run(RatingSheet(), .present) }
        while detail.presentedChild == nil { await Task.yield() }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(detail.presentedChild == nil)
    }

    @Test("A handler for one child's FlowFinished ignores a grandchild's")
    func targetedFinish() throws {
        let settings = FlowController(name: "settings")
        let parent = FlowStack(name: "parent", root: FlowController(name: "home"))
        var saved: [String] = []
        parent.on(FlowFinished<String>.self, from: settings) { done in
            saved.append(done.result)
            return .handled
        }
        let section = FlowController(name: "section")
        try settings.embed(section)
        let runtime = try FlowRuntime(root: parent)
        try runtime.start()
        try parent.push(settings)
        section.finish(with: "section's")
        settings.finish(with: "dark mode")
        #expect(saved == ["dark mode"])
    }

    @Test("A throwing handler's error reaches the sink once")
    func throwingHandler() throws {
        let editor = FlowController(name: "editor")
        let stack = FlowStack(name: "app", root: editor)
        let runtime = try FlowRuntime(root: stack)
        var failures: [String] = []
        runtime.onError = { failures.append($0.description) }
        try runtime.start()

        let review = FlowController(name: "review")
        review.entryGuard = { .refuse("nothing to review") }
        editor.on(Save.self) { _ in
            try stack.push(review)
            return .handled
        }
        editor.send(Save())
        #expect(
            failures == [
                "handler Save at app/editor failed: 'app/review' refused to enter: nothing to review"
            ])
    }

    @Test("respond(to:) hands the handler its node")
    func respondHandsTheNode() throws {
        weak var weakDraft: FlowController?
        do {
            let draft = FlowController(name: "draft")
            draft.respond(to: Save.self) { draft, _ in
                try draft.dismiss()
                return .handled
            }
            weakDraft = draft
        }
        #expect(weakDraft == nil)  // never entered, yet not kept alive by its handler
    }
}
