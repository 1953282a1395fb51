import FlowDemo
import Foundation
import Testing

/// The built binary with piped input: what a script or `printf … | swift run flowdemo` sees.
@Suite("flowdemo binary, piped")
struct PipedBinaryTests {
    @Test("Ctrl-C (SIGINT) while the demo waits for input quits as quit does, exit status 0")
    func sigintWhileReading() throws {
        let demo = try RunningFlowdemo.piped()
        demo.send("login alice wonderland\n")
        #expect(demo.read(until: "Page 1 of 8"))
        demo.process.interrupt()  // SIGINT, as Ctrl-C sends to the foreground job
        let status = demo.waitForExit()

        #expect(status == 0)
        #expect(
            demo.text.hasSuffix(
                """
                (interrupted: quitting as 'quit' does)
                Quitting: the runtime stops and every node exits, innermost first.
                FlowController instances still alive: 0 (12 created in this run).

                """))
    }

    @Test("SIGTERM takes the same path")
    func sigterm() throws {
        let demo = try RunningFlowdemo.piped()
        demo.send("tree\n")
        demo.read(until: "marks the focused path)\n")
        demo.process.terminate()

        #expect(demo.waitForExit() == 0)
        #expect(
            demo.text.hasSuffix(
                "FlowController instances still alive: 0 (3 created in this run).\n"))
    }

    @Test("Escape sequences, over-long lines and a last line without a newline, end to end")
    func roughInput() throws {
        let long = String(repeating: "y", count: 300)
        let result = try runFlowdemo(
            stdin: "\u{1B}]0;pwned\u{07}tr\u{1B}[Aee\nfilter \(long)\nqu\u{1B}[31mit")

        #expect(result.status == 0)
        #expect(!result.stdout.contains("\u{1B}"))
        #expect(
            result.stdout.hasSuffix(
                """
                > tree
                * app
                  * login
                    * form
                FlowController instances alive: 3 (3 in the tree; * marks the focused path)
                > filter \(String(repeating: "y", count: 52))…
                Refused: the line has 307 characters; a command has at most 200.
                > quit
                Quitting: the runtime stops and every node exits, innermost first.
                FlowController instances still alive: 0 (3 created in this run).

                """))
    }

    @Test("An endless line is cut by the reader and refused, and the demo carries on")
    func endlessLine() throws {
        let result = try runFlowdemo(stdin: String(repeating: "z", count: 100_000) + "\ntree\n")

        #expect(result.status == 0)
        #expect(
            result.stdout.contains(
                "Refused: the line has more than 4096 characters; a command has at most 200.\n"
                    + "> tree\n"))
    }
}

/// The built binary on a pseudo-terminal: what a person at a terminal sees.
@Suite(
    "flowdemo binary, in a terminal",
    .enabled(
        if: RunningFlowdemo.canOpenTerminal,
        "SKIPPED: this system cannot open a pseudo-terminal (openpty failed)"))
struct TerminalBinaryTests {
    let environment = ["TERM": "xterm-256color", "LANG": "C.UTF-8"]

    /// `text` without ANSI control sequences.
    func visible(_ text: Substring) -> String {
        var result = ""
        var skipping = false
        for character in text {
            if character == "\u{1B}" {
                skipping = true
            } else if skipping {
                if character.isLetter || character == "~" { skipping = false }
            } else if character != "\r" {
                result.append(character)
            }
        }
        return result
    }

    /// Whether `text` has an ANSI SGR sequence (`ESC [` digits and semicolons, then `m`).
    func containsColorCode(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        for (index, scalar) in scalars.enumerated() where scalar == "\u{1B}" {
            var next = index + 1
            guard next < scalars.count, scalars[next] == "[" else { continue }
            next += 1
            while next < scalars.count, "0123456789;".unicodeScalars.contains(scalars[next]) {
                next += 1
            }
            if next < scalars.count, scalars[next] == "m" { return true }
        }
        return false
    }

    /// The box lines of the last screen in `text`, without colours.
    func lastBox(_ text: String) -> [String] {
        let screen = text.components(separatedBy: DemoRenderer.clearScreen).last ?? ""
        return screen.split { $0 == "\n" || $0 == "\r\n" }.map(visible).filter {
            $0.hasPrefix("┌") || $0.hasPrefix("│") || $0.hasPrefix("└")
        }
    }

    @Test("Colours, a clear screen per step, a box that fits, arrow keys, and Ctrl-C quits")
    func session() throws {
        let demo = try RunningFlowdemo.inTerminal(columns: 44, environment: environment)
        #expect(demo.read(until: "app/login/form> "))
        demo.send("login alice wonderland\r")
        #expect(demo.read(until: "catalog/books/list> "))
        demo.send("filter dickns\u{1B}[D\u{1B}[De\u{1B}]0;pwned\u{07}\r")
        #expect(demo.read(until: "books match"))
        #expect(demo.read(until: "catalog/books/list> \u{1B}[0m\u{1B}[K"))
        demo.send("\u{03}")
        let status = demo.waitForExit()
        let text = demo.text

        #expect(status == 0)
        #expect(text.components(separatedBy: DemoRenderer.clearScreen).count == 4)
        // Messages wrap at spaces to the 44 columns, each line in the message's colour.
        #expect(
            text.contains(
                "\u{1B}[32mSigned in as Alice: the app root shows the\u{1B}[0m\r\n"
                    + "\u{1B}[32m  main flow.\u{1B}[0m\r\n"))
        #expect(text.contains("\u{1B}[1m> filter dickens\u{1B}[0m\r\n"))
        #expect(text.contains("\u{1B}[33m6 of 64 books match \"dickens\".\u{1B}[0m"))
        #expect(containsColorCode(text))
        #expect(!text.contains("]0;") && !text.contains("pwned"))
        let box = lastBox(text)
        #expect(box.count == 19)  // with the tab bar
        #expect(box.allSatisfy { DemoText.width($0) == 44 }, "\(box)")
        #expect(box.contains("│   2. A Tale of Two Cities - Charles Dic… │"))
        #expect(box.contains("│ Tabs: [Catalog] Favourites Profile       │"))
        #expect(text.contains("\u{1B}[1mTabs:\u{1B}[0m [Catalog] Favourites Profile"))
        #expect(text.contains("^C\r\n\u{1B}[33m(interrupted: quitting as 'quit' does)"))
        #expect(
            text.hasSuffix(
                "\u{1B}[32mFlowController instances still alive: 0 (12\u{1B}[0m\r\n"
                    + "\u{1B}[32m  created in this run).\u{1B}[0m\r\n"))
    }

    @Test("NO_COLOR: the same screens without a single colour code")
    func noColor() throws {
        var environment = environment
        environment["NO_COLOR"] = "1"
        let demo = try RunningFlowdemo.inTerminal(columns: 60, environment: environment)
        #expect(demo.read(until: "app/login/form> "))
        demo.send("login bob nope\r")
        #expect(demo.read(until: "bob out for 10 s)."))  // wrapped at 60 columns
        demo.send("quit\r")
        let status = demo.waitForExit()

        #expect(status == 0)
        #expect(!containsColorCode(demo.text))
        #expect(demo.text.components(separatedBy: DemoRenderer.clearScreen).count == 3)
        #expect(lastBox(demo.text).count == 11)
        #expect(lastBox(demo.text).allSatisfy { DemoText.width($0) == 60 })
        #expect(
            demo.text.hasSuffix(
                "FlowController instances still alive: 0 (3 created in this\r\n  run).\r\n"))
    }

    @Test("Ctrl-D in the middle of a line ends the demo cleanly on a fresh line")
    func endOfInputMidLine() throws {
        let demo = try RunningFlowdemo.inTerminal(columns: 80, environment: environment)
        #expect(demo.read(until: "app/login/form> "))
        demo.send("tre")
        #expect(demo.read(until: "tre\u{1B}[K"))
        demo.send("\u{04}")

        #expect(demo.waitForExit() == 0)
        #expect(
            demo.text.contains(
                "tre\u{1B}[K\r\u{1B}[19C\r\n\u{1B}[33m(end of input; the unfinished line 'tre' "
                    + "was not run)\u{1B}[0m\r\n"))
    }

    @Test("SIGINT from outside, while the editor waits for a key, quits the same way")
    func sigintInTerminal() throws {
        let demo = try RunningFlowdemo.inTerminal(columns: 80, environment: environment)
        #expect(demo.read(until: "app/login/form> "))
        demo.process.interrupt()

        #expect(demo.waitForExit() == 0)
        #expect(demo.text.contains("^C\r\n\u{1B}[33m(interrupted: quitting as 'quit' does)"))
    }
}
