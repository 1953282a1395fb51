import FlowKit
import Swinject

/// A service as apps inject them: an immutable object.
final class BenchService: Sendable {
    let id: Int

    init(id: Int) {
        self.id = id
    }
}

/// FlowKit's key for ``BenchService``.
enum BenchServiceKey: DependencyKey {
    static let defaultValue = BenchService(id: 0)
}

/// A plain value, to show the lookup without reference counting on the result.
enum BenchNumberKey: DependencyKey {
    static let defaultValue = 0
}

/// Where the looked-up value is provided.
enum Provider: String {
    /// At the root, `depth` hops above the node that looks it up.
    case root
    /// At the node that looks it up.
    case leaf
}

/// The depths dependency lookups run at.
let lookupDepths = [1, 10, 100]

// MARK: - FlowKit

/// A FlowKit chain of `depth` nodes below a root, entered, with the service provided at the
/// root or at the leaf.
@MainActor
struct FlowKitScopes {
    let runtime: FlowRuntime
    let leaf: FlowController
    let expectedID: Int

    init(depth: Int, provider: Provider) throws {
        let root = FlowController(name: "root")
        var node = root
        for _ in 0..<depth {
            let child = FlowController(name: "node")
            try node.embed(child)
            node = child
        }
        runtime = try FlowRuntime(root: root, host: nil, trace: FlowTrace(isEnabled: false))
        try runtime.start()
        root.dependencies[BenchServiceKey.self] = BenchService(id: 1)
        root.dependencies[BenchNumberKey.self] = 1
        if provider == .leaf {
            node.dependencies[BenchServiceKey.self] = BenchService(id: 2)
            node.dependencies[BenchNumberKey.self] = 2
        }
        leaf = node
        expectedID = provider == .root ? 1 : 2
    }
}

// MARK: - Swinject

/// A chain of Swinject containers, each the parent of the next, `depth` deep; the service is
/// registered (container scope: one shared instance) at the root or at the leaf container.
struct SwinjectScopes {
    let containers: [Container]
    let expectedID: Int
    var leaf: Container { containers[containers.count - 1] }

    init(depth: Int, provider: Provider) {
        let root = Container()
        root.register(BenchService.self) { _ in BenchService(id: 1) }.inObjectScope(.container)
        var containers = [root]
        for _ in 0..<depth {
            containers.append(Container(parent: containers[containers.count - 1]))
        }
        if provider == .leaf {
            containers[containers.count - 1].register(BenchService.self) { _ in
                BenchService(id: 2)
            }.inObjectScope(.container)
        }
        self.containers = containers
        expectedID = provider == .root ? 1 : 2
    }
}

// MARK: - Cases

/// Dependency lookup at depths 1, 10 and 100, provided at the root and at the leaf: FlowKit
/// beside Swinject containers with parent containers.
@MainActor
func runDependencyBenchmarks(_ harness: Harness) throws {
    let flowLookups = 100_000
    let swinjectLookups = 5_000
    for provider in [Provider.root, .leaf] {
        for depth in lookupDepths {
            let scopes = try FlowKitScopes(depth: depth, provider: provider)
            let leaf = scopes.leaf
            let expected = scopes.expectedID
            harness.measure(
                "Dependencies.flowkit/\(provider.rawValue),depth=\(depth)",
                operations: flowLookups
            ) {
                var sum = 0
                for _ in 0..<flowLookups { sum &+= leaf.dependencies[BenchServiceKey.self].id }
                precondition(sum == flowLookups * expected, "FlowKit resolved the wrong service")
                return UInt(sum)
            }

            let containers = SwinjectScopes(depth: depth, provider: provider)
            let container = containers.leaf
            let swinjectExpected = containers.expectedID
            harness.measure(
                "Dependencies.swinject/\(provider.rawValue),depth=\(depth)",
                operations: swinjectLookups
            ) {
                var sum = 0
                for _ in 0..<swinjectLookups {
                    sum &+= container.resolve(BenchService.self)!.id
                }
                precondition(
                    sum == swinjectLookups * swinjectExpected,
                    "Swinject resolved the wrong service")
                return UInt(sum)
            }
        }
    }

    // A value type: the lookup without retaining the result.
    let depth = 100
    let scopes = try FlowKitScopes(depth: depth, provider: .root)
    let leaf = scopes.leaf
    harness.measure("Dependencies.flowkitInt/root,depth=\(depth)", operations: flowLookups) {
        var sum = 0
        for _ in 0..<flowLookups { sum &+= leaf.dependencies[BenchNumberKey.self] }
        precondition(sum == flowLookups, "FlowKit resolved the wrong value")
        return UInt(sum)
    }
}
