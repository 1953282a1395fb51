extension DemoApp {
    /// The commands of the built-in walkthrough: a wrong password, then sign-in with the
    /// trace on, paging, filtering, a detail, back, another detail, a rating sheet closed
    /// without a rating and one finished with a rating, logout from the detail screen, the
    /// tree, and quit.
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
        "rate",
        "close",
        "rate",
        "stars 4",
        "logout",
        "tree",
        "quit",
    ]

    /// The built-in walkthrough's whole output, as the binary prints it when standard input
    /// is empty. Call it on a new app.
    public func walkthrough() async -> [String] {
        [
            "No input: running the built-in walkthrough "
                + "(the commands: swift run flowdemo --help).",
            "",
        ]
            + (await transcript(of: Self.walkthroughCommands))
    }
}
