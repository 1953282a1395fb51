import FlowDemo
import FlowKit
import Testing

/// The demo's awaited flows: the app root awaits the login flow (`run(_:_:)`), and the detail
/// screen awaits the rating sheet, which `stars <n>` finishes and `close` cancels.
@MainActor
@Suite("Demo: awaited flows")
struct ResultsDemoTests {
    /// A started app, signed in as bob, on the detail of book 1.
    private func onDetail() async throws -> DemoApp {
        let app = try makeApp()
        _ = await app.start()
        _ = await app.run("login bob builder")
        _ = await app.run("select 1")
        return app
    }

    @Test("The app root awaits the login flow: signing in switches to main in the same step")
    func loginIsAwaited() async throws {
        let app = try makeApp()
        _ = await app.start()
        #expect(app.runtime.focusedNode?.path == "app/login/form")
        app.runtime.trace.removeAll()
        let output = await app.run("login bob builder")
        #expect(output.first == "Signed in as Bob: the app root shows the main flow.")
        #expect(app.runtime.focusedNode?.path == "app/main/tabs/catalog/books/list")
        #expect(app.runtime.trace.lines.contains("finished app/login: result to run at app"))
        #expect(!app.runtime.trace.lines.contains { $0.contains("FlowFinished") })
    }

    @Test("stars finishes the sheet: the rating is recorded and the sheet dismissed")
    func ratingFinishes() async throws {
        let app = try await onDetail()
        let shown = await app.run("rate")
        #expect(app.runtime.focusedNode?.path == "app/main/tabs/catalog/book/detail/rate")
        #expect(shown.contains("| How many stars for Pride and Prejudice?"))
        weak let sheet = app.runtime.focusedNode
        let output = await app.run("stars 5")
        #expect(output.first == "You gave Pride and Prejudice 5 of 5 stars.")
        #expect(output.contains("| Your rating: 5 of 5 stars"))
        #expect(app.runtime.focusedNode?.path == "app/main/tabs/catalog/book/detail")
        #expect(sheet == nil)
        #expect(app.liveNodes.alive == 11)
    }

    @Test("close cancels the sheet's run: the detail says so, nothing is rated, nothing leaks")
    func closeCancels() async throws {
        let app = try await onDetail()
        _ = await app.run("rate")
        weak let sheet = app.runtime.focusedNode
        app.runtime.trace.removeAll()
        let output = await app.run("close")
        #expect(output.first == "Rating cancelled: the sheet was closed without a rating.")
        #expect(!output.contains { $0.contains("Your rating") })
        #expect(
            app.runtime.trace.lines.contains(
                "cancelled app/main/tabs/catalog/book/detail/rate (it left without finishing): run at "
                    + "app/main/tabs/catalog/book/detail throws"))
        #expect(sheet == nil)
        #expect(app.liveNodes.alive == 11)
    }

    @Test("A wrong number of stars is refused and the sheet stays")
    func badStars() async throws {
        let app = try await onDetail()
        _ = await app.run("rate")
        #expect(
            await app.run("stars 9").first
                == "Refused: give a number of stars from 1 to 5 (stars <n>).")
        #expect(app.runtime.focusedNode?.path == "app/main/tabs/catalog/book/detail/rate")
        #expect(
            await app.run("back").first
                == "back: the sheet is not on a stack; 'close' dismisses it.")
    }

    @Test("Quitting while the sheet is up ends both awaits quietly and frees every node")
    func quitWithSheet() async throws {
        let app = try await onDetail()
        _ = await app.run("rate")
        let output = await app.quit()
        #expect(
            output == [
                "Quitting: the runtime stops and every node exits, innermost first.",
                "FlowController instances still alive: 0 (14 created in this run).",
            ])
    }
}
