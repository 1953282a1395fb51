import FlowDemo
import FlowKit

/// Splits a multi-line literal into the lines a transcript is compared with.
func lines(_ text: String) -> [String] {
    text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
}

/// A new demo app over the shipped catalog, with a manual clock unless one is given.
@MainActor
func makeApp(clock: ManualDemoClock = ManualDemoClock()) throws -> DemoApp {
    try DemoApp.shipped(clock: clock)
}

/// The panel of the login screen, as drawn while sign-in is not locked.
let loginPanel = """
    +-- Sign in ------------------------------------------------------------
    | app/login/form
    |
    | Demo accounts (username / password):
    |   alice / wonderland
    |   bob / builder
    | 3 wrong attempts in a row lock a user out for 10 seconds.
    |
    | Here: login <user> <password>
    | Anywhere: open, about, tree, trace, help, quit
    +-----------------------------------------------------------------------
    """

/// What ``DemoApp/start()`` prints before the first panel.
let greeting = """
    FlowKit demo: the app is a tree of FlowControllers. Type 'help' for help.

    """
