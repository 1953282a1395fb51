import FlowKit

/// The profile tab: who is signed in and what this session holds, with `logout`.
final class ProfileScreen: FlowController, DemoScreen {
    private let registration: LiveNodeCounter.Registration

    init(counter: LiveNodeCounter) {
        registration = counter.register()
        super.init(name: "profile", route: "profile")
    }

    var title: String { "Profile" }

    var commandNames: [String] { ["logout"] }

    func content() -> [String] {
        guard let session = try? dependencies.require(SessionKey.self) else {
            return ["Nobody is signed in."]
        }
        return [
            "Signed in as \(session.account.displayName) (username \(session.account.username))",
            "",
            "Books opened this session: \(session.viewedBookIDs.count)",
            "Favourites: \(session.favouriteBookIDs.count)",
            "Books rated: \(session.ratings.count)",
            "",
            "logout signs out: the main flow, with every tab, is torn down.",
        ]
    }

    func perform(_ command: String, arguments: [String]) {
        precondition(command == "logout", "ProfileScreen: '\(command)' is not a command here")
        send(LogoutRequested())
    }

    func whyNot(_ command: String) -> String {
        switch command {
        case "back": return "the profile is its tab's only screen; 'tab <name>' switches tabs."
        case "login": return "already signed in; logout first."
        default: return "not on the profile; 'tab catalog' shows the books."
        }
    }
}
