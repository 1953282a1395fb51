import FlowKit
import Testing

@MainActor
@Suite("Hosting guide: the UIKit host's gestures and the platform's own transitions")
struct HostingGuideGestureTests {
    /// The fixture with `detail` pushed on `catalog` and shown.
    static func withDetail(
        guard decision: FlowGuardDecision? = nil
    ) throws -> (HostedUIKitApp, UINavigationController) {
        let fixture = try HostedUIKitApp()
        let detail = fixture.bag.made(FlowController(name: "detail"))
        if let decision { detail.exitGuard = { decision } }
        try fixture.catalog.push(detail)
        fixture.settleAndExpectScreenMatchesTree("pushed")
        fixture.runtime.trace.removeAll()
        return (fixture, try fixture.navigation(fixture.catalog))
    }

    @Test("A cancelled swipe back changes nothing: same tree, entry and view controller kept")
    func cancelledSwipe() throws {
        let (fixture, navigation) = try Self.withDetail()
        let tree = fixture.runtime.treeDescription()
        let steps = fixture.transitions.performedSteps.count
        let detail = try #require(fixture.catalog.top)
        let shown = fixture.host.keptController(detail.id)
        #expect(navigation.beginInteractivePop())
        #expect(fixture.catalog.top === detail)  // nothing changes while the finger moves
        navigation.finishInteractivePop(cancelled: true)
        fixture.settleAndExpectScreenMatchesTree("cancelled swipe")
        #expect(fixture.runtime.treeDescription() == tree)
        #expect(fixture.transitions.performedSteps.count == steps)
        #expect(fixture.host.keptController(detail.id) === shown)
        #expect(fixture.bag.alive == ["detail"])
        #expect(
            fixture.runtime.trace.lines == [
                "gesture pop began at app/tabs/catalog",
                "gesture pop cancelled at app/tabs/catalog",
            ])
    }

    @Test("A committed swipe tears the entry down; a push asked meanwhile waits for UIKit")
    func committedSwipe() throws {
        let (fixture, navigation) = try Self.withDetail()
        let steps = fixture.transitions.performedSteps.count
        #expect(navigation.beginInteractivePop())
        navigation.finishInteractivePop(cancelled: false)  // the user let go: FlowKit commits
        #expect(fixture.catalog.entries.map(\.name) == ["list"])
        #expect(fixture.bag.alive.isEmpty)
        #expect(fixture.transitions.performedSteps.count == steps)  // not echoed
        // The push is planned at once, but UIKit still finishes the pop: the host holds it.
        try fixture.catalog.push(FlowController(name: "next"))
        #expect(fixture.transitions.performedSteps.count == steps + 1)
        #expect(navigation.viewControllers.map(\.title) == ["list"])
        fixture.settleAndExpectScreenMatchesTree("committed swipe, then the push")
        #expect(navigation.viewControllers.map(\.title) == ["list", "next"])
        #expect(
            fixture.runtime.trace.lines.filter { $0.hasPrefix("gesture") } == [
                "gesture pop began at app/tabs/catalog",
                "gesture pop committed at app/tabs/catalog",
            ])
    }

    @Test("A push asked during a swipe the user gives up is shown once the top slid back")
    func pushDuringCancelledSwipe() throws {
        let (fixture, navigation) = try Self.withDetail()
        let sets = navigation.setCount
        #expect(navigation.beginInteractivePop())
        try fixture.catalog.push(FlowController(name: "next"))  // FlowKit holds it
        navigation.finishInteractivePop(cancelled: true)  // planned now, held by the host
        #expect(navigation.setCount == sets)
        fixture.settleAndExpectScreenMatchesTree("cancelled swipe, then the push")
        #expect(navigation.viewControllers.map(\.title) == ["list", "detail", "next"])
    }

    @Test("An exit guard refuses the swipe in gestureRecognizerShouldBegin: it never begins")
    func guardedSwipe() throws {
        let (fixture, navigation) = try Self.withDetail(guard: .refuse("unsaved edits"))
        #expect(!navigation.beginInteractivePop())
        #expect(navigation.viewControllers.map(\.title) == ["list", "detail"])
        #expect(fixture.catalog.entries.map(\.name) == ["list", "detail"])
        #expect(fixture.runtime.trace.lines.isEmpty)
        fixture.settleAndExpectScreenMatchesTree("refused swipe")
    }

    @Test("No swipe while a step animates in the stack")
    func noSwipeDuringAStep() throws {
        let (fixture, navigation) = try Self.withDetail()
        try fixture.catalog.push(FlowController(name: "more"))
        #expect(!navigation.beginInteractivePop())
        fixture.settleAndExpectScreenMatchesTree("push")
    }

    @Test("A push during a back-button pop waits for the pop's didShow")
    func pushDuringBackButton() throws {
        let (fixture, navigation) = try Self.withDetail()
        navigation.tapBack()  // UIKit animates the pop and tells willShow: FlowKit pops
        #expect(fixture.catalog.entries.map(\.name) == ["list"])
        try fixture.catalog.push(FlowController(name: "next"))
        #expect(UIKitStandIns.illegalCalls == [])
        #expect(navigation.viewControllers.map(\.title) == ["list"])
        navigation.finishTransition()  // didShow: the waiting push starts
        #expect(navigation.viewControllers.map(\.title) == ["list", "next"])
        #expect(fixture.catalog.entries.map(\.name) == ["list", "next"])
        fixture.settleAndExpectScreenMatchesTree("back button, then the push")
        #expect(fixture.bag.alive.isEmpty)
    }

    /// The fixture with `sheet` presented by `list`.
    static func withSheet(
        guard decision: FlowGuardDecision? = nil
    ) throws -> (HostedUIKitApp, FlowController, UIViewController) {
        let fixture = try HostedUIKitApp()
        let list = try #require(fixture.catalog.top)
        let sheet = fixture.bag.made(FlowController(name: "sheet"))
        if let decision { sheet.exitGuard = { decision } }
        try list.present(sheet)
        fixture.settleAndExpectScreenMatchesTree("presented")
        fixture.runtime.trace.removeAll()
        return (fixture, list, try #require(fixture.host.keptController(list.id)))
    }

    @Test("A sheet dragged down and given up stays; dragged and released, it is torn down")
    func sheetDrag() throws {
        let (fixture, list, presenter) = try Self.withSheet()
        let steps = fixture.transitions.performedSteps.count
        #expect(presenter.beginSheetDrag())
        presenter.finishSheetDrag(cancelled: true)
        fixture.settleAndExpectScreenMatchesTree("drag given up")
        #expect(list.presentedChild?.name == "sheet")
        #expect(fixture.bag.alive == ["sheet"])
        #expect(presenter.beginSheetDrag())
        presenter.finishSheetDrag(cancelled: false)
        #expect(list.presentedChild != nil)  // UIKit still animates it away
        presenter.finishTransition()  // presentationControllerDidDismiss: FlowKit commits
        #expect(list.presentedChild == nil)
        fixture.settleAndExpectScreenMatchesTree("sheet dragged away")
        #expect(fixture.bag.alive.isEmpty)
        #expect(fixture.transitions.performedSteps.count == steps)  // nothing echoed
        #expect(
            fixture.runtime.trace.lines.filter { $0.hasPrefix("gesture") } == [
                "gesture dismiss began at app/tabs/catalog/list",
                "gesture dismiss cancelled at app/tabs/catalog/list",
                "gesture dismiss began at app/tabs/catalog/list",
                "gesture dismiss committed at app/tabs/catalog/list",
            ])
    }

    @Test("A dismissal asked during a drag the user gives up waits until the sheet is back")
    func dismissDuringDrag() throws {
        let (fixture, list, presenter) = try Self.withSheet()
        #expect(presenter.beginSheetDrag())
        try list.dismiss()  // FlowKit holds the step while the gesture runs
        presenter.finishSheetDrag(cancelled: true)
        #expect(list.presentedChild == nil)
        #expect(UIKitStandIns.illegalCalls == [])
        fixture.settleAndExpectScreenMatchesTree("dismissed after the drag")
        #expect(fixture.bag.alive.isEmpty)
    }

    @Test("An exit guard keeps the sheet: presentationControllerShouldDismiss says no")
    func guardedSheet() throws {
        let (fixture, list, presenter) = try Self.withSheet(guard: .refuse("unsaved edits"))
        #expect(!presenter.beginSheetDrag())
        #expect(list.presentedChild?.name == "sheet")
        #expect(fixture.runtime.trace.lines.isEmpty)
        fixture.settleAndExpectScreenMatchesTree("refused drag")
    }
}
