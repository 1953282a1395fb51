/// Why a chart was rejected, or why running it stopped.
///
/// Every rejection rule of the chart format has its own case; the description names the
/// problem and the ids involved:
///
///     do { _ = try chart.validate() } catch { print(error) }
///     // "transitions[3]: source 'Done' is a final state; final states have no transitions"
public enum FlowChartError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The input is not JSON, or not a chart of the expected shape.
    case malformedJSON(String)
    /// The chart is over one of the format's limits (``FlowChart/Limit``): too many bytes,
    /// states, levels of nesting, transitions or events.
    case overLimit(FlowChart.Limit)
    /// The chart names a format other than `flowkit-hsm-case/1`, `flowkit-hsm-case/2` and
    /// `flowkit-hsm-case/3`.
    case unsupportedFormat(String)
    /// An id does not match `[A-Za-z_][A-Za-z0-9_]*`.
    case invalidID(String)
    /// Two nodes share an id.
    case duplicateID(String)
    /// A reference (`context` says where) names an id no node has.
    case unknownID(String, context: String)
    /// The root is a final or history node.
    case invalidRoot(id: String, kind: FlowChart.Node.Kind)
    /// A final or history node has children.
    case childrenOfNonState(id: String, kind: FlowChart.Node.Kind)
    /// A parallel state in a format-1 chart (format 1 keeps one active path; format 2,
    /// ``FlowChart/parallelFormatIdentifier``, allows them).
    case parallelState(String)
    /// A parallel state names an `initial` (format 2): it enters all its regions.
    case initialOnParallel(state: String, initial: String)
    /// A parallel state without a region (a non-history child) (format 2).
    case parallelWithoutRegions(state: String)
    /// A region of a parallel state is a final node, or a parallel node in format 2: regions
    /// are states, compound or atomic (and in format 3 parallel states).
    case invalidRegion(parallel: String, region: String, kind: FlowChart.Node.Kind)
    /// A compound state names no `initial`.
    case missingInitial(state: String)
    /// A state's `initial` is not one of its non-history children.
    case invalidInitial(state: String, initial: String)
    /// A history node lacks its depth (`shallow`/`deep`) or its `default`, or the default
    /// is not a non-history sibling.
    case invalidHistory(id: String, reason: String)
    /// A transition without an event.
    case eventlessTransition(index: Int, source: String)
    /// A transition whose source is a final node.
    case transitionFromFinal(index: Int, source: String)
    /// A transition whose source is a history node.
    case transitionFromHistory(index: Int, source: String)
    /// A transition to a deep history whose source lies strictly inside the history's parent.
    case deepHistoryFromInside(index: Int, source: String, target: String, parent: String)
    /// A chart of format 1 or 2 uses a key only format 3 has (`cond`, `onentry`, `onexit`);
    /// `context` says where.
    case needsFormat3(key: String, context: String)
    /// Format 3: a state's `initial` names an id that is not one of its descendants.
    case initialNotDescendant(state: String, initial: String)
    /// Format 3: two ids of one target list (a transition's `target`, a state's `initial`, a
    /// history's `default`; `context` says which) are not in different regions of a
    /// parallel state, so they cannot be active together.
    case conflictingTargets(context: String, first: String, second: String)
    /// Format 3: a transition's `event` is empty, or one of its descriptors is malformed
    /// (``FlowChart/isValidDescriptor(_:)``).
    case invalidEventDescriptor(index: Int, descriptor: String)
    /// Format 3: a transition's `cond` is not a ``FlowChart/Condition`` (`reason` says why).
    case invalidCondition(index: Int, cond: String, reason: String)
    /// Format 3: eventless transitions kept being enabled after one event (an endless
    /// eventless loop); running stopped after `limit` eventless steps in a row
    /// (``FlowChartMachine/eventlessStepLimit``).
    case eventlessLoop(event: String, limit: Int)
    /// Internal events kept triggering transitions after one external event (an endless
    /// `raise` loop); running stopped after `limit` transitions.
    case runaway(event: String, limit: Int)
    /// The transitions set off by one external event raised more than `limit` events
    /// (``FlowChartMachine/raisedEventLimit``); running stopped.
    case raiseFlood(event: String, limit: Int)
    /// ``FlowChart/trace()`` grew past `limit` lines (``FlowChart/traceLineLimit``); running
    /// stopped.
    case traceTooLong(limit: Int)

    /// Whether the error stopped a valid chart while it ran (a loop, a flood of raised events,
    /// a trace too long: `flowchart` exits with status 1) rather than rejecting the chart
    /// (status 2).
    public var stoppedRunning: Bool {
        switch self {
        case .runaway, .raiseFlood, .traceTooLong, .eventlessLoop: true
        default: false
        }
    }

    public var description: String {
        switch self {
        case .malformedJSON(let detail):
            return "malformed chart JSON: \(detail)"
        case .overLimit(let limit):
            return "the chart has more than \(limit.value) \(limit.counted), "
                + "over the format's limit"
        case .unsupportedFormat(let format):
            return "unsupported format '\(format)'; expected '\(FlowChart.formatIdentifier)', "
                + "'\(FlowChart.parallelFormatIdentifier)' "
                + "or '\(FlowChart.structureFormatIdentifier)'"
        case .invalidID(let id):
            return "invalid id '\(id)': ids match [A-Za-z_][A-Za-z0-9_]*"
        case .duplicateID(let id):
            return "duplicate id '\(id)': every node needs its own id"
        case .unknownID(let id, let context):
            return "unknown id '\(id)' in \(context)"
        case .invalidRoot(let id, let kind):
            return "the root '\(id)' is a \(kind.rawValue) node; the root must be a state"
        case .childrenOfNonState(let id, let kind):
            return "'\(id)' is a \(kind.rawValue) node and cannot have children"
        case .parallelState(let id):
            return "'\(id)' is a parallel state; parallel states are not supported "
                + "(FlowKit keeps one active path)"
        case .initialOnParallel(let state, let initial):
            return "parallel state '\(state)' names initial '\(initial)'; a parallel state "
                + "has no initial (it enters all its regions)"
        case .parallelWithoutRegions(let state):
            return "parallel state '\(state)' has no region; it needs at least one "
                + "non-history child"
        case .invalidRegion(let parallel, let region, let kind):
            return "region '\(region)' of parallel state '\(parallel)' is a \(kind.rawValue) "
                + "node; regions are states (compound or atomic; in format 3 also parallel)"
        case .missingInitial(let state):
            return "compound state '\(state)' has no initial; name one of its children"
        case .invalidInitial(let state, let initial):
            return "initial '\(initial)' of state '\(state)' is not one of its "
                + "non-history children"
        case .invalidHistory(let id, let reason):
            return "history '\(id)': \(reason)"
        case .eventlessTransition(let index, let source):
            return "transitions[\(index)] (source '\(source)') has no event; "
                + "eventless transitions are not supported"
        case .transitionFromFinal(let index, let source):
            return "transitions[\(index)]: source '\(source)' is a final state; "
                + "final states have no transitions"
        case .transitionFromHistory(let index, let source):
            return "transitions[\(index)]: source '\(source)' is a history pseudo-state; "
                + "history nodes have no transitions"
        case .deepHistoryFromInside(let index, let source, let target, let parent):
            return "transitions[\(index)]: source '\(source)' lies inside '\(parent)', so it "
                + "cannot target its deep history '\(target)'"
        case .needsFormat3(let key, let context):
            return "\(context) uses \"\(key)\", which needs format "
                + "'\(FlowChart.structureFormatIdentifier)'"
        case .initialNotDescendant(let state, let initial):
            return "initial '\(initial)' of state '\(state)' is not one of its descendants"
        case .conflictingTargets(let context, let first, let second):
            return "\(context): '\(first)' and '\(second)' cannot be active together; several "
                + "targets must lie in different regions of a parallel state"
        case .invalidEventDescriptor(let index, let descriptor):
            if descriptor.isEmpty {
                return "transitions[\(index)] has an empty event; leave \"event\" out for an "
                    + "eventless transition"
            }
            return "transitions[\(index)]: '\(descriptor)' is not an event descriptor "
                + "(dot-separated names, optionally ending in .*, or *)"
        case .invalidCondition(let index, let cond, let reason):
            return "transitions[\(index)]: cond '\(cond)' is not a condition: \(reason)"
        case .eventlessLoop(let event, let limit):
            return "event '\(event)' was followed by more than \(limit) eventless steps; "
                + "the chart's eventless transitions loop"
        case .runaway(let event, let limit):
            return "event '\(event)' set off more than \(limit) transitions; "
                + "the chart raises events in an endless loop"
        case .raiseFlood(let event, let limit):
            return "event '\(event)' made the chart raise more than \(limit) events; "
                + "the chart raises too many events for one step"
        case .traceTooLong(let limit):
            return "the trace grew past \(limit) lines; the chart does too much for one trace"
        }
    }
}
