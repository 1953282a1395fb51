extension DemoApp {
    /// The commands of the built-in walkthrough: a wrong password, then sign-in with the
    /// trace on, paging, filtering, a detail, back, another detail, a rating sheet closed
    /// without a rating and one finished with a rating, the book added to the favourites, the
    /// Favourites tab with the book pushed on its own stack, the tree, back to the Catalog tab
    /// (its detail still there) and again (popped to its root), the Profile tab, logout from
    /// there, the tree, and quit.
    public static let walkthroughCommands = [
        "login alice secret",
        "trace",
        "login alice wonderland",
        "next",
        "filter dickens",
        "select 1",
        "back",
        "select 6",
        "rate",
        "close",
        "rate",
        "stars 4",
        "fav",
        "tab favourites",
        "select 1",
        "tree",
        "tab catalog",
        "tab catalog",
        "tab profile",
        "logout",
        "tree",
        "quit",
    ]

    /// The built-in walkthrough's whole output, as the binary prints it when standard input
    /// is empty. Call it on a new app.
    ///
    /// It neither restores nor saves the ``stateFile``: it always starts at the login screen.
    public func walkthrough() async -> [String] {
        var banner = [
            "No input: running the built-in walkthrough "
                + "(the commands: swift run flowdemo --help)."
        ]
        if let stateFile {
            banner.append("(The walkthrough neither restores nor saves \(stateFile.shownPath).)")
            forgetStateFile()
        }
        return banner + [""] + (await transcript(of: Self.walkthroughCommands))
    }
}
