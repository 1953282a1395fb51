import FlowKit
import FlowKitTesting
import Testing

struct OpenDetail: FlowEvent {}

/// A small shop: app → stack [catalog]; catalog's `OpenDetail` pushes a detail screen.
@MainActor
func makeShop() -> FlowController {
    let catalog = FlowController(name: "catalog")
    let stack = FlowStack(name: "stack", root: catalog)
    stack.on(OpenDetail.self) { [unowned stack] _ in
        try? stack.push(FlowController(name: "detail"))
        return .handled
    }
    let app = FlowController(name: "app")
    try! app.embed(stack)
    return app
}

@MainActor
@Suite("Core behaviour through the exhaustive harness")
struct HarnessBasedTests {
    @Test("An event pushes a screen; the platform's back pops it and nothing leaks")
    func pushAndPlatformBack() throws {
        let harness = try FlowTestHarness(root: makeShop())
        harness.send(OpenDetail(), from: harness.node("app/stack/catalog"))
        harness.expectTrace([
            "send OpenDetail from app/stack/catalog",
            "enter app/stack/detail",
            "change push app/stack +app/stack/detail",
            "deactivate app/stack/catalog",
            "activate app/stack/detail",
            "handled OpenDetail at app/stack",
        ])
        harness.leaks.track(harness.node("app/stack/detail"))
        try harness.platformBack(in: harness.node("app/stack", as: FlowStack.self))
        harness.expectTrace([
            "exit app/stack/detail",
            "change platformPop app/stack -app/stack/detail",
            "activate app/stack/catalog",
        ])
        harness.expectTree(
            """
            * app
              * stack
                * catalog
            """)
        harness.finish()
    }

    @Test("A swipe-dismissed modal flow is torn down with its dependencies")
    func platformDismissTearsDown() throws {
        let harness = try FlowTestHarness(root: makeShop())
        let catalog = harness.node("app/stack/catalog")
        do {
            let sheet = FlowController(name: "sheet")
            try sheet.embed(FlowController(name: "inner"))
            let service = Service("checkout")
            sheet.dependencies.set(service, for: ServiceKey.self)
            try harness.perform { try catalog.present(sheet) }
            harness.leaks.trackSubtree(sheet)
            harness.leaks.track(service, as: "checkout service", ownedBy: sheet)
        }
        harness.expectTrace([
            "enter app/stack/catalog/sheet",
            "enter app/stack/catalog/sheet/inner",
            "change present app/stack/catalog +app/stack/catalog/sheet",
            "activate app/stack/catalog/sheet",
            "activate app/stack/catalog/sheet/inner",
        ])
        try harness.platformDismiss(presentedBy: catalog)
        harness.expectTrace([
            "exit app/stack/catalog/sheet/inner",
            "exit app/stack/catalog/sheet",
            "change platformDismiss app/stack/catalog -app/stack/catalog/sheet",
        ])
        harness.finish()
    }
}
