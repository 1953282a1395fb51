import FlowKitCharts

/// A statechart drawn as SVG, in Swift: each state a box (`<g class="state"
/// data-state="ID">`), compound and parallel states around their children (a parallel state's
/// border dashed), final states with a double border, history pseudo-states as circles, and
/// each transition an arrow labelled with its event. The inspector marks the active states by
/// their `data-state`.
public struct ChartDrawing {
    /// The drawing, one `<svg>` element.
    public let svg: String
    /// Every state's id, in document order.
    public let stateIDs: [String]

    private struct Box {
        var x = 0.0, y = 0.0, width = 0.0, height = 0.0
    }

    /// Draws `chart`.
    public init(chart: FlowChart) {
        var boxes: [String: Box] = [:]
        var order: [String] = []
        var shapes = ""
        let size = Self.layout(
            chart.root, x: 10, y: 10, boxes: &boxes, order: &order, shapes: &shapes, depth: 0)
        var arrows = ""
        for transition in chart.transitions {
            guard let source = boxes[transition.source] else { continue }
            let target = transition.target.flatMap { boxes[$0] } ?? source
            let (sx, sy) = (source.x + source.width / 2, source.y + source.height)
            let (tx, ty) = (target.x + target.width / 2, target.y)
            let bend = transition.target == nil || transition.target == transition.source ? 30.0 : 0
            let cx = (sx + tx) / 2 + bend
            let cy = (sy + ty) / 2 + bend
            arrows += "<path class=\"transition\" d=\"M\(Self.n(sx)) \(Self.n(sy)) Q\(Self.n(cx)) "
            arrows += "\(Self.n(cy)) \(Self.n(tx)) \(Self.n(ty))\"/>"
            let label = (transition.event ?? "(eventless)") + (transition.guard ? "" : " [false]")
            arrows += "<text class=\"label\" x=\"\(Self.n(cx + 4))\" y=\"\(Self.n(cy))\">"
            arrows += Self.escaped(label) + "</text>"
        }
        let width = size.width + 60
        let height = size.height + 40
        svg =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Self.n(width))\" "
            + "height=\"\(Self.n(height))\" viewBox=\"0 0 \(Self.n(width)) \(Self.n(height))\" "
            + "role=\"img\" aria-label=\"statechart\"><defs><marker id=\"arrow\" "
            + "viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" "
            + "orient=\"auto-start-reverse\"><path d=\"M0 0L10 5L0 10z\" fill=\"#6b7280\"/>"
            + "</marker></defs>" + shapes + arrows + "</svg>"
        stateIDs = order
    }

    /// Lays `node` out at (`x`, `y`), appending its shapes; returns its size.
    private static func layout(
        _ node: FlowChart.Node, x: Double, y: Double, boxes: inout [String: Box],
        order: inout [String], shapes: inout String, depth: Int
    ) -> (width: Double, height: Double) {
        order.append(node.id)
        let label = node.kind == .history ? (node.history == .deep ? "H*" : "H") : node.id
        let textWidth = Double(label.count) * 7.2 + 24
        var width = max(node.kind == .history ? 30 : 70, textWidth)
        var height = 30.0
        var inner = ""
        if !node.children.isEmpty && depth < 64 {
            var cx = x + 10
            var tallest = 0.0
            for child in node.children {
                let size = layout(
                    child, x: cx, y: y + 26, boxes: &boxes, order: &order, shapes: &inner,
                    depth: depth + 1)
                cx += size.width + 14
                tallest = max(tallest, size.height)
            }
            width = max(width, cx - x - 4)
            height = 26 + tallest + 10
        }
        boxes[node.id] = Box(x: x, y: y, width: width, height: height)
        let id = escaped(node.id)
        shapes += "<g class=\"state\" data-state=\"\(id)\"><title>\(id)</title>"
        if node.kind == .history {
            shapes += "<rect x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(width))\" height=\"30\" "
            shapes += "rx=\"15\"/>"
        } else {
            let dash = node.kind == .parallel ? " stroke-dasharray=\"5 3\"" : ""
            shapes += "<rect x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(width))\" "
            shapes += "height=\"\(n(height))\" rx=\"6\"\(dash)/>"
            if node.kind == .final {
                shapes += "<rect x=\"\(n(x + 3))\" y=\"\(n(y + 3))\" width=\"\(n(width - 6))\" "
                shapes += "height=\"\(n(height - 6))\" rx=\"4\" fill=\"none\"/>"
            }
        }
        let textY = node.children.isEmpty ? y + 19 : y + 17
        shapes += "<text x=\"\(n(x + 10))\" y=\"\(n(textY))\">\(escaped(label))</text>"
        shapes += inner + "</g>"
        return (width, height)
    }

    private static func n(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format1: value)
    }

    static func escaped(_ text: String) -> String {
        FlowInspectorPage.escaped(text)
    }
}

extension String {
    /// `value` with one decimal.
    fileprivate init(format1 value: Double) {
        let tenths = Int((value * 10).rounded())
        self = "\(tenths / 10).\(abs(tenths % 10))"
    }
}
