extension FlowRoute: Codable {
    /// The `userInfo` key under which a decoder is given the route value types it may meet:
    /// an array of `any (Codable & Hashable & Sendable).Type`. `String`, `Int`, `Bool` and
    /// `Double` are always known.
    ///
    ///     let decoder = JSONDecoder()
    ///     decoder.userInfo[FlowRoute.codableTypesKey] = [Screen.self, Tab.self]
    ///     let route = try decoder.decode(FlowRoute.self, from: data)
    public static let codableTypesKey = CodingUserInfoKey(rawValue: "FlowKit.FlowRoute.types")!

    private enum CodingKeys: String, CodingKey {
        case type, value
    }

    /// Encodes the route as its value's type name and the value:
    /// `{"type": "Bookshelf.Screen", "value": {"detail": {"id": 7}}}`.
    ///
    /// - Throws: `EncodingError.invalidValue` if the value is not `Encodable`.
    public func encode(to encoder: any Encoder) throws {
        guard let value = base as? any Encodable else {
            throw EncodingError.invalidValue(
                base,
                EncodingError.Context(
                    codingPath: encoder.codingPath,
                    debugDescription: "a route value of type \(typeName) is not Encodable"))
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(typeName, forKey: .type)
        try container.encode(value, forKey: .value)
    }

    /// Decodes a route whose value type is a built-in one or is listed in the decoder's
    /// `userInfo` under ``codableTypesKey``.
    ///
    /// - Throws: `DecodingError` naming the type if it is not known, or if the value does not
    ///   decode as that type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .type)
        let listed = decoder.userInfo[FlowRoute.codableTypesKey] as? [any Codable.Type] ?? []
        for type in _builtInRouteTypes + listed {
            guard String(reflecting: type) == name,
                let type = type as? any (Decodable & Hashable & Sendable).Type
            else { continue }
            self = try Self._decode(type, from: container)
            return
        }
        throw DecodingError.dataCorruptedError(
            forKey: .type, in: container,
            debugDescription:
                "unknown route type \(name): list it in the decoder's "
                + "userInfo[FlowRoute.codableTypesKey]")
    }

    private static func _decode<Value: Decodable & Hashable & Sendable>(
        _ type: Value.Type, from container: KeyedDecodingContainer<CodingKeys>
    ) throws -> FlowRoute {
        FlowRoute(try container.decode(type, forKey: .value))
    }
}

/// The route value types every restoration and route decoding knows.
let _builtInRouteTypes: [any (Codable & Hashable & Sendable).Type] = [
    String.self, Int.self, Bool.self, Double.self,
]
