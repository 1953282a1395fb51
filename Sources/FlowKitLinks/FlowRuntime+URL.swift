import FlowKit
import Foundation

extension FlowRuntime {
    /// Navigates to the path `router` maps `url` to, from the root, in one transaction (to
    /// every path, for a pattern added with ``FlowURLRouter/addEach(_:_:)``:
    /// `FlowRuntime.navigate(toEach:)`).
    ///
    /// - Throws: A ``FlowURLError`` (nothing changes), or what
    ///   ``FlowRuntime/navigate(to:history:historyDefault:)-([FlowStep],_,_)`` throws
    ///   (``FlowError/redirected(node:to:)`` if a guard sent the user to sign in first).
    public func open(_ url: URL, with router: FlowURLRouter) throws {
        try open(url.absoluteString, with: router)
    }

    /// Navigates to the path `router` maps the URL in `string` to. See
    /// ``open(_:with:)-(URL,_)``.
    public func open(_ string: String, with router: FlowURLRouter) throws {
        let paths = try router.paths(for: string)
        if paths.count == 1 {
            try navigate(to: paths[0])
        } else {
            try navigate(toEach: paths)
        }
    }
}
