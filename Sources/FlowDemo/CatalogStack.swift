import FlowKit

/// The main flow's navigation stack: the list at the bottom, a detail screen over it.
final class CatalogStack: FlowStack {
    private let registration: LiveNodeCounter.Registration

    init(counter: LiveNodeCounter, root: FlowController) {
        registration = counter.register()
        super.init(name: "stack", root: root)
    }
}
