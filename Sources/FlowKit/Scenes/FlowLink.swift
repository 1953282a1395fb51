/// Something from outside to show: a URL, a user activity, a notification tap or a quick
/// action, already mapped to a path (a link is a value, not a URL: `FlowKitLinks` maps
/// URLs to paths).
///
///     let link = FlowLink(
///         [.child("books"), .child("stack"), .child(Screen.list), .push(Screen.detail(id: 12))],
///         sceneValue: FlowRoute(Window.book(id: 12)))
///     let decision = try app.open(link)
///
/// ``FlowApp/open(_:delivery:receivedBy:)`` routes it (see <doc:Scenes>, "The router"): to a
/// scene that already shows its ``target``, else to a scene that can navigate its ``path``,
/// else the host is asked to open a scene for its ``sceneValue``.
public struct FlowLink: Hashable, Sendable, CustomStringConvertible {
    /// The path navigated from the root of the scene that takes the link.
    public var path: [FlowStep]
    /// The route whose node, shown in a scene, means that scene already shows the link:
    /// by default the last step's route.
    public var target: FlowRoute?
    /// The value of the scene to open for the link when no open scene takes it (as
    /// SwiftUI's `openWindow(value:)`); `nil`: the link is never given a window of its own.
    public var sceneValue: FlowRoute?

    /// A link to `path`.
    ///
    /// - Parameters:
    ///   - path: Steps from a scene's root.
    ///   - target: The route that shows the link; `nil` for the last step's route.
    ///   - sceneValue: The value of a scene to open for the link, if no scene takes it.
    public init(_ path: [FlowStep], target: FlowRoute? = nil, sceneValue: FlowRoute? = nil) {
        self.path = path
        self.target = target ?? path.last?.route
        self.sceneValue = sceneValue
    }

    /// `link book(id: 12)`: the target, else the path.
    public var description: String {
        if let target { return "link \(target)" }
        return "link " + path.map(\.description).joined(separator: " ")
    }
}

/// The identity of one delivery of a link or a command, as the platform gives it: the same
/// identity delivered twice within one launch (one ``FlowApp``) runs once.
///
///     try app.open(link, delivery: FlowDeliveryID(source: "notification", token: request.identifier))
///
/// A platform delivers some things twice: the URL of a cold launch arrives in the scene's
/// connection options and may arrive again through `scene(_:openURLContexts:)`; a
/// notification response can be delivered again after a relaunch. Give both deliveries the
/// same identity: the notification's request identifier, the user activity's
/// `persistentIdentifier`, or for a URL of a launch `FlowDeliveryID(source: "launch", token:
/// url)`. A delivery without an identity is never taken for a duplicate: tapping the same
/// link twice opens it twice.
public struct FlowDeliveryID: Hashable, Sendable, CustomStringConvertible {
    /// Where the delivery came from: `url`, `activity`, `notification`, `shortcut`, `launch`.
    public var source: String
    /// The platform's identifier of the delivery, unique within its source.
    public var token: String

    /// A delivery identity.
    public init(source: String, token: String) {
        self.source = source
        self.token = token
    }

    /// `source:token`.
    public var description: String { "\(source):\(token)" }
}
