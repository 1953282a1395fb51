import FlowKit
import Testing

@Suite("Observation")
@MainActor
struct ObservationTests {
    @Test("Observers of a stack's entries see push, pop and a platform pop")
    func stackEntries() throws {
        let app = try TabbedApp()
        let stack = app.catalog
        #expect(
            try notifies({ _ = stack.entries }, when: { try stack.push(FlowController(name: "a")) })
        )
        #expect(try notifies({ _ = stack.entries }, when: { try stack.pop() }))
        try stack.push(FlowController(name: "b"))
        #expect(try notifies({ _ = stack.pathBinding }, when: { try stack.platformDidPop() }))
        // An unrelated change does not notify.
        #expect(
            try !notifies(
                { _ = stack.entries }, when: { try app.favourites.push(FlowController(name: "c")) })
        )
    }

    @Test("Observers of a presented child see present and dismiss")
    func presented() throws {
        let app = try TabbedApp()
        let list = app.catalog.entries[0]
        #expect(
            try notifies(
                { _ = list.presentedChild },
                when: { try list.present(FlowController(name: "sheet")) }))
        #expect(try notifies({ _ = list.presentedBinding }, when: { try list.dismiss() }))
        try list.present(FlowController(name: "sheet"))
        #expect(try notifies({ _ = list.presentedChild }, when: { try list.platformDidDismiss() }))
    }

    @Test("Observers of the selection and of the focused path see tab selection and focus moves")
    func selectionAndFocus() throws {
        let app = try TabbedApp()
        #expect(try notifies({ _ = app.tabs.selectedIndex }, when: { try app.tabs.select(at: 2) }))
        #expect(try notifies({ _ = app.runtime.focusedPath }, when: { try app.tabs.select(at: 0) }))
        #expect(
            try notifies(
                { _ = app.runtime.focusedNode },
                when: { try app.catalog.push(FlowController(name: "d")) }))
        // A change below a covered entry leaves the focus where it is.
        #expect(
            try !notifies(
                { _ = app.runtime.focusedPath },
                when: { try app.favourites.push(FlowController(name: "e")) }))
    }
}
