import FlowDemo
import FlowKit
import Testing

@MainActor
@Suite("Global commands")
struct GlobalCommandsTests {
    @Test("help and ? list the commands of this screen and redraw the panel; blank does nothing")
    func help() async throws {
        let app = try makeApp()
        _ = await app.start()
        let anywhere = [
            "Anywhere:",
            "  open <link>               follow a deep link: flowdemo://books or flowdemo://books/<id>",
            "  about                     present the about screen over this one",
            "  tree [ids]                the live FlowController tree and the node count; ids: each node's identity",
            "  trace                     print FlowKit's trace as it happens (on/off)",
            "  help, ?                   the commands of this screen",
            "  quit                      stop and count the surviving FlowControllers (Ctrl-C too)",
            "Windows (each a tree of its own; the panel shows a window bar once there are two):",
            "  window new [link], window <n>   open a window (showing the link), or bring window n forward",
            "  windows                         list the windows: what each shows, and its phase",
            "  reclaim <n>                     the system reclaims window n in the background; 'window <n>' brings it back",
        ]

        #expect(await app.run("   ") == [])
        #expect(
            await app.run("HELP")
                == [
                    "Commands on this screen (Sign in):",
                    "  login <user> <password>   sign in; the username in any case",
                ] + anywhere + lines(loginPanel))
        _ = await app.run("login bob builder")
        _ = await app.run("select 1")
        let detailHelp = await app.run("?")
        #expect(
            Array(detailHelp.prefix(6)) == [
                "Commands on this screen (Pride and Prejudice):",
                "  back          the platform's back button: close the book",
                "  rate          rate this book in a sheet; the sheet's result comes back here",
                "  fav           add this book to your favourites (the Favourites tab lists them)",
                "  logout        sign out; the main flow is torn down",
                "  tab <name>    select a tab (catalog, favourites, profile); the selected one pops "
                    + "to its root",
            ])
        #expect(detailHelp.dropFirst(6).first == "Anywhere:")
        #expect(detailHelp.contains("+-- Pride and Prejudice " + String(repeating: "-", count: 48)))
    }

    @Test("trace toggles live trace lines; the runtime's own trace keeps recording")
    func traceToggle() async throws {
        let app = try makeApp()
        _ = await app.start()
        var transcript = await app.echoAndRun("trace")
        transcript += await app.echoAndRun("trace")
        transcript += await app.echoAndRun("login bob builder")

        #expect(
            Array(transcript.prefix(5)) == [
                "> trace",
                "Trace on: FlowKit's trace lines follow as they happen.",
                "> trace",
                "Trace off.",
                "> login bob builder",
            ])
        #expect(transcript.filter { $0.hasPrefix("  trace: ") } == [])
        #expect(app.runtime.trace.lines.contains("change switch app -app/login +app/main"))
        #expect(!app.isTracing)
    }

    @Test("The prompt is the focused path")
    func prompt() async throws {
        let app = try makeApp()
        _ = await app.start()
        let before = app.prompt
        _ = await app.run("login alice wonderland")
        _ = await app.run("select 1")

        #expect(
            [before, app.prompt] == ["app/login/form> ", "app/main/tabs/catalog/book/detail> "])
    }
}
