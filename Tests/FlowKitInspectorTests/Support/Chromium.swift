import Foundation

/// Headless Chromium for the browser tests: the page is opened from `file://` with networking
/// off (every host name resolves to nothing), in a fresh profile.
enum Chromium {
    /// The browser: `$CHROMIUM`, else the first of the usual paths that exists.
    static let path: String? = {
        if let path = ProcessInfo.processInfo.environment["CHROMIUM"] { return path }
        return ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }()

    /// Whether the browser tests must run (`FLOWKIT_BROWSER_TESTS=required`, as `.ci/run`
    /// sets it): then a missing browser fails them instead of skipping them.
    static let isRequired =
        ProcessInfo.processInfo.environment["FLOWKIT_BROWSER_TESTS"] == "required"

    /// Whether to run the browser tests.
    static let shouldRun = path != nil || isRequired

    /// What one run of the browser left.
    struct Run {
        /// Standard output (the DOM, for `--dump-dom`).
        var output: String
        /// The browser's log (`--enable-logging=stderr`): console messages appear as `CONSOLE`.
        var log: String
        /// Every request that a page (not the browser itself) started, from the NetLog.
        var pageRequests: [String]
    }

    /// Runs the browser headless on `url` with `arguments` (`--dump-dom`, `--screenshot=…`).
    static func run(_ url: URL, fragment: String = "", _ arguments: [String]) async throws -> Run {
        guard let path else {
            throw MissingBinary(name: "chromium (set CHROMIUM or install chromium)")
        }
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let netLog = folder.appendingPathComponent("netlog.json")
        let finished = try await runOffMainActor(
            URL(fileURLWithPath: path),
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--disable-extensions", "--disable-background-networking", "--disable-sync",
                "--disable-component-update", "--hide-scrollbars", "--mute-audio",
                "--user-data-dir=\(folder.appendingPathComponent("profile").path)",
                "--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=http://127.0.0.1:9",
                "--enable-logging=stderr", "--v=0", "--log-net-log=\(netLog.path)",
            ] + arguments + [url.absoluteString + fragment])
        return Run(
            output: finished.stdout, log: finished.stderr,
            pageRequests: requestsByPages(netLog))
    }

    /// The URLs of requests a page started (their initiator is an origin; the browser's own,
    /// such as its component updater, have none).
    private static func requestsByPages(_ netLog: URL) -> [String] {
        guard let data = FileManager.default.contents(atPath: netLog.path),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let constants = object["constants"] as? [String: Any],
            let types = constants["logEventTypes"] as? [String: Int],
            let start = types["URL_REQUEST_START_JOB"],
            let events = object["events"] as? [[String: Any]]
        else { return ["(no NetLog written)"] }
        return events.compactMap { event in
            guard event["type"] as? Int == start, let params = event["params"] as? [String: Any],
                let url = params["url"] as? String
            else { return nil }
            return params["initiator"] as? String == "not an origin" ? nil : url
        }
    }

    /// The text of every element `<TAG class="CLASS" …>TEXT</TAG>` of a dumped DOM, in order.
    static func texts(of className: String, tag: String, in dom: String) -> [String] {
        var result: [String] = []
        var rest = dom[...]
        let open = "<\(tag) class=\"\(className)\""
        while let start = rest.range(of: open) {
            guard let close = rest[start.upperBound...].range(of: ">"),
                let end = rest[close.upperBound...].range(of: "</\(tag)>")
            else { break }
            result.append(unescaped(String(rest[close.upperBound..<end.lowerBound])))
            rest = rest[end.upperBound...]
        }
        return result
    }

    static func unescaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(
                of: "&nbsp;", with: "\u{A0}"
            )
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
