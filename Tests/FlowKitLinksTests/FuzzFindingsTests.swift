import FlowKit
import FlowKitLinks
import Foundation
import Testing

/// Inputs the deep-link fuzz target (Fuzz/, scripts/fuzz-inputs.sh links) found, replayed
/// through a router with a text parameter.
@Suite("Deep links: inputs found by fuzzing")
struct FuzzFindingsTests {
    @Test(
        arguments: [
            "flowdemo:/authors/di9ck......].....cl0e%2Fks", "flowdemo://authors/a]b%2Fc",
            "flowdemo://authors/x?q=[x]%2F", "flowdemo://authors/x#a#b%2F",
        ])
    func charactersOutOfPlaceAreMalformed(link: String) throws {
        // A ']' in the path made Foundation re-encode the whole URL, so '%2F' reached the
        // builder as the text "%2F" (an encoded separator the segment checks never saw).
        var router = FlowURLRouter(scheme: "flowdemo")
        try router.add("/authors/:name") { match in [.child(try match.string("name"))] }
        #expect(
            throws: FlowURLError.malformed(
                reason: "characters out of place ('[' or ']' outside the host, a second '#')")
        ) {
            try router.steps(for: link)
        }
        #expect(try router.steps(for: "flowdemo://authors/dickens") == [.child("dickens")])
    }
}
