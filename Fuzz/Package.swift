// swift-tools-version: 6.0
import PackageDescription

// FlowKit's coverage-guided fuzz targets live in their own package, outside the library's
// products. They are built with libFuzzer and AddressSanitizer and run by
// scripts/fuzz-inputs.sh:
//
//     bash scripts/fuzz-inputs.sh links 60     # or snapshots, charts, scxml, operations
//
// The operations target runs the model-based random test's code: Sources/flowkit-fuzz/ModelBased
// is a symbolic link to ../Tests/FlowKitTests/ModelBased (one model, compiled by both), less
// the test itself. Its platform checks read FlowKit's internals (`@testable import`), so
// scripts/fuzz-inputs.sh builds with `-enable-testing`.
let package = Package(
    name: "FlowKitFuzz",
    // FlowKit's own floor (see ../Package.swift); a dependent package may not go lower.
    platforms: [.iOS(.v17), .macOS(.v14), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    dependencies: [
        .package(name: "FlowKit", path: "..")
    ],
    targets: [
        // One libFuzzer binary; FLOWKIT_FUZZ_TARGET (links, snapshots, charts, scxml, operations)
        // picks the door.
        .executableTarget(
            name: "flowkit-fuzz",
            dependencies: [
                .product(name: "FlowKit", package: "FlowKit"),
                .product(name: "FlowKitTesting", package: "FlowKit"),
                .product(name: "FlowKitLinks", package: "FlowKit"),
                .product(name: "FlowKitCharts", package: "FlowKit"),
            ],
            exclude: ["ModelBased/README.md", "ModelBased/ModelBasedTests.swift"])
    ],
    swiftLanguageModes: [.v6]
)
