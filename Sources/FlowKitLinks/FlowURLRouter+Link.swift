import FlowKit
import Foundation

extension FlowURLRouter {
    /// The `FlowLink` for `url`, for `FlowApp.open(_:delivery:receivedBy:)`: the path the
    /// router maps it to, its last route as the target, and the scene to open for it, if no
    /// open scene takes it.
    ///
    ///     let link = try router.link(for: url) { steps in
    ///         steps.last?.route.value(as: Screen.self).flatMap(Window.init(showing:))
    ///             .map { FlowRoute($0) }
    ///     }
    ///     try app.open(link, receivedBy: sceneID)
    ///
    /// - Parameters:
    ///   - url: The URL.
    ///   - sceneValue: The value of the scene to open for the link's steps; `nil` (the
    ///     default) for none: the link then goes only to open scenes.
    /// - Throws: A ``FlowURLError``, as ``steps(for:)-(URL)`` does (a pattern added with
    ///   ``addEach(_:_:)`` maps to several paths: a link has one).
    public func link(
        for url: URL, sceneValue: ([FlowStep]) -> FlowRoute? = { _ in nil }
    ) throws -> FlowLink {
        let steps = try steps(for: url)
        return FlowLink(steps, sceneValue: sceneValue(steps))
    }
}
