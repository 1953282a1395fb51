import FlowDemo
import Testing

@MainActor
@Suite("Walkthrough")
struct WalkthroughTests {
    @Test(
        "The walkthrough signs in, browses, rates, visits every tab, logs out and quits clean")
    func walkthroughTranscript() async throws {
        let app = try makeApp()

        #expect(await app.walkthrough() == lines(expectedWalkthrough))
        #expect(app.hasQuit)
        #expect(app.liveNodes.alive == 0)
        #expect(app.liveNodes.created == 19)
    }

    @Test("The walkthrough's commands are the ones the docs describe")
    func walkthroughCommands() {
        #expect(
            DemoApp.walkthroughCommands == [
                "login alice secret", "trace", "login alice wonderland", "next",
                "filter dickens", "select 1", "back", "select 6", "rate", "close", "rate",
                "stars 4", "fav", "tab favourites", "select 1", "tree", "tab catalog",
                "tab catalog", "tab profile", "logout", "tree", "quit",
            ])
    }
}

/// The whole walkthrough, as `flowdemo < /dev/null` prints it.
let expectedWalkthrough = """
    No input: running the built-in walkthrough (the commands: swift run flowdemo --help).

    FlowKit demo: the app is a tree of FlowControllers. Type 'help' for help.

    +-- Sign in ------------------------------------------------------------
    | app/login/form
    |
    | Demo accounts (username / password):
    |   alice / wonderland
    |   bob / builder
    | 3 wrong attempts in a row lock a user out for 10 seconds.
    |
    | Here: login <user> <password>
    | Anywhere: open, about, tree, trace, help, quit
    +-----------------------------------------------------------------------
    > login alice secret
    Wrong username or password (1 in a row for alice; 2 more lock alice out for 10 s).
    > trace
    Trace on: FlowKit's trace lines follow as they happen.
    > login alice wonderland
      trace: send CredentialsAccepted from app/login/form
      trace: finished app/login: result to run at app
      trace: handled CredentialsAccepted at app/login
    Signed in as Alice: the app root shows the main flow.
      trace: exit app/login/form
      trace: exit app/login
      trace: enter app/main
      trace: enter app/main/tabs
      trace: enter app/main/tabs/catalog
      trace: enter app/main/tabs/catalog/books
      trace: enter app/main/tabs/catalog/books/list
      trace: enter app/main/tabs/catalog/book
      trace: enter app/main/tabs/favourites
      trace: enter app/main/tabs/favourites/list
      trace: enter app/main/tabs/profile
      trace: change switch app -app/login +app/main
      trace: activate app/main
      trace: activate app/main/tabs
      trace: activate app/main/tabs/catalog
      trace: activate app/main/tabs/catalog/books
      trace: activate app/main/tabs/catalog/books/list
      trace: activate app/main/tabs/catalog/book
      trace: change platformCollapse app/main/tabs/catalog
      trace: deactivate app/main/tabs/catalog/book
    +-- Books --------------------------------------------------------------
    | app/main/tabs/catalog/books/list
    | Tabs: [Catalog] Favourites Profile
    |
    | Signed in as Alice; books opened this session: 0
    | Filter: none (64 books)
    |
    |   1. Pride and Prejudice - Jane Austen, 1813
    |   2. Emma - Jane Austen, 1815
    |   3. Persuasion - Jane Austen, 1817
    |   4. Sense and Sensibility - Jane Austen, 1811
    |   5. Great Expectations - Charles Dickens, 1861
    |   6. A Tale of Two Cities - Charles Dickens, 1859
    |   7. Oliver Twist - Charles Dickens, 1838
    |   8. David Copperfield - Charles Dickens, 1850
    |
    | Page 1 of 8
    |
    | Here: next, prev, page <n>, filter [text], select <n>, logout, tab <name>
    | Anywhere: open, about, tree, trace, help, quit
    +-----------------------------------------------------------------------
    > next
    +-- Books --------------------------------------------------------------
    | app/main/tabs/catalog/books/list
    | Tabs: [Catalog] Favourites Profile
    |
    | Signed in as Alice; books opened this session: 0
    | Filter: none (64 books)
    |
    |   9. Bleak House - Charles Dickens, 1853
    |  10. A Christmas Carol - Charles Dickens, 1843
    |  11. Moby-Dick - Herman Melville, 1851
    |  12. Jane Eyre - Charlotte Bronte, 1847
    |  13. Wuthering Heights - Emily Bronte, 1847
    |  14. Middlemarch - George Eliot, 1871
    |  15. Frankenstein - Mary Shelley, 1818
    |  16. Dracula - Bram Stoker, 1897
    |
    | Page 2 of 8
    |
    | Here: next, prev, page <n>, filter [text], select <n>, logout, tab <name>
    | Anywhere: open, about, tree, trace, help, quit
    +-----------------------------------------------------------------------
    > filter dickens
    6 of 64 books match "dickens".
    +-- Books --------------------------------------------------------------
    | app/main/tabs/catalog/books/list
    | Tabs: [Catalog] Favourites Profile
    |
    | Signed in as Alice; books opened this session: 0
    | Filter: "dickens" (6 of 64 books)
    |
    |   1. Great Expectations - Charles Dickens, 1861
    |   2. A Tale of Two Cities - Charles Dickens, 1859
    |   3. Oliver Twist - Charles Dickens, 1838
    |   4. David Copperfield - Charles Dickens, 1850
    |   5. Bleak House - Charles Dickens, 1853
    |   6. A Christmas Carol - Charles Dickens, 1843
    |
    | Page 1 of 1
    |
    | Here: next, prev, page <n>, filter [text], select <n>, logout, tab <name>
    | Anywhere: open, about, tree, trace, help, quit
    +-----------------------------------------------------------------------
    > select 1
      trace: send BookSelected from app/main/tabs/catalog/books/list
      trace: enter app/main/tabs/catalog/book/detail
      trace: change show app/main/tabs/catalog +app/main/tabs/catalog/book/detail
      trace: deactivate app/main/tabs/catalog/books/list
      trace: deactivate app/main/tabs/catalog/books
      trace: activate app/main/tabs/catalog/book
      trace: activate app/main/tabs/catalog/book/detail
      trace: handled BookSelected at app/main/tabs/catalog
    +-- Great Expectations -------------------------------------------------
    | app/main/tabs/catalog/book/detail
    | Tabs: [Catalog] Favourites Profile
    |
    | Great Expectations
    | by Charles Dickens, 1861 (novel)
    |
    | Pip, an orphan with a secret benefactor, learns what a gentleman is.
    |
    | Signed in as Alice; books opened this session: 1
    |
    | Here: back, rate, fav, logout, tab <name>
    | Anywhere: open, about, tree, trace, help, quit
    +-----------------------------------------------------------------------
    > back
      trace: exit app/main/tabs/catalog/book/detail
      trace: change platformPop app/main/tabs/catalog -app/main/tabs/catalog/book/detail
      trace: deactivate app/main/tabs/catalog/book
      trace: activate app/main/tabs/catalog/books
      trace: activate app/main/tabs/catalog/books/list
    +-- Books --------------------------------------------------------------
    | app/main/tabs/catalog/books/list
    | Tabs: [Catalog] Favourites Profile
    |
    | Signed in as Alice; books opened this session: 1
    | Filter: "dickens" (6 of 64 books)
    |
    |   1. Great Expectations - Charles Dickens, 1861
    |   2. A Tale of Two Cities - Charles Dickens, 1859
    |   3. Oliver Twist - Charles Dickens, 1838
    |   4. David Copperfield - Charles Dickens, 1850
    |   5. Bleak House - Charles Dickens, 1853
    |   6. A Christmas Carol - Charles Dickens, 1843
    |
    | Page 1 of 1
    |
    | Here: next, prev, page <n>, filter [text], select <n>, logout, tab <name>
    | Anywhere: open, about, tree, trace, help, quit
    +-----------------------------------------------------------------------
    > select 6
      trace: send BookSelected from app/main/tabs/catalog/books/list
      trace: enter app/main/tabs/catalog/book/detail
      trace: change show app/main/tabs/catalog +app/main/tabs/catalog/book/detail
      trace: deactivate app/main/tabs/catalog/books/list
      trace: deactivate app/main/tabs/catalog/books
      trace: activate app/main/tabs/catalog/book
      trace: activate app/main/tabs/catalog/book/detail
      trace: handled BookSelected at app/main/tabs/catalog
    +-- A Christmas Carol --------------------------------------------------
    | app/main/tabs/catalog/book/detail
    | Tabs: [Catalog] Favourites Profile
    |
    | A Christmas Carol
    | by Charles Dickens, 1843 (novella)
    |
    | Three spirits visit a miser on Christmas Eve.
    |
    | Signed in as Alice; books opened this session: 2
    |
    | Here: back, rate, fav, logout, tab <name>
    | Anywhere: open, about, tree, trace, help, quit
    +-----------------------------------------------------------------------
    > rate
      trace: enter app/main/tabs/catalog/book/detail/rate
      trace: change present app/main/tabs/catalog/book/detail +app/main/tabs/catalog/book/detail/rate
      trace: activate app/main/tabs/catalog/book/detail/rate
    +-- Rate this book -----------------------------------------------------
    | app/main/tabs/catalog/book/detail/rate
    |
    | How many stars for A Christmas Carol?
    | stars <n> rates it from 1 to 5; close leaves without a rating.
    |
    | Here: stars <n>, close
    | Anywhere: open, about, tree, trace, help, quit
    +-----------------------------------------------------------------------
    > close
      trace: exit app/main/tabs/catalog/book/detail/rate
      trace: cancelled app/main/tabs/catalog/book/detail/rate (it left without finishing): run at app/main/tabs/catalog/book/detail throws
      trace: change platformDismiss app/main/tabs/catalog/book/detail -app/main/tabs/catalog/book/detail/rate
    Rating cancelled: the sheet was closed without a rating.
    +-- A Christmas Carol --------------------------------------------------
    | app/main/tabs/catalog/book/detail
    | Tabs: [Catalog] Favourites Profile
    |
    | A Christmas Carol
    | by Charles Dickens, 1843 (novella)
    |
    | Three spirits visit a miser on Christmas Eve.
    |
    | Signed in as Alice; books opened this session: 2
    |
    | Here: back, rate, fav, logout, tab <name>
    | Anywhere: open, about, tree, trace, help, quit
    +-----------------------------------------------------------------------
    > rate
      trace: enter app/main/tabs/catalog/book/detail/rate
      trace: change present app/main/tabs/catalog/book/detail +app/main/tabs/catalog/book/detail/rate
      trace: activate app/main/tabs/catalog/book/detail/rate
    +-- Rate this book -----------------------------------------------------
    | app/main/tabs/catalog/book/detail/rate
    |
    | How many stars for A Christmas Carol?
    | stars <n> rates it from 1 to 5; close leaves without a rating.
    |
    | Here: stars <n>, close
    | Anywhere: open, about, tree, trace, help, quit
    +-----------------------------------------------------------------------
    > stars 4
      trace: finished app/main/tabs/catalog/book/detail/rate: result to run at app/main/tabs/catalog/book/detail
      trace: exit app/main/tabs/catalog/book/detail/rate
      trace: change dismiss app/main/tabs/catalog/book/detail -app/main/tabs/catalog/book/detail/rate
    You gave A Christmas Carol 4 of 5 stars.
    +-- A Christmas Carol --------------------------------------------------
    | app/main/tabs/catalog/book/detail
    | Tabs: [Catalog] Favourites Profile
    |
    | A Christmas Carol
    | by Charles Dickens, 1843 (novella)
    |
    | Three spirits visit a miser on Christmas Eve.
    |
    | Signed in as Alice; books opened this session: 2
    | Your rating: 4 of 5 stars
    |
    | Here: back, rate, fav, logout, tab <name>
    | Anywhere: open, about, tree, trace, help, quit
    +-----------------------------------------------------------------------
    > fav
    Added A Christmas Carol to your favourites (1); 'tab favourites' lists them.
    +-- A Christmas Carol --------------------------------------------------
    | app/main/tabs/catalog/book/detail
    | Tabs: [Catalog] Favourites Profile
    |
    | A Christmas Carol
    | by Charles Dickens, 1843 (novella)
    |
    | Three spirits visit a miser on Christmas Eve.
    |
    | Signed in as Alice; books opened this session: 2
    | Your rating: 4 of 5 stars
    | One of your favourites
    |
    | Here: back, rate, fav, logout, tab <name>
    | Anywhere: open, about, tree, trace, help, quit
    +-----------------------------------------------------------------------
    > tab favourites
      trace: change select app/main/tabs
      trace: deactivate app/main/tabs/catalog/book/detail
      trace: deactivate app/main/tabs/catalog/book
      trace: deactivate app/main/tabs/catalog
      trace: activate app/main/tabs/favourites
      trace: activate app/main/tabs/favourites/list
    Favourites selected: nothing exited or entered; Catalog keeps its columns: books (list), book (detail).
    +-- Favourites ---------------------------------------------------------
    | app/main/tabs/favourites/list
    | Tabs: Catalog [Favourites] Profile
    |
    | Signed in as Alice; favourites: 1
    |
    |   1. A Christmas Carol - Charles Dickens, 1843
    |
    | Here: select <n>, logout, tab <name>
    | Anywhere: open, about, tree, trace, help, quit
    +-----------------------------------------------------------------------
    > select 1
      trace: send BookSelected from app/main/tabs/favourites/list
      trace: enter app/main/tabs/favourites/detail
      trace: change push app/main/tabs/favourites +app/main/tabs/favourites/detail
      trace: deactivate app/main/tabs/favourites/list
      trace: activate app/main/tabs/favourites/detail
      trace: handled BookSelected at app/main
    +-- A Christmas Carol --------------------------------------------------
    | app/main/tabs/favourites/detail
    | Tabs: Catalog [Favourites] Profile
    |
    | A Christmas Carol
    | by Charles Dickens, 1843 (novella)
    |
    | Three spirits visit a miser on Christmas Eve.
    |
    | Signed in as Alice; books opened this session: 2
    | Your rating: 4 of 5 stars
    | One of your favourites
    |
    | Here: back, rate, fav, logout, tab <name>
    | Anywhere: open, about, tree, trace, help, quit
    +-----------------------------------------------------------------------
    > tree
    * app
      * main
        * tabs
            catalog
              books
                list
              book
                detail
          * favourites
              list
            * detail
            profile
    FlowController instances alive: 12 (12 in the tree; * marks the focused path)
    Split catalog: collapsed (80 columns, under 100): one stack (list, detail), only its top active; focus in book.
    > tab catalog
      trace: change select app/main/tabs
      trace: deactivate app/main/tabs/favourites/detail
      trace: deactivate app/main/tabs/favourites
      trace: activate app/main/tabs/catalog
      trace: activate app/main/tabs/catalog/book
      trace: activate app/main/tabs/catalog/book/detail
    Catalog selected: nothing exited or entered; Favourites keeps its stack: list, detail.
    +-- A Christmas Carol --------------------------------------------------
    | app/main/tabs/catalog/book/detail
    | Tabs: [Catalog] Favourites Profile
    |
    | A Christmas Carol
    | by Charles Dickens, 1843 (novella)
    |
    | Three spirits visit a miser on Christmas Eve.
    |
    | Signed in as Alice; books opened this session: 2
    | Your rating: 4 of 5 stars
    | One of your favourites
    |
    | Here: back, rate, fav, logout, tab <name>
    | Anywhere: open, about, tree, trace, help, quit
    +-----------------------------------------------------------------------
    > tab catalog
      trace: exit app/main/tabs/catalog/book/detail
      trace: change platformPop app/main/tabs/catalog -app/main/tabs/catalog/book/detail
      trace: deactivate app/main/tabs/catalog/book
      trace: activate app/main/tabs/catalog/books
      trace: activate app/main/tabs/catalog/books/list
    Catalog reselected: popped to its root (detail exited).
    +-- Books --------------------------------------------------------------
    | app/main/tabs/catalog/books/list
    | Tabs: [Catalog] Favourites Profile
    |
    | Signed in as Alice; books opened this session: 2
    | Filter: "dickens" (6 of 64 books)
    |
    |   1. Great Expectations - Charles Dickens, 1861
    |   2. A Tale of Two Cities - Charles Dickens, 1859
    |   3. Oliver Twist - Charles Dickens, 1838
    |   4. David Copperfield - Charles Dickens, 1850
    |   5. Bleak House - Charles Dickens, 1853
    |   6. A Christmas Carol - Charles Dickens, 1843
    |
    | Page 1 of 1
    |
    | Here: next, prev, page <n>, filter [text], select <n>, logout, tab <name>
    | Anywhere: open, about, tree, trace, help, quit
    +-----------------------------------------------------------------------
    > tab profile
      trace: change select app/main/tabs
      trace: deactivate app/main/tabs/catalog/books/list
      trace: deactivate app/main/tabs/catalog/books
      trace: deactivate app/main/tabs/catalog
      trace: activate app/main/tabs/profile
    Profile selected: nothing exited or entered; Catalog keeps its columns: books (list), book (empty).
    +-- Profile ------------------------------------------------------------
    | app/main/tabs/profile
    | Tabs: Catalog Favourites [Profile]
    |
    | Signed in as Alice (username alice)
    |
    | Books opened this session: 2
    | Favourites: 1
    | Books rated: 1
    |
    | logout signs out: the main flow, with every tab, is torn down.
    |
    | Here: logout, tab <name>
    | Anywhere: open, about, tree, trace, help, quit
    +-----------------------------------------------------------------------
    > logout
      trace: send LogoutRequested from app/main/tabs/profile
      trace: finished app/main: result to run at app
      trace: handled LogoutRequested at app/main
      trace: exit app/main/tabs/profile
      trace: exit app/main/tabs/favourites/detail
      trace: exit app/main/tabs/favourites/list
      trace: exit app/main/tabs/favourites
      trace: exit app/main/tabs/catalog/book
      trace: exit app/main/tabs/catalog/books/list
      trace: exit app/main/tabs/catalog/books
      trace: exit app/main/tabs/catalog
      trace: exit app/main/tabs
      trace: exit app/main
    Alice signed out: the app root tore the main flow down and shows a new login flow.
    The session is gone (checked with a weak reference).
      trace: enter app/login
      trace: enter app/login/form
      trace: change switch app -app/main +app/login
      trace: activate app/login
      trace: activate app/login/form
    +-- Sign in ------------------------------------------------------------
    | app/login/form
    |
    | Demo accounts (username / password):
    |   alice / wonderland
    |   bob / builder
    | 3 wrong attempts in a row lock a user out for 10 seconds.
    |
    | Here: login <user> <password>
    | Anywhere: open, about, tree, trace, help, quit
    +-----------------------------------------------------------------------
    > tree
    * app
      * login
        * form
    FlowController instances alive: 3 (3 in the tree; * marks the focused path)
    > quit
    Quitting: the runtime stops and every node exits, innermost first.
      trace: exit app/login/form
      trace: exit app/login
      trace: cancelled app/login (it left without finishing): run at app throws
      trace: exit app
      trace: change stop -app
    FlowController instances still alive: 0 (19 created in this run).
    """
