import FlowKit
import Testing

/// The README's example, verbatim in behaviour, so that it cannot drift from the API.
@MainActor
@Suite("README example")
struct ReadmeExampleTests {
    struct ItemSelected: FlowEvent { let id: Int }
    enum GreetingKey: DependencyKey { static let defaultValue = "Hello" }

    @Test("The README example runs and does what its comments say")
    func readmeExample() throws {
        let list = FlowController(name: "list")
        let stack = FlowStack(name: "stack", root: list)
        let app = FlowSwitch(name: "app", initial: stack)
        app.dependencies[GreetingKey.self] = "Welcome"
        stack.on(ItemSelected.self) { event in
            try stack.push(FlowController(name: "detail-\(event.id)"))  // errors go to onError
            return .handled
        }
        let runtime = try FlowRuntime(root: app)
        try runtime.start()
        list.send(ItemSelected(id: 3))
        #expect(
            runtime.treeDescription() == """
                * app
                  * stack
                      list
                    * detail-3
                """)
        #expect(list.dependencies[GreetingKey.self] == "Welcome")
        weak let detail = stack.top
        try stack.pop()
        #expect(detail == nil)
        #expect(stack.entries.map(\.name) == ["list"])
    }
}
