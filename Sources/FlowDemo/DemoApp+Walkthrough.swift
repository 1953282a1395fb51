extension DemoApp {
    /// The commands of the built-in walkthrough: a wrong password, then sign-in with the
    /// trace on, paging, filtering, a detail, back, another detail, the tree, logout from the
    /// detail screen, the tree again, and quit.
    public static let walkthroughCommands = [
        "login alice secret",
        "trace",
        "login alice wonderland",
        "next",
        "filter dickens",
        "select 1",
        "tree",
        "back",
        "select 6",
        "logout",
        "tree",
        "quit",
    ]

    /// The built-in walkthrough's whole output, as the binary prints it when standard input
    /// is empty. Call it on a new app.
    public func walkthrough() -> [String] {
        [
            "No input: running the built-in walkthrough "
                + "(the commands: swift run flowdemo --help).",
            "",
        ]
            + transcript(of: Self.walkthroughCommands)
    }
}
