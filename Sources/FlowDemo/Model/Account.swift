/// A user the demo's auth service knows.
public struct Account: Equatable, Hashable, Sendable {
    /// The name typed at the login screen.
    public let username: String
    /// The password typed at the login screen (a demo: stored in the clear).
    public let password: String
    /// The name the screens show.
    public let displayName: String

    /// Creates an account.
    public init(username: String, password: String, displayName: String) {
        self.username = username
        self.password = password
        self.displayName = displayName
    }

    /// The accounts shipped with the demo: `alice` / `wonderland` and `bob` / `builder`.
    public static let shipped: [Account] = [
        Account(username: "alice", password: "wonderland", displayName: "Alice"),
        Account(username: "bob", password: "builder", displayName: "Bob"),
    ]
}
