import FlowKit

/// The main flow's tab container: Catalog, Favourites and Profile.
///
/// Every tab is entered with the main flow and stays entered until logout; `tab <name>`
/// selects one with ``FlowTabs/select(_:)``, which moves activation only: nothing exits, and
/// each tab's stack (and the catalog's columns) stays as it was. Selecting the tab that is already selected pops
/// its stack to its root (``FlowTabs/reselectionPopsToRoot``), as tab bars usually do.
final class MainTabs: FlowTabs {
    private let registration: LiveNodeCounter.Registration

    init(counter: LiveNodeCounter) {
        registration = counter.register()
        super.init(
            name: "tabs", route: "tabs",
            tabs: [
                CatalogSplit(counter: counter),
                BookStack.favourites(counter: counter),
                ProfileScreen(counter: counter),
            ])
        reselectionPopsToRoot = true
    }

    /// The tab bar's label for `tab`: its name, capitalised (`Catalog`).
    static func title(of tab: FlowController) -> String {
        tab.name.prefix(1).uppercased() + tab.name.dropFirst()
    }

    /// The tab whose name is `name`, in any case.
    func tab(named name: String) -> FlowController? {
        tabs.first { $0.name == name.lowercased() }
    }

    /// The tab bar as one line, the selected tab in brackets: `[Catalog] Favourites Profile`.
    var barText: String {
        let selected = selectedIndex
        return tabs.enumerated().map { index, tab in
            index == selected ? "[\(Self.title(of: tab))]" : Self.title(of: tab)
        }.joined(separator: " ")
    }
}
