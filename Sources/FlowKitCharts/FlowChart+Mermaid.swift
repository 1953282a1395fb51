extension FlowChart {
    /// A Mermaid `stateDiagram-v2` of the chart: what `flowchart diagram` prints.
    ///
    ///     stateDiagram-v2
    ///         [*] --> App
    ///         state App {
    ///             [*] --> Login
    ///             …
    ///         }
    ///         Form --> Done : submit
    ///
    /// Compound states are nested blocks with their `initial` drawn from `[*]`; a parallel
    /// state is a block whose regions are separated by Mermaid's concurrency separator `--`,
    /// each region entered from its own `[*]` (the parallel state's history nodes are drawn
    /// in its last region's part); a final
    /// state is drawn with an arrow to `[*]`; a history node is a state labelled `H` (shallow)
    /// or `H*` (deep) with a `default` arrow. Transition labels show the event (format 3:
    /// the descriptors, or `(eventless)`), then `[false]` for a false guard, the `cond` in
    /// brackets, `/ raise a, b` for raised events, and `(internal)` or `(targetless)`; a
    /// targetless transition is drawn as a loop on its source. Format 3's lists draw one
    /// arrow per id: an `initial` or a history `default` naming several states, a transition
    /// with several targets. (`onentry` and `onexit` are not drawn.)
    ///
    /// - Throws: A ``FlowChartError`` if the chart is rejected.
    public func mermaidDiagram() throws -> String {
        try validate()
        var lines = ["stateDiagram-v2", "    [*] --> \(root.id)"]
        func draw(_ node: Node, indent: String) {
            switch node.kind {
            case .history:
                let mark = node.history == .deep ? "H*" : "H"
                lines.append("\(indent)state \"\(mark) \(node.id)\" as \(node.id)")
                for fallback in node.defaultTargets {
                    lines.append("\(indent)\(node.id) --> \(fallback) : default")
                }
            case .final:
                lines.append("\(indent)\(node.id) --> [*]")
            case .parallel:
                lines.append("\(indent)state \(node.id) {")
                let regions = node.children.filter { $0.kind != .history }
                let histories = node.children.filter { $0.kind == .history }
                for (index, region) in regions.enumerated() {
                    if index > 0 { lines.append("\(indent)    --") }
                    lines.append("\(indent)    [*] --> \(region.id)")
                    draw(region, indent: indent + "    ")
                }
                for history in histories { draw(history, indent: indent + "    ") }
                lines.append("\(indent)}")
            case .state:
                guard !node.children.isEmpty else {
                    lines.append("\(indent)\(node.id)")
                    return
                }
                lines.append("\(indent)state \(node.id) {")
                for initial in node.initialTargets {
                    lines.append("\(indent)    [*] --> \(initial)")
                }
                for child in node.children { draw(child, indent: indent + "    ") }
                lines.append("\(indent)}")
            }
        }
        draw(root, indent: "    ")
        for transition in transitions {
            var label = transition.event ?? "(eventless)"
            if !transition.guard { label += " [false]" }
            if let cond = transition.cond { label += " [\(cond)]" }
            if !transition.raise.isEmpty {
                label += " / raise " + transition.raise.joined(separator: ", ")
            }
            if transition.target == nil {
                label += " (targetless)"
            } else if transition.isInternal {
                label += " (internal)"
            }
            let targets = transition.target == nil ? [transition.source] : transition.targets
            for target in targets {
                lines.append("    \(transition.source) --> \(target) : \(label)")
            }
        }
        return lines.map { $0 + "\n" }.joined()
    }
}
