import Foundation

/// The element rules: which element may stand where, with which attributes, and what each
/// becomes in the chart. Everything not listed here is refused (Docs/SCXML.md).
extension _SCXMLReader {
    /// Why each refused SCXML element is refused.
    static let refused: [String: String] = [
        "datamodel": "FlowKit charts use the null data model (no data)",
        "data": "FlowKit charts use the null data model (no data)",
        "assign": "it changes data; FlowKit charts use the null data model",
        "script": "it runs a script; FlowKit charts use the null data model",
        "send": "it sends events outside the chart or delayed; FlowKit charts only <raise>",
        "cancel": "it cancels a delayed <send>; FlowKit charts only <raise>",
        "invoke": "it starts an external service; FlowKit charts invoke nothing",
        "finalize": "it belongs to <invoke>; FlowKit charts invoke nothing",
        "content": "it carries data; FlowKit charts use the null data model",
        "param": "it carries data; FlowKit charts use the null data model",
        "donedata": "it carries data; FlowKit charts use the null data model",
        "if": "conditional executable content is not run; use transitions with cond",
        "elseif": "conditional executable content is not run; use transitions with cond",
        "else": "conditional executable content is not run; use transitions with cond",
        "foreach": "it iterates over data; FlowKit charts use the null data model",
    ]

    /// The attributes each accepted element may have (besides namespace declarations and
    /// attributes of other namespaces).
    static let accepted: [Role: Set<String>] = [
        .scxml: ["version", "initial", "name", "datamodel", "binding"],
        .state: ["id", "initial"], .parallel: ["id"], .final: ["id"],
        .history: ["id", "type"], .initial: [], .transition: ["event", "cond", "target", "type"],
        .onentry: [], .onexit: [], .raise: ["event"], .log: ["label", "expr"], .events: [],
    ]

    func start(_ name: String, namespace: String, attributes: [String: String], at place: Place) {
        let parent = frames.last
        guard frames.count < FlowChart.SCXMLLimit.elementNesting.value else {
            return fail(.overLimit(.elementNesting), element: name, at: place)
        }
        if parent?.role == .foreign {
            frames.append(Frame(.foreign, name: name, place: place))
            return
        }
        if namespace == FlowChart.scxmlEventsNamespace {
            guard name == "events" else {
                return fail(
                    .unsupportedElement("FlowKit's namespace has only <events>"),
                    element: name, at: place)
            }
            guard parent?.role == .scxml, !hasEvents else {
                return fail(
                    .invalidStructure("must be a child of <scxml>, and there is at most one"),
                    element: name, at: place)
            }
            hasEvents = true
            return open(.events, name, attributes, place)
        }
        if !namespace.isEmpty, namespace != FlowChart.scxmlNamespace {
            guard parent != nil else { return fail(.notSCXML, element: name, at: place) }
            frames.append(Frame(.foreign, name: name, place: place))
            return
        }
        if let why = Self.refused[name] {
            return fail(.unsupportedElement(why), element: name, at: place)
        }
        guard let parent else {
            guard name == "scxml" else { return fail(.notSCXML, element: name, at: place) }
            scxmlPlace = place
            return open(.scxml, name, attributes, place)
        }
        let role: Role
        let allowedParents: Set<Role>
        switch name {
        case "state": (role, allowedParents) = (.state, [.scxml, .state, .parallel])
        case "parallel": (role, allowedParents) = (.parallel, [.scxml, .state, .parallel])
        case "final": (role, allowedParents) = (.final, [.state])
        case "history": (role, allowedParents) = (.history, [.state, .parallel])
        case "initial": (role, allowedParents) = (.initial, [.state])
        case "transition":
            (role, allowedParents) = (.transition, [.state, .parallel, .history, .initial])
        case "onentry": (role, allowedParents) = (.onentry, [.state, .parallel, .final])
        case "onexit": (role, allowedParents) = (.onexit, [.state, .parallel, .final])
        case "raise": (role, allowedParents) = (.raise, [.transition, .onentry, .onexit])
        case "log": (role, allowedParents) = (.log, [.transition, .onentry, .onexit])
        case "scxml":
            return fail(.invalidStructure("can only be the root element"), element: name, at: place)
        default:
            return fail(.unsupportedElement("SCXML has no such element"), element: name, at: place)
        }
        guard allowedParents.contains(parent.role) else {
            if name == "final", parent.role == .scxml {
                return fail(
                    .unsupportedElement(
                        "a top-level <final> ends the state machine, which FlowKit charts "
                            + "never do; put it inside a <state>"), element: name, at: place)
            }
            return fail(
                .invalidStructure("cannot be a child of <\(parent.name)>"),
                element: name, at: place)
        }
        open(role, name, attributes, place)
    }

    private func open(_ role: Role, _ name: String, _ attributes: [String: String], _ place: Place)
    {
        let frame = Frame(role, name: name, place: place)
        for (key, value) in attributes where !key.contains(":") {
            guard Self.accepted[role]!.contains(key) else {
                return fail(.unsupportedAttribute(name: key, Self.whyNot(key)), frame)
            }
            guard value.utf8.count <= FlowChart.SCXMLLimit.attributeBytes.value else {
                return fail(.overLimit(.attributeBytes), frame)
            }
        }
        let parent = frames.last
        switch role {
        case .scxml:
            if let version = attributes["version"], version != "1.0" {
                return fail(
                    .invalidValue(attribute: "version", value: version, "SCXML 1.0 only"), frame)
            }
            if let model = attributes["datamodel"], model != "null" {
                return fail(
                    .invalidValue(
                        attribute: "datamodel", value: model,
                        "FlowKit charts use the null data model"), frame)
            }
            if let binding = attributes["binding"], binding != "early", binding != "late" {
                return fail(
                    .invalidValue(attribute: "binding", value: binding, "early or late"), frame)
            }
            chartName = attributes["name"]
            frame.initialAttribute = attributes["initial"]
        case .state, .parallel, .final, .history:
            guard let id = attributes["id"] else { return fail(.missingAttribute("id"), frame) }
            stateCount += 1
            guard stateCount <= FlowChart.Limit.states.value else {
                return fail(.invalidChart(.overLimit(.states)), frame)
            }
            let depth = frames.filter { [.state, .parallel].contains($0.role) }.count + 1
            guard depth <= FlowChart.Limit.nesting.value else {
                return fail(.invalidChart(.overLimit(.nesting)), frame)
            }
            frame.id = id
            nodePlaces[id, default: []].append(place)
            nodeElement[id] = name
            if role == .state { frame.initialAttribute = attributes["initial"] }
            if role == .history {
                switch attributes["type"] ?? "shallow" {
                case "shallow": frame.historyDepth = .shallow
                case "deep": frame.historyDepth = .deep
                case let other:
                    return fail(
                        .invalidValue(attribute: "type", value: other, "shallow or deep"), frame)
                }
            }
        case .initial:
            guard let parent, parent.initialAttribute == nil, !parent.hasInitialElement else {
                return fail(
                    .invalidStructure(
                        "is given twice, or beside the parent's 'initial' attribute"), frame)
            }
            parent.hasInitialElement = true
        case .transition:
            guard let parent else { break }
            if parent.role == .history || parent.role == .initial {
                guard !parent.hasDefaultTransition else {
                    return fail(
                        .invalidStructure("is the second of <\(parent.name)>, which has one"), frame
                    )
                }
                parent.hasDefaultTransition = true
                for key in ["event", "cond", "type"] where attributes[key] != nil {
                    return fail(
                        .unsupportedAttribute(
                            name: key,
                            "the transition of <\(parent.name)> has only a target"), frame)
                }
                guard let target = Self.list(attributes["target"]) else {
                    return fail(.missingAttribute("target"), frame)
                }
                frame.defaultTarget = target
                parent.defaultTarget = target
            } else {
                guard transitions.count < FlowChart.Limit.transitions.value else {
                    return fail(.invalidChart(.overLimit(.transitions)), frame)
                }
                guard let transition = makeTransition(attributes, source: parent.id!, frame) else {
                    return
                }
                frame.transition = transitions.count
                transitions.append(transition)
                transitionPlaces.append(place)
            }
        case .raise:
            guard let event = attributes["event"], !event.isEmpty else {
                return fail(.missingAttribute("event"), frame)
            }
            guard FlowChart._isSCXMLEventName(event) else {
                return fail(
                    .invalidValue(
                        attribute: "event", value: event,
                        "one event name: tokens separated by dots, without '*'"), frame)
            }
            guard let parent else { break }
            if let index = parent.transition {
                transitions[index].raise.append(event)
            } else if parent.role == .onentry || parent.role == .onexit {
                let state = frames[frames.count - 2]
                if parent.role == .onentry {
                    state.onEntry.append(event)
                } else {
                    state.onExit.append(event)
                }
            } else {
                return fail(
                    .unsupportedElement(
                        "the transition of <initial> or <history> runs no actions in FlowKit "
                            + "charts"), frame)
            }
        case .onentry, .onexit, .log, .events, .foreign:
            break
        }
        frames.append(frame)
    }

    /// A transition of a state from its attributes, or `nil` after a refusal.
    private func makeTransition(
        _ attributes: [String: String], source: String, _ frame: Frame
    ) -> FlowChart.Transition? {
        var isInternal = false
        switch attributes["type"] ?? "external" {
        case "external": break
        case "internal": isInternal = true
        case let other:
            fail(.invalidValue(attribute: "type", value: other, "internal or external"), frame)
            return nil
        }
        let cond = attributes["cond"].map(Self.normalizedCondition)
        if let cond {
            do {
                _ = try FlowChart.Condition(parsing: cond)
            } catch {
                fail(
                    .invalidValue(
                        attribute: "cond", value: attributes["cond"]!,
                        "the null data model's conditions are true, false, In('id'), and "
                            + "not, and, or of them (\(error))"), frame)
                return nil
            }
        }
        // An `event` of only white space is kept as it is, for validation to refuse.
        let event = attributes["event"].map { Self.list($0) ?? $0 }
        return FlowChart.Transition(
            source: source, event: event, target: Self.list(attributes["target"]),
            isInternal: isInternal, cond: cond)
    }

    /// `cond` trimmed, with every `In(ID)` in the chart format's form `In('ID')`: the null
    /// data model writes `In(ID)` (SCXML's Appendix B.1, and Qt SCXML reads only that), the
    /// ECMAScript one `In('ID')` or `In("ID")`; all three are read.
    static func normalizedCondition(_ cond: String) -> String {
        cond.trimmingCharacters(in: .whitespacesAndNewlines).replacing(
            /In\(\s*(?:'([^']*)'|"([^"]*)"|([A-Za-z_][A-Za-z0-9_]*))\s*\)/
        ) { match in
            "In('\(match.1 ?? match.2 ?? match.3 ?? "")')"
        }
    }

    /// The ids or descriptors of an attribute, separated by single spaces; `nil` when there
    /// are none.
    static func list(_ value: String?) -> String? {
        let items = FlowChart._idList(value)
        return items.isEmpty ? nil : items.joined(separator: " ")
    }

    static func whyNot(_ attribute: String) -> String {
        switch attribute {
        case "src": "external documents are not included"
        case "expr", "eventexpr", "targetexpr", "srcexpr", "typeexpr", "idlocation",
            "namelist", "location", "delayexpr":
            "it needs a data model; FlowKit charts use the null data model"
        default: "FlowKit does not read it"
        }
    }

    func end() {
        let frame = frames.removeLast()
        let parent = frames.last
        switch frame.role {
        case .state, .parallel, .final, .history:
            guard let id = frame.id else { return }
            var node: FlowChart.Node
            switch frame.role {
            case .parallel:
                node = .parallel(id, frame.children)
            case .final:
                node = .final(id)
            case .history:
                guard let fallback = frame.defaultTarget else {
                    return fail(
                        .invalidStructure("needs one <transition> naming its default"), frame)
                }
                node = .history(id, frame.historyDepth, default: fallback)
            default:
                let initial = Self.list(frame.initialAttribute) ?? frame.defaultTarget
                node = FlowChart.Node(
                    id: id,
                    initial: initial ?? frame.children.first { $0.kind != .history }?.id,
                    children: frame.children)
            }
            node.onEntry = frame.onEntry
            node.onExit = frame.onExit
            parent?.children.append(node)
        case .initial:
            guard frame.hasDefaultTransition else {
                return fail(
                    .invalidStructure("needs one <transition> naming the initial state"), frame)
            }
            parent?.defaultTarget = frame.defaultTarget
        case .events:
            events = frame.text.split(whereSeparator: \.isWhitespace).map(String.init)
            if let name = events.first(where: { !FlowChart._isSCXMLEventName($0) }) {
                return fail(
                    .invalidValue(
                        attribute: "(text)", value: name,
                        "event names are tokens separated by dots, without '*'"), frame)
            }
        case .scxml:
            finishRoot(frame)
        default:
            break
        }
    }

    /// The chart's root: the one top-level state, or a state `scxml` around several (or
    /// around one that is not the document's `initial`).
    private func finishRoot(_ frame: Frame) {
        let initial = Self.list(frame.initialAttribute)
        if frame.children.count == 1, let only = frame.children.first,
            only.kind == .state || only.kind == .parallel, initial == nil || initial == only.id
        {
            root = only
            return
        }
        guard let first = frame.children.first else {
            return fail(.invalidStructure("needs at least one <state> or <parallel>"), frame)
        }
        root = FlowChart.Node(id: "scxml", initial: initial ?? first.id, children: frame.children)
        nodePlaces["scxml", default: []].insert(frame.place, at: 0)
    }
}
