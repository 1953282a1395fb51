extension FlowChart {
    /// A transition's condition in format 3 (``Transition/cond``): SCXML's `cond` without a
    /// data model, which can only ask which states are active.
    ///
    /// The text accepted, and nothing else: `true`, `false`, `In('ID')` or `In("ID")` (true
    /// when the state `ID` is in the configuration when transitions are selected), `not C` or
    /// `!C`, `C and D` or `C && D`, `C or D` or `C || D`, and parentheses. `not` binds
    /// tightest, then `and`, then `or`; whitespace is free between tokens; keywords are
    /// case-sensitive. Nesting (parentheses and `not`) is limited to 32 levels.
    ///
    ///     let cond = try FlowChart.Condition(parsing: "In('Ready') && !In('Busy')")
    ///     cond.description   // "In('Ready') and not In('Busy')"
    public indirect enum Condition: Sendable, Equatable, CustomStringConvertible {
        /// `true` or `false`.
        case constant(Bool)
        /// `In('id')`: whether the state is active.
        case inState(String)
        /// `not C`.
        case not(Condition)
        /// `C and D and …`: every part holds (two parts or more).
        case all([Condition])
        /// `C or D or …`: some part holds (two parts or more).
        case any([Condition])

        /// How deep parentheses and `not` may nest: 32 levels.
        public static let nestingLimit = 32

        /// Why a condition's text was refused, and where (a character offset in the text).
        public struct ParseError: Error, Equatable, Sendable, CustomStringConvertible {
            /// What is wrong.
            public let reason: String
            /// The offset, in characters (Unicode scalars), where the problem was found.
            public let offset: Int

            public var description: String { "\(reason) at offset \(offset)" }
        }

        /// Reads a condition's text (the syntax above).
        ///
        /// - Throws: ``ParseError`` naming the problem and its offset.
        public init(parsing text: String) throws(ParseError) {
            var parser = _ConditionParser(text)
            self = try parser.parseAll()
        }

        /// The text form, which ``init(parsing:)`` reads back to the same value: `and`, `or`
        /// and `not` as words, `In('id')` with single quotes, a part in parentheses when it is
        /// itself an `and` or an `or`.
        public var description: String {
            func part(_ condition: Condition) -> String {
                switch condition {
                case .all, .any: "(\(condition.description))"
                default: condition.description
                }
            }
            switch self {
            case .constant(let value): return value ? "true" : "false"
            case .inState(let id): return "In('\(id)')"
            case .not(let inner): return "not " + part(inner)
            case .all(let parts): return parts.map(part).joined(separator: " and ")
            case .any(let parts): return parts.map(part).joined(separator: " or ")
            }
        }

        /// The ids the condition names in `In()`, in text order.
        public var stateIDs: [String] {
            switch self {
            case .constant: []
            case .inState(let id): [id]
            case .not(let inner): inner.stateIDs
            case .all(let parts), .any(let parts): parts.flatMap(\.stateIDs)
            }
        }

        /// Whether the condition holds when `isActive` says which states are active.
        func holds(_ isActive: (String) -> Bool) -> Bool {
            switch self {
            case .constant(let value): value
            case .inState(let id): isActive(id)
            case .not(let inner): !inner.holds(isActive)
            case .all(let parts): parts.allSatisfy { $0.holds(isActive) }
            case .any(let parts): parts.contains { $0.holds(isActive) }
            }
        }
    }
}

/// A recursive-descent reader of ``FlowChart/Condition``'s text.
private struct _ConditionParser {
    typealias Condition = FlowChart.Condition
    let scalars: [Unicode.Scalar]
    var index = 0
    var depth = 0

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
    }

    func failure(_ reason: String) -> Condition.ParseError {
        Condition.ParseError(reason: reason, offset: index)
    }

    mutating func skipSpace() {
        while index < scalars.count, scalars[index].properties.isWhitespace { index += 1 }
    }

    /// Consumes `symbol` (after whitespace) if it comes next.
    mutating func take(_ symbol: String) -> Bool {
        skipSpace()
        let wanted = Array(symbol.unicodeScalars)
        guard index + wanted.count <= scalars.count,
            Array(scalars[index..<index + wanted.count]) == wanted
        else { return false }
        // A keyword must not run on into a longer word (`notable`, `order`).
        if let last = wanted.last, Self.isWordScalar(last), index + wanted.count < scalars.count,
            Self.isWordScalar(scalars[index + wanted.count])
        {
            return false
        }
        index += wanted.count
        return true
    }

    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_"
    }

    mutating func parseAll() throws(Condition.ParseError) -> Condition {
        let condition = try parseOr()
        skipSpace()
        guard index == scalars.count else { throw failure("unexpected text") }
        return condition
    }

    mutating func parseOr() throws(Condition.ParseError) -> Condition {
        var parts = [try parseAnd()]
        while take("||") || take("or") { parts.append(try parseAnd()) }
        return parts.count == 1 ? parts[0] : .any(parts)
    }

    mutating func parseAnd() throws(Condition.ParseError) -> Condition {
        var parts = [try parseUnary()]
        while take("&&") || take("and") { parts.append(try parseUnary()) }
        return parts.count == 1 ? parts[0] : .all(parts)
    }

    mutating func parseUnary() throws(Condition.ParseError) -> Condition {
        if take("not") || take("!") {
            try enter()
            defer { depth -= 1 }
            return .not(try parseUnary())
        }
        return try parsePrimary()
    }

    mutating func enter() throws(Condition.ParseError) {
        depth += 1
        if depth > Condition.nestingLimit {
            throw failure("nested more than \(Condition.nestingLimit) levels")
        }
    }

    mutating func parsePrimary() throws(Condition.ParseError) -> Condition {
        if take("true") { return .constant(true) }
        if take("false") { return .constant(false) }
        if take("(") {
            try enter()
            defer { depth -= 1 }
            let inner = try parseOr()
            guard take(")") else { throw failure("expected ')'") }
            return inner
        }
        if take("In") {
            guard take("(") else { throw failure("expected '(' after In") }
            skipSpace()
            guard index < scalars.count, scalars[index] == "'" || scalars[index] == "\"" else {
                throw failure("expected a quoted state id in In()")
            }
            let quote = scalars[index]
            index += 1
            let start = index
            while index < scalars.count, scalars[index] != quote { index += 1 }
            guard index < scalars.count else { throw failure("unterminated state id in In()") }
            var id = ""
            id.unicodeScalars.append(contentsOf: scalars[start..<index])
            index += 1
            guard take(")") else { throw failure("expected ')' after the state id") }
            return .inState(id)
        }
        skipSpace()
        if index == scalars.count { throw failure("expected a condition, found the end") }
        throw failure("expected true, false, In('id'), not or '('")
    }
}
