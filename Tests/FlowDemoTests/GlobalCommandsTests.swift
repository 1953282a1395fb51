import FlowDemo
import FlowKit
import Testing

@MainActor
@Suite("Global commands")
struct GlobalCommandsTests {
    @Test("help explains the commands and redraws the panel; blank input does nothing")
    func help() throws {
        let app = try makeApp()
        _ = app.start()

        #expect(app.run("   ") == [])
        #expect(
            app.run("HELP")
                == [
                    "Commands of this screen are listed under 'Here' in the panel below.",
                    "tree: the live FlowController tree; trace: print FlowKit's trace on/off;",
                    "help: this text and the panel; quit: stop and count surviving nodes.",
                ] + lines(loginPanel))
    }

    @Test("trace toggles live trace lines; the runtime's own trace keeps recording")
    func traceToggle() throws {
        let app = try makeApp()
        _ = app.start()
        var transcript = app.echoAndRun("trace")
        transcript += app.echoAndRun("trace")
        transcript += app.echoAndRun("login bob builder")

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
    func prompt() throws {
        let app = try makeApp()
        _ = app.start()
        let before = app.prompt
        _ = app.run("login alice wonderland")
        _ = app.run("select 1")

        #expect([before, app.prompt] == ["app/login/form> ", "app/main/stack/detail> "])
    }
}
