import FlowKit

/// The app-wide auth service, set on the app root.
public enum AuthServiceKey: RequiredDependencyKey {
    public typealias Value = AuthService
}

/// The app-wide book catalog, set on the app root.
public enum CatalogStoreKey: RequiredDependencyKey {
    public typealias Value = CatalogStore
}

/// The signed-in session. Set on the main flow only: nodes outside the main flow's subtree
/// cannot see it, and it is released when the main flow is torn down.
public enum SessionKey: RequiredDependencyKey {
    public typealias Value = UserSession
}

/// Where nodes write output, set on the app root.
public enum ConsoleKey: RequiredDependencyKey {
    public typealias Value = DemoConsole
}

/// The clock the login lockout uses. Defaults to a ``SystemDemoClock`` started when the key
/// is first read; tests set a ``ManualDemoClock`` on the app root.
public enum DemoClockKey: DependencyKey {
    public static let defaultValue: any DemoClock = SystemDemoClock()
}

extension FlowController {
    /// The console set on the app root.
    ///
    /// - Precondition: The node is in a demo tree (the app root sets the console).
    var console: DemoConsole {
        do {
            return try dependencies.require(ConsoleKey.self)
        } catch {
            preconditionFailure("\(error)")
        }
    }
}
