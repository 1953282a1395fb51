import FlowDemo
import Foundation
import Testing

@Suite("Catalog, accounts and options")
struct ModelTests {
    @Test("The shipped catalog has at least 50 books with unique ids")
    func shippedCatalog() throws {
        let store = try CatalogStore.shipped()

        #expect(store.books.count == 64)
        #expect(Set(store.books.map(\.id)) == Set(1...64))
        #expect(store.books(matching: "dickens").map(\.id) == [5, 6, 7, 8, 9, 10])
        #expect(store.books(matching: "").count == 64)
    }

    @Test("A catalog with a repeated id is rejected, naming the id")
    func duplicateIDs() {
        let json = """
            {"books": [
              {"id": 1, "title": "A", "author": "B", "year": 1, "genre": "g", "summary": "s"},
              {"id": 1, "title": "C", "author": "D", "year": 2, "genre": "g", "summary": "s"}
            ]}
            """
        #expect(throws: CatalogError.duplicateID(1)) {
            try CatalogStore.decode(Data(json.utf8))
        }
    }

    @Test("Years BC read as such")
    func yearText() {
        let odyssey = Book(id: 1, title: "O", author: "H", year: -700, genre: "e", summary: "")
        let emma = Book(id: 2, title: "E", author: "J", year: 1815, genre: "n", summary: "")

        #expect([odyssey.yearText, emma.yearText] == ["c. 700 BC", "1815"])
    }

    @Test("Options: --help, --walkthrough, and anything else is refused")
    func options() throws {
        #expect(try DemoOptions(arguments: ["--help"]).showHelp)
        #expect(try DemoOptions(arguments: ["-h"]).showHelp)
        #expect(try DemoOptions(arguments: ["--walkthrough"]).forceWalkthrough)
        #expect(try DemoOptions(arguments: []) == DemoOptions(arguments: []))
        #expect(try DemoOptions(arguments: ["--", "--help"]).showHelp)
        #expect(throws: DemoOptionsError.unknownArgument("-v")) {
            try DemoOptions(arguments: ["-v"])
        }
    }

    @Test("The help text documents the shipped accounts and the lockout rule")
    func helpMatchesShippedConfiguration() {
        for account in Account.shipped {
            #expect(DemoOptions.helpText.contains("\(account.username) / \(account.password)"))
        }
        let policy = LockoutPolicy.standard
        #expect(
            DemoOptions.helpText.contains(
                "\(policy.maxFailures) wrong attempts in a row lock a user out for 10 seconds"))
        #expect(policy.duration == .seconds(10))
    }
}

@MainActor
@Suite("Auth service")
struct AuthServiceTests {
    @Test("Failures count in a row; a success resets the count")
    func successResets() {
        let auth = AuthService(accounts: Account.shipped)
        let outcomes = [
            auth.signIn(username: "alice", password: "x", at: .zero),
            auth.signIn(username: "alice", password: "wonderland", at: .zero),
            auth.signIn(username: "bob", password: "x", at: .zero),
        ]

        #expect(
            outcomes == [
                .rejected(failuresInARow: 1, remaining: 2),
                .accepted(Account.shipped[0]),
                .rejected(failuresInARow: 1, remaining: 2),
            ])
    }

    @Test("The lock refuses even right credentials until it ends, then counting restarts")
    func lockWindow() {
        let auth = AuthService(
            accounts: Account.shipped, policy: LockoutPolicy(maxFailures: 2, duration: .seconds(5)))
        let outcomes = [
            auth.signIn(username: "bob", password: "x", at: .seconds(1)),
            auth.signIn(username: "bob", password: "x", at: .seconds(2)),
            auth.signIn(username: "bob", password: "builder", at: .seconds(3)),
            auth.signIn(username: "", password: "", at: .seconds(3)),
            auth.signIn(username: "bob", password: "x", at: .seconds(7)),
            auth.signIn(username: "bob", password: "builder", at: .seconds(7)),
        ]

        #expect(
            outcomes == [
                .rejected(failuresInARow: 1, remaining: 1),
                .lockedOut(duration: .seconds(5)),
                .locked(remaining: .seconds(4)),
                .emptyField("username"),
                .rejected(failuresInARow: 1, remaining: 1),
                .accepted(Account.shipped[1]),
            ])
    }
}
