import Foundation

extension FlowChart {
    /// Decodes a chart from JSON text. Unknown keys (`comment`, `tags`, …) are ignored.
    ///
    ///     let chart = try FlowChart(json: Data(contentsOf: url))
    ///
    /// - Throws: ``FlowChartError/overLimit(_:)`` for text over 1 MiB
    ///   (``FlowChart/Limit/bytes``), read no further; ``FlowChartError/malformedJSON(_:)``
    ///   naming the offending key path when the text is not JSON or not a chart. The result is
    ///   not yet validated: see ``validate()``.
    public init(json data: Data) throws {
        guard data.count <= Limit.bytes.value else { throw FlowChartError.overLimit(.bytes) }
        do {
            self = try JSONDecoder().decode(FlowChart.self, from: data)
        } catch let error as DecodingError {
            throw FlowChartError.malformedJSON(Self._describe(error))
        } catch {
            throw FlowChartError.malformedJSON("\(error)")
        }
    }

    /// The chart as JSON text (keys sorted, so the output is stable).
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        return try encoder.encode(self)
    }

    private static func _describe(_ error: DecodingError) -> String {
        func place(_ path: [any CodingKey]) -> String {
            var text = ""
            for key in path {
                if let index = key.intValue {
                    text += "[\(index)]"
                } else {
                    text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
                }
            }
            return text.isEmpty ? "the top level" : text
        }
        switch error {
        case .keyNotFound(let key, let context):
            let parent = place(context.codingPath)
            return "missing key '\(key.stringValue)' at \(parent)"
        case .typeMismatch(let type, let context):
            return "expected \(type) at \(place(context.codingPath))"
        case .valueNotFound(let type, let context):
            return "expected \(type) but found null at \(place(context.codingPath))"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                let underlying = context.underlyingError.map { " (\($0))" } ?? ""
                return "not valid JSON\(underlying)"
            }
            return "invalid value at \(place(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}
