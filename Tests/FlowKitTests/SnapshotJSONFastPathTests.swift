import Foundation
import Testing

@testable import FlowKit

/// `FlowSnapshot(json:)` reads a compact document straight from its bytes (the fast path) and
/// any other document through parsed values (the general path). These tests hold the two to
/// the same answers.
@Suite("Restoration: the compact JSON reader's fast path")
@MainActor
struct SnapshotJSONFastPathTests {
    /// What the general path makes of `bytes`: a snapshot, or `nil` for a `DecodingError`.
    static func general(_ bytes: [UInt8]) -> FlowSnapshot? {
        var parser = _JSONParser(bytes: bytes)
        guard let value = try? parser.parseDocument() else { return nil }
        guard case .object(let items) = value, items["v"] != nil else {
            return try? value.decode(FlowSnapshot.self)
        }
        return try? FlowSnapshot(compactValue: items)
    }

    /// What the fast path makes of `bytes`: `.some(snapshot)`, `.some(nil)` for an error,
    /// `nil` when it leaves the document to the general path.
    static func fast(_ bytes: [UInt8]) -> FlowSnapshot?? {
        var parser = _JSONParser(bytes: bytes)
        do {
            guard let snapshot = try parser.compactSnapshot() else { return nil }
            return .some(snapshot)
        } catch is DecodingError {
            return .some(nil)
        } catch {
            Issue.record("not a DecodingError: \(error)")
            return .some(nil)
        }
    }

    /// Documents written by FlowKit: the fixture app, the tabbed shop, and an odd snapshot
    /// with every field, escapes and non-ASCII text.
    static func documents() throws -> [[UInt8]] {
        let saved = try makeSavedApp(world: RestoreWorld()).snapshot()
        let shop = try RestorationSizeTests.runningShop(entries: 3).snapshot()
        var odd = FlowSnapshot(
            root: FlowSnapshot.Node(
                name: "a/\"b\u{1}é\u{1F600}", kind: .split,
                route: try FlowSnapshot.Route(FlowRoute(2.5)),
                children: [
                    FlowSnapshot.Node(name: "c", kind: .tabs, selectedTab: nil),
                    FlowSnapshot.Node(
                        name: "d", kind: .parallel, route: try FlowSnapshot.Route(FlowRoute(-7)),
                        focusedRegion: 3),
                ],
                state: .object(["k": .array([.null, .bool(false), .int(-12), .double(0.25)])]),
                focusedRegion: 2, collapsed: true, preferredColumn: .detail),
            history: [.init(path: "a/b", routes: [try FlowSnapshot.Route(FlowRoute("x"))])])
        odd.dropped = [.init(path: "x/y", count: 12), .init(path: "z")]
        odd.schema = 4
        return [saved.json(), shop.json(), shop.trimmed(toFit: 300).json(), odd.json()]
    }

    @Test(
        "A document FlowKit or JSONEncoder writes (keys in any order) is read by the fast path, to the snapshot it was"
    )
    func fastPathReadsWhatFlowKitWrites() throws {
        let sorted = JSONEncoder()
        sorted.outputFormatting = .sortedKeys
        let pretty = JSONEncoder()
        pretty.outputFormatting = [.prettyPrinted, .withoutEscapingSlashes]
        for document in try Self.documents() {
            let expected = try JSONDecoder().decode(FlowSnapshot.self, from: Data(document))
            for bytes in [
                document, Array(try JSONEncoder().encode(expected)),
                Array(try sorted.encode(expected)), Array(try pretty.encode(expected)),
            ] {
                #expect(Self.fast(bytes) == .some(expected))
                #expect(try FlowSnapshot(json: bytes) == expected)
            }
        }
    }

    @Test(
        "Every cut, every changed byte and every hostile document: the fast path agrees with the general one"
    )
    func fastPathAgreesWithTheGeneralPath() throws {
        var documents = try RestorationCorpusTests.corpus().map { Array($0.data) }
        let written = try Self.documents()
        for document in written {
            for cut in 0..<document.count { documents.append(Array(document.prefix(cut))) }
        }
        // Every byte of the fixture app's document replaced by each of a few structural bytes.
        let fixture = written[0]
        for position in fixture.indices {
            for byte in Array("{}[],:\"0n-\\".utf8) where fixture[position] != byte {
                var changed = fixture
                changed[position] = byte
                documents.append(changed)
            }
        }
        documents += [
            #"{"v":2,"t":["Swift.Int"],"r":{"n":"a","y":1,"r":3}}"#,
            #"{"v":2,"t":["Swift.Int"],"r":{"n":"a","r":"3"}}"#,
            #"{"v":2,"t":[],"r":{"n":"a","c":null}}"#, #"{"v":2,"t":[],"r":{"n":"a","i":null}}"#,
            #"{"v":2,"t":[],"r":{"n":"a","k":"tabs","i":null}}"#,
            #"{"v":2,"r":{"n":"a"},"t":[]}"#, #"{"v":2,"t":[],"r":{"n":"a"},"t":["X"]}"#,
            #"{"r":{"n":"a","y":0,"r":1},"t":["Swift.Int"],"v":2}"#,
            #"{"r":{"n":"a"},"x":[1,2,{"q":"}"}],"v":2,"v":3}"#, #"{"r":{"n":"a"},"v":2,"x":[1,}"#,
            #"{"r":{"n":"a"}  ,  "v":2}"#, #"{"r":{"n":"a"},"v":2"#, #"{"r":{"n":"a"},"v":2]"#,
            #"{"r":{"n":"a"},"v":[}"#, #"{"r":{"n":"a\"}"},"v":2}"#, #"{"r":"\"#,
            #"{"v":2,"t":[],"r":{"n":"a","\u0063":[{"\u006e":"b"}]}}"#,
            #"{"v":2,"t":[],"r":{"n":"a","zz":[1,{"q":null}]}}"#,
            #"{"v":2,"t":["Swift.Double"],"r":{"n":"a","r":3}}"#,
            #"{"v":2,"t":["Swift.Int"],"r":{"n":"a","r":123456789012345678901}}"#,
            #"{"v":2,"t":["Swift.Int"],"r":{"n":"a","r":-999999999999999999}}"#,
            #"{"v":2,"t":[],"r":{"n":"a"},"h":null}"#, #"{"v":"2","t":[],"r":{"n":"a"}}"#,
            #" {"v" : 2 , "t" : [ ] , "r" : { "n" : "a" , "c" : [ { } ] } } "#,
            // Duplicate keys: the first counts, as in JSONDecoder.
            #"{"v":2,"t":[],"r":{"n":"a","n":"b"}}"#,
            #"{"v":2,"t":[],"r":{"n":"a"},"r":{"n":"b"}}"#,
            #"{"v":2,"t":["Swift.Int"],"t":[],"r":{"n":"a","r":1}}"#,
            #"{"v":2,"v":"x","t":[],"r":{"n":"a","c":[{"n":"b"}],"c":[]}}"#,
            #"{"v":2,"t":["Swift.Int"],"r":{"n":"a","r":1,"r":"x","y":0,"y":"z"}}"#,
            #"{"v":2,"t":["S.T"],"r":{"n":"a","r":{"k":1,"k":2}}}"#,
        ].map { Array($0.utf8) }
        var read = 0
        for document in documents {
            let text = String(decoding: document.prefix(2000), as: UTF8.self)
            let general = Self.general(document)
            switch Self.fast(document) {
            case nil:
                continue
            case .some(let snapshot?):
                read += 1
                #expect(Bool(snapshot == general), "\(text)")
                let foundation = try? JSONDecoder().decode(FlowSnapshot.self, from: Data(document))
                #expect(Bool(snapshot == foundation), "JSONDecoder reads another snapshot: \(text)")
            case .some(nil):
                #expect(
                    general == nil, "the fast path refused what the general path reads: \(text)")
            }
        }
        #expect(read > 100)
    }

    @Test("An integer is read exactly, past 18 digits through the general number reader")
    func integersAreExact() throws {
        for number in [
            "0", "-0", "7", "-7", "999999999999999999", "-999999999999999999",
            "1000000000000000000", "9223372036854775807", "-9223372036854775808",
        ] {
            var parser = _JSONParser(bytes: Array(number.utf8))
            #expect(try parser.parseDocument() == .int(Int64(number)!), "\(number)")
        }
        var tooBig = _JSONParser(bytes: Array("9223372036854775808".utf8))
        #expect(try tooBig.parseDocument() == .double(9_223_372_036_854_775_808))
    }

    @Test(
        "Found by fuzzing: 1.0 is a double to FlowKit's JSON, the integer 1 to JSONDecoder, and either restores the same value"
    )
    func integralDoublesRestoreTheSame() throws {
        let document = Array(
            #"{"v":2,"t":["Swift.String"],"r":{"n":"a","r":"a","s":{"scroll":1.0,"zoom":2e0}}}"#
                .utf8
        )
        let own = try FlowSnapshot(json: document)
        let foundation = try JSONDecoder().decode(FlowSnapshot.self, from: Data(document))
        #expect(own.root.state == .object(["scroll": .double(1), "zoom": .double(2)]))
        #expect(foundation.root.state == .object(["scroll": .int(1), "zoom": .int(2)]))
        struct Saved: Decodable, Equatable {
            let scroll: Int
            let zoom: Double
        }
        #expect(try own.root.state?.decode(Saved.self) == Saved(scroll: 1, zoom: 2))
        #expect(try foundation.root.state?.decode(Saved.self) == Saved(scroll: 1, zoom: 2))
    }

    @Test("A number is read where RFC 8259 allows one, and refused where it does not")
    func numbersFollowTheGrammar() throws {
        let accepted = ["0", "-0", "12", "0.5", "-1.25", "1e5", "1E+5", "2.5e-3", "0e0"]
        let refused = ["01", "-01", "00", "1.", ".5", "+1", "1e", "1e+", "-", "1.e5", "0x1", "1-2"]
        for text in accepted + refused {
            var parser = _JSONParser(bytes: Array("[\(text)]".utf8))
            let own = (try? parser.parseDocument()) != nil
            let foundation =
                (try? JSONSerialization.jsonObject(with: Data("[\(text)]".utf8))) != nil
            #expect(own == accepted.contains(text), "\(text)")
            #expect(own == foundation, "\(text): JSONSerialization says \(foundation)")
        }
    }
}
