import FlowKit
import Foundation

/// Maps URLs to navigation paths: a deep link is just another way to name a path.
///
///     var router = FlowURLRouter(scheme: "flowdemo")
///     try router.add("/books") { _ in [.child("main"), .child("stack"), .child(Screen.list)] }
///     try router.add("/books/:id") { match in
///         let id = try match.int("id", in: 1...64)
///         return [.child("main"), .child("stack"), .child(Screen.list), .push(Screen.detail(id: id))]
///     }
///     try runtime.open(URL(string: "flowdemo://books/12")!, with: router)
///
/// Patterns are literal segments and `:name` parameters. With no `host`, a URL's host is read
/// as its first segment (`flowdemo://books/12` is `/books/12`); with a `host`, the URL's host
/// must be that host and its path is matched. Matching costs time linear in the URL's length:
/// one hash lookup per segment, whatever the number of patterns.
///
/// Anything the router cannot map is a ``FlowURLError`` and nothing is navigated: a URL that
/// is too long, malformed, of another scheme or host, with empty, `.` or `..` segments, an
/// encoded `/` or control characters, unmapped, or whose parameters a pattern's builder
/// refuses (not a number, out of range).
public struct FlowURLRouter: Sendable {
    /// The scheme URLs must have (compared case-insensitively).
    public let scheme: String
    /// The host URLs must have, or `nil` to read the host as the first path segment.
    public let host: String?
    /// The longest URL accepted, in UTF-8 bytes. Defaults to 2,048.
    public var maximumLength = 2_048
    /// The most path segments accepted. Defaults to 32.
    public var maximumSegments = 32
    /// The most query items accepted. Defaults to 32.
    public var maximumQueryItems = 32

    private var root = _Trie()
    /// Each pattern's builder, giving one path or (``addEach(_:_:)``) several.
    private var builders: [@Sendable (FlowURLMatch) throws -> [[FlowStep]]] = []
    private var patterns: [String] = []

    /// Creates a router for URLs with `scheme` (and `host`, if given).
    public init(scheme: String, host: String? = nil) {
        self.scheme = scheme.lowercased()
        self.host = host?.lowercased()
    }

    /// The patterns added so far, in order.
    public var registeredPatterns: [String] { patterns }

    /// Adds `pattern` (e.g. `/books/:id`), whose matches `build` turns into a path.
    ///
    /// - Throws: ``FlowURLError/invalidPattern(_:reason:)`` for an empty segment, a parameter
    ///   without a name or used twice, or a pattern already added.
    public mutating func add(
        _ pattern: String, _ build: @escaping @Sendable (FlowURLMatch) throws -> [FlowStep]
    ) throws {
        try addEach(pattern) { match in [try build(match)] }
    }

    /// Adds `pattern`, whose matches `build` turns into several paths, navigated in one
    /// transaction (`FlowRuntime.navigate(toEach:)`): a link that picks a list in a split
    /// view's content column and shows an item in its detail column.
    ///
    ///     try router.addEach("/genres/:genre/books/:id") { match in
    ///         let genre = try match.string("genre")
    ///         return [
    ///             [.child("split"), .child("content"), .root(Genre(genre))],
    ///             [.child("split"), .child("detail"), .root(Screen.detail(id: try match.int("id")))],
    ///         ]
    ///     }
    ///
    /// - Throws: The errors of ``add(_:_:)``.
    public mutating func addEach(
        _ pattern: String, _ build: @escaping @Sendable (FlowURLMatch) throws -> [[FlowStep]]
    ) throws {
        var segments = pattern.split(separator: "/", omittingEmptySubsequences: false)
            .map(String.init)
        if segments.first == "" { segments.removeFirst() }
        if segments.last == "" { segments.removeLast() }
        var names = Set<String>()
        var path: [_Trie.Edge] = []
        for segment in segments {
            if segment.isEmpty {
                throw FlowURLError.invalidPattern(pattern, reason: "empty segment")
            }
            if segment.hasPrefix(":") {
                let name = String(segment.dropFirst())
                guard !name.isEmpty else {
                    throw FlowURLError.invalidPattern(pattern, reason: "a parameter needs a name")
                }
                guard names.insert(name).inserted else {
                    throw FlowURLError.invalidPattern(pattern, reason: "parameter \(name) twice")
                }
                path.append(.parameter(name))
            } else {
                path.append(.literal(segment))
            }
        }
        guard root.insert(path, handler: builders.count) else {
            throw FlowURLError.invalidPattern(pattern, reason: "conflicts with an earlier pattern")
        }
        builders.append(build)
        patterns.append(pattern)
    }

    /// The navigation path for `url`.
    ///
    /// - Throws: A ``FlowURLError`` saying why the URL cannot be mapped
    ///   (``FlowURLError/rejected(url:reason:)`` if its pattern maps to several paths: use
    ///   ``paths(for:)-(URL)``).
    public func steps(for url: URL) throws -> [FlowStep] {
        try steps(for: url.absoluteString)
    }

    /// The navigation path for the URL in `string`. See ``steps(for:)-(URL)``.
    ///
    /// - Throws: A ``FlowURLError`` saying why the URL cannot be mapped.
    public func steps(for string: String) throws -> [FlowStep] {
        let paths = try paths(for: string)
        guard paths.count == 1 else {
            throw FlowURLError.rejected(
                url: string, reason: "it maps to \(paths.count) paths: use paths(for:)")
        }
        return paths[0]
    }

    /// The navigation paths for `url`: one for a pattern added with ``add(_:_:)``, as many
    /// as its builder gives for one added with ``addEach(_:_:)``.
    ///
    /// - Throws: A ``FlowURLError`` saying why the URL cannot be mapped.
    public func paths(for url: URL) throws -> [[FlowStep]] {
        try paths(for: url.absoluteString)
    }

    /// The navigation paths for the URL in `string`. See ``paths(for:)-(URL)``.
    ///
    /// - Throws: A ``FlowURLError`` saying why the URL cannot be mapped.
    public func paths(for string: String) throws -> [[FlowStep]] {
        let match = try match(string)
        do {
            return try builders[match.handler](match.match)
        } catch let error as FlowURLError {
            throw error
        } catch {
            throw FlowURLError.rejected(url: string, reason: String(describing: error))
        }
    }

    /// Parses and checks `string`, then finds its pattern.
    private func match(_ string: String) throws -> (match: FlowURLMatch, handler: Int) {
        let length = string.utf8.count
        guard length <= maximumLength else {
            throw FlowURLError.tooLong(length: length, limit: maximumLength)
        }
        try Self.checkCharacters(string)
        guard let components = URLComponents(string: string) else {
            throw FlowURLError.malformed(reason: "not a URL")
        }
        // Foundation re-encodes a whole URL that has a character out of place ('[' or ']'
        // outside the host, a second '#'), escapes included: '%2F' would then decode to the
        // text "%2F", not '/', and slip past the segment checks.
        guard components.string == string else {
            throw FlowURLError.malformed(
                reason: "characters out of place ('[' or ']' outside the host, a second '#')")
        }
        guard let scheme = components.scheme?.lowercased() else {
            throw FlowURLError.unsupportedScheme(nil)
        }
        guard scheme == self.scheme else { throw FlowURLError.unsupportedScheme(scheme) }
        if components.percentEncodedUser != nil || components.percentEncodedPassword != nil
            || components.port != nil
        {
            throw FlowURLError.malformed(reason: "credentials or a port")
        }
        var raw = components.percentEncodedPath.split(
            separator: "/", omittingEmptySubsequences: false
        )
        .map(String.init)
        if raw.first == "" { raw.removeFirst() }
        if raw.last == "" { raw.removeLast() }  // one trailing slash is allowed
        let urlHost = components.percentEncodedHost ?? ""
        if let host {
            guard urlHost.lowercased() == host else {
                throw FlowURLError.unsupportedHost(urlHost.isEmpty ? nil : urlHost)
            }
        } else if !urlHost.isEmpty {
            raw.insert(urlHost, at: 0)
        }
        guard raw.count <= maximumSegments else {
            throw FlowURLError.malformed(reason: "more than \(maximumSegments) segments")
        }
        var segments: [String] = []
        segments.reserveCapacity(raw.count)
        for encoded in raw {
            segments.append(try Self.decodeSegment(encoded))
        }
        var query: [String: String] = [:]
        if let items = components.queryItems {
            guard items.count <= maximumQueryItems else {
                throw FlowURLError.malformed(reason: "more than \(maximumQueryItems) query items")
            }
            for item in items where query[item.name] == nil {
                let value = item.value ?? ""
                guard !value.unicodeScalars.contains(where: Self.isControl) else {
                    throw FlowURLError.malformed(
                        reason: "control characters in query item \(item.name)")
                }
                query[item.name] = value
            }
        }
        var parameters: [String: String] = [:]
        guard let handler = root.find(segments, parameters: &parameters) else {
            throw FlowURLError.unmapped(path: "/" + segments.joined(separator: "/"))
        }
        return (FlowURLMatch(url: string, parameters: parameters, query: query), handler)
    }

    private static func decodeSegment(_ encoded: String) throws -> String {
        guard !encoded.isEmpty else { throw FlowURLError.invalidSegment("", reason: "empty") }
        guard let decoded = encoded.removingPercentEncoding else {
            throw FlowURLError.invalidSegment(encoded, reason: "bad percent-encoding")
        }
        if decoded == "." || decoded == ".." {
            throw FlowURLError.invalidSegment(encoded, reason: "dot segment")
        }
        if decoded.contains("/") || decoded.contains("\\") {
            throw FlowURLError.invalidSegment(encoded, reason: "encoded path separator")
        }
        if decoded.unicodeScalars.contains(where: isControl) {
            throw FlowURLError.invalidSegment(encoded, reason: "control characters")
        }
        if decoded.isEmpty { throw FlowURLError.invalidSegment(encoded, reason: "empty") }
        return decoded
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
            || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }

    /// RFC 3986 allows only these ASCII characters in a URL (anything else must be
    /// percent-encoded), and every `%` starts a two-digit hexadecimal escape. Checked before
    /// parsing, because a lenient parser would let `<`, `"`, spaces, control characters or a
    /// lone `%` through.
    private static func checkCharacters(_ string: String) throws {
        var bytes = string.utf8.makeIterator()
        while let byte = bytes.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = bytes.next(), let low = bytes.next(), isHexDigit(high),
                    isHexDigit(low)
                else {
                    throw FlowURLError.malformed(reason: "a '%' not followed by two hex digits")
                }
                continue
            }
            guard byte < 0x80, allowed[Int(byte)] else {
                throw FlowURLError.malformed(
                    reason: "characters a URL must percent-encode (spaces, controls, <>\"{}|^`, "
                        + "non-ASCII)")
            }
        }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }

    /// The unreserved and reserved characters of RFC 3986, by ASCII code.
    private static let allowed: [Bool] = (0..<128).map { code in
        let scalar = Unicode.Scalar(UInt8(code))
        if ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
            || ("0"..."9").contains(scalar)
        {
            return true
        }
        return "-._~:/?#[]@!$&'()*+,;=".unicodeScalars.contains(scalar)
    }
}
