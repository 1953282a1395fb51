// swift-tools-version: 6.0
import PackageDescription

// FlowKit's coverage-guided fuzz targets live in their own package, outside the library's
// products. They are built with libFuzzer and AddressSanitizer and run by
// scripts/fuzz-inputs.sh:
//
//     bash scripts/fuzz-inputs.sh links 60     # or snapshots, charts
let package = Package(
    name: "FlowKitFuzz",
    // FlowKit's own floor (see ../Package.swift); a dependent package may not go lower.
    platforms: [.iOS(.v17), .macOS(.v14), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    dependencies: [
        .package(name: "FlowKit", path: "..")
    ],
    targets: [
        // One libFuzzer binary; FLOWKIT_FUZZ_TARGET (links, snapshots, charts) picks the door.
        .executableTarget(
            name: "flowkit-fuzz",
            dependencies: [
                .product(name: "FlowKit", package: "FlowKit"),
                .product(name: "FlowKitLinks", package: "FlowKit"),
                .product(name: "FlowKitCharts", package: "FlowKit"),
            ])
    ],
    swiftLanguageModes: [.v6]
)
