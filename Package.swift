// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "FlowKit",
    // The lowest OS versions FlowKit supports: Observation (iOS 17, macOS 14 and their
    // siblings) is the floor. Linux has no such setting.
    platforms: [.iOS(.v17), .macOS(.v14), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "FlowKit", targets: ["FlowKit"]),
        .library(name: "FlowKitTesting", targets: ["FlowKitTesting"]),
        .library(name: "FlowKitCharts", targets: ["FlowKitCharts"]),
        .library(name: "FlowKitLinks", targets: ["FlowKitLinks"]),
        .executable(name: "flowdemo", targets: ["flowdemo"]),
        .executable(name: "flowchart", targets: ["flowchart"]),
    ],
    dependencies: [],
    targets: [
        // The library: the FlowController tree, responder chain, scopes, containers.
        .target(name: "FlowKit"),
        // Test support: recording host, exhaustive harness, leak tracking.
        .target(name: "FlowKitTesting", dependencies: ["FlowKit"]),
        // The statechart format (Docs/ChartFormat.md) compiled to ordinary FlowController trees.
        .target(name: "FlowKitCharts", dependencies: ["FlowKit"]),
        // URL deep links mapped to navigation paths (uses Foundation's URLComponents).
        .target(name: "FlowKitLinks", dependencies: ["FlowKit"]),
        // The demo app's flows, shared by the binary and its tests.
        .target(
            name: "FlowDemo", dependencies: ["FlowKit", "FlowKitLinks"],
            resources: [.process("Resources")]),
        .executableTarget(name: "flowdemo", dependencies: ["FlowDemo"]),
        .executableTarget(name: "flowchart", dependencies: ["FlowKitCharts"]),
        .testTarget(
            name: "FlowKitTests", dependencies: ["FlowKit", "FlowKitTesting"],
            exclude: ["ModelBased/README.md"]),
        .testTarget(name: "FlowKitTestingTests", dependencies: ["FlowKit", "FlowKitTesting"]),
        .testTarget(
            name: "FlowKitChartsTests", dependencies: ["FlowKit", "FlowKitCharts"],
            exclude: ["Charts", "Examples", "HandChecked"]),
        .testTarget(
            name: "FlowKitLinksTests", dependencies: ["FlowKit", "FlowKitLinks"],
            exclude: ["Fixtures"]),
        // The code of the guides (every ```swift block of Docs/GettingStarted.md, Concepts.md,
        // Routing.md, Results.md, Restoration.md, Hosting.md, HostingUIKit.md,
        // HostingSwiftUI.md, Splits.md, Navigation.md, StateMachine.md, ResponderChain.md,
        // Dependencies.md, Concurrency.md, Testing.md, Demo.md and Scenes.md that is not
        // marked "not compiled"), compiled and run.
        .testTarget(
            name: "GuideTests", dependencies: ["FlowKit", "FlowKitTesting", "FlowKitLinks"]),
        .testTarget(
            name: "FlowDemoTests", dependencies: ["FlowDemo", "FlowKit", "FlowKitTesting"]),
    ],
    swiftLanguageModes: [.v6]
)
