import FlowKit

enum GreetingKey: DependencyKey {
    static let defaultValue = "hello"
}

enum Greeting: DependencyKey {
    static let defaultValue = "hello"
}

final class Box: Sendable {}

enum Tracker: RequiredDependencyKey {
    typealias Value = Box
}

/// A service object held only by a dependency scope.
final class Service: Sendable {
    let name: String
    init(_ name: String) { self.name = name }
}

enum ServiceKey: RequiredDependencyKey {
    typealias Value = Service
}
