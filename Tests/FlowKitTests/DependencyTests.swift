import Testing

@testable import FlowKit

enum GreetingKey: DependencyKey {
    static let defaultValue = "hello"
}

@MainActor
@Suite("Dependencies")
struct DependencyTests {
    @Test("Lookup resolves from the node, then its ancestors, then the default")
    func lookupOrder() throws {
        let (runtime, _, app, main, stack, list) = try makeApp()
        #expect(list.dependencies[GreetingKey.self] == "hello")
        app.dependencies[GreetingKey.self] = "from app"
        #expect(list.dependencies[GreetingKey.self] == "from app")
        main.dependencies[GreetingKey.self] = "from main"
        #expect(list.dependencies[GreetingKey.self] == "from main")
        #expect(app.dependencies[GreetingKey.self] == "from app")
        list.dependencies[GreetingKey.self] = "own"
        #expect(list.dependencies[GreetingKey.self] == "own")
        #expect(stack.dependencies[GreetingKey.self] == "from main")
        main.dependencies.removeValue(for: GreetingKey.self)
        #expect(stack.dependencies[GreetingKey.self] == "from app")
        #expect(list.dependencies[GreetingKey.self] == "own")
        _ = runtime
    }

    @Test("Sibling subtrees do not see each other's overrides")
    func siblingsAreIsolated() throws {
        let (runtime, _, _, _, stack, list) = try makeApp()
        let detail = FlowController(name: "detail")
        list.dependencies[GreetingKey.self] = "list only"
        try stack.push(detail)
        #expect(detail.dependencies[GreetingKey.self] == "hello")
        detail.dependencies[GreetingKey.self] = "detail only"
        #expect(list.dependencies[GreetingKey.self] == "list only")
        _ = runtime
    }

    @Test("Values set on an ancestor after attachment reach existing descendants")
    func laterValuesPropagate() throws {
        let (runtime, _, app, _, stack, list) = try makeApp()
        let detail = FlowController(name: "detail")
        try stack.push(detail)
        app.dependencies.set(Service("late"), for: ServiceKey.self)
        #expect(try detail.dependencies.require(ServiceKey.self).name == "late")
        #expect(try list.dependencies.require(ServiceKey.self).name == "late")
        _ = runtime
    }

    @Test("Values set before attaching are seen, and the new parent's values too")
    func valuesOfSubtreesBuiltOffline() throws {
        let (runtime, _, app, _, stack, _) = try makeApp()
        app.dependencies[GreetingKey.self] = "app"
        let flow = FlowController(name: "flow")
        let leaf = FlowController(name: "leaf")
        try flow.embed(leaf)
        flow.dependencies.set(Service("flow"), for: ServiceKey.self)
        #expect(leaf.dependencies[GreetingKey.self] == "hello")  // not attached yet
        #expect(try leaf.dependencies.require(ServiceKey.self).name == "flow")
        try stack.push(flow)
        #expect(leaf.dependencies[GreetingKey.self] == "app")
        #expect(try leaf.dependencies.require(ServiceKey.self).name == "flow")
        _ = runtime
    }

    @Test("Lookup gives the same answers at any depth", arguments: [1, 10, 100])
    func deepLookup(depth: Int) throws {
        let (runtime, nodes) = try makeChain(depth: depth)
        nodes[0].dependencies[GreetingKey.self] = "root"
        #expect(nodes.last!.dependencies[GreetingKey.self] == "root")
        nodes[(depth + 1) / 2].dependencies[GreetingKey.self] = "middle"
        #expect(nodes.last!.dependencies[GreetingKey.self] == "middle")
        #expect(nodes[0].dependencies[GreetingKey.self] == "root")
        _ = runtime
    }

    @Test("An exited node's values are gone and setting more does nothing")
    func exitedScopes() throws {
        let (runtime, _, _, _, stack, _) = try makeApp()
        let detail = FlowController(name: "detail")
        detail.dependencies[GreetingKey.self] = "mine"
        try stack.push(detail)
        try stack.pop()
        #expect(detail.dependencies[GreetingKey.self] == "hello")
        detail.dependencies[GreetingKey.self] = "again"
        #expect(!detail.dependencies.setsValue(for: GreetingKey.self))
        _ = runtime
    }
}

@Suite("Identity table")
struct IdentityTableTests {
    final class K0 {}
    @Test("Insert, replace, remove and look up agree with Dictionary over random operations")
    func matchesDictionary() {
        let types: [Any.Type] = [
            Int.self, String.self, Double.self, Float.self, Bool.self, UInt8.self, Int8.self,
            UInt16.self, Int16.self, UInt32.self, Int32.self, UInt64.self, Int64.self, K0.self,
            [Int].self, [String].self, Set<Int>.self, Character.self, Substring.self,
            Optional<Int>.self, (Int, Int).self, E1.self, E2.self, E3.self, E4.self, E5.self,
        ]
        let keys = types.map { ObjectIdentifier($0) }
        var table = _IdentityTable<Int>()
        var reference: [ObjectIdentifier: Int] = [:]
        var generator = SplitMix(seed: 42)
        for step in 0..<20_000 {
            let key = keys[Int(generator.next() % UInt64(keys.count))]
            if generator.next() % 3 == 0 {
                table[key] = nil
                reference[key] = nil
            } else {
                table[key] = step
                reference[key] = step
            }
            let probe = keys[Int(generator.next() % UInt64(keys.count))]
            #expect(table[probe] == reference[probe])
            #expect(table.count == reference.count)
        }
    }
}

/// A small deterministic random generator for tests.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
