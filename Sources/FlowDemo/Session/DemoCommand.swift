/// A command word the demo knows: how it is typed, what it does, and how many words may follow
/// it. One table, so help, the panels, the hints and the checks for extra words agree.
///
/// Every command is checked the same way before it runs: unknown words get a hint, a command
/// of another screen says why it does not apply here, and more words than ``maxArguments``
/// are refused with the usage (`Refused: too many words; usage: select <n>.`).
struct DemoCommand: Equatable, Sendable {
    /// The word typed, in lower case (commands are read in any case).
    let name: String
    /// How it is typed, e.g. `select <n>`.
    let usage: String
    /// What it does, for `help`.
    let summary: String
    /// The most words after the name; `nil` when the rest of the line is one value.
    let maxArguments: Int?
    /// Whether every screen takes it.
    let isGlobal: Bool
    /// Whether it is the platform's swipe back (`swipe`, `release`, `cancel`): not a button,
    /// so the panel lists it only while a swipe is in progress.
    let isGesture: Bool
    /// Whether it is about windows (global; the panel lists it once there are several).
    let isWindow: Bool

    init(
        _ name: String, usage: String? = nil, maxArguments: Int? = 0, isGlobal: Bool = false,
        isGesture: Bool = false, isWindow: Bool = false, _ summary: String
    ) {
        self.name = name
        self.usage = usage ?? name
        self.summary = summary
        self.maxArguments = maxArguments
        self.isGlobal = isGlobal
        self.isGesture = isGesture
        self.isWindow = isWindow
    }

    /// Every command, screen commands first.
    static let all: [DemoCommand] = [
        DemoCommand(
            "login", usage: "login <user> <password>", maxArguments: 2,
            "sign in; the username in any case"),
        DemoCommand("next", "the next page"),
        DemoCommand("prev", "the previous page"),
        DemoCommand("page", usage: "page <n>", maxArguments: 1, "jump to page n"),
        DemoCommand(
            "filter", usage: "filter [text]", maxArguments: nil,
            "books whose title, author or genre contains text; none clears it"),
        DemoCommand("select", usage: "select <n>", maxArguments: 1, "open book n of the list"),
        DemoCommand("back", "the platform's back button: close the book"),
        DemoCommand("rate", "rate this book in a sheet; the sheet's result comes back here"),
        DemoCommand("fav", "add this book to your favourites (the Favourites tab lists them)"),
        DemoCommand(
            "stars", usage: "stars <n>", maxArguments: 1,
            "rate the book n of 5 stars (on the book itself: unsaved until save)"),
        DemoCommand("save", "save the rating given here with stars <n>"),
        DemoCommand(
            "close",
            "the platform's close button: dismiss the sheet (no rating); with no sheet, close "
                + "this window"),
        DemoCommand("logout", "sign out; the main flow is torn down"),
        DemoCommand(
            "swipe", usage: "swipe [n%]", maxArguments: 1, isGesture: true,
            "the platform's swipe back: begin it on this stack, or move it to n%"),
        DemoCommand(
            "release", isGesture: true, "let go of the swipe: it commits, the screen closes"),
        DemoCommand(
            "cancel", isGesture: true, "let go of the swipe early: nothing changes"),
        DemoCommand(
            "tab", usage: "tab <name>", maxArguments: 1,
            "select a tab (catalog, favourites, profile); the selected one pops to its root"),
        DemoCommand(
            "open", usage: "open <link>", maxArguments: 1, isGlobal: true,
            "follow a deep link: flowdemo://books or flowdemo://books/<id>"),
        DemoCommand("about", isGlobal: true, "present the about screen over this one"),
        DemoCommand(
            "window", usage: "window new [link], window <n>", maxArguments: 2, isGlobal: true,
            isWindow: true, "open a window (showing the link), or bring window n forward"),
        DemoCommand(
            "windows", isGlobal: true, isWindow: true,
            "list the windows: what each shows, and its phase"),
        DemoCommand(
            "reclaim", usage: "reclaim <n>", maxArguments: 1, isGlobal: true, isWindow: true,
            "the system reclaims window n in the background; 'window <n>' brings it back"),
        DemoCommand(
            "tree", usage: "tree [ids]", maxArguments: 1, isGlobal: true,
            "the live FlowController tree and the node count; ids: each node's identity"),
        DemoCommand("trace", isGlobal: true, "print FlowKit's trace as it happens (on/off)"),
        DemoCommand("help", usage: "help, ?", isGlobal: true, "the commands of this screen"),
        DemoCommand(
            "quit", isGlobal: true, "stop and count the surviving FlowControllers (Ctrl-C too)"),
    ]

    /// Other words for commands.
    static let aliases = ["?": "help", "exit": "quit"]

    /// The names of the commands every screen takes, as the panel lists them.
    /// (The window commands join them once there are several windows: ``windowNames``.)
    static let globalNames = all.filter { $0.isGlobal && !$0.isWindow }.map(\.name)

    /// The window commands' names.
    static let windowNames = all.filter(\.isWindow).map(\.name)

    /// The command `word` names (any case, or an alias), if any.
    static func named(_ word: String) -> DemoCommand? {
        let name = word.lowercased()
        let canonical = aliases[name] ?? name
        return all.first { $0.name == canonical }
    }
}
