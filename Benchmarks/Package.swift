// swift-tools-version: 6.0
import PackageDescription

// FlowKit's benchmarks live in their own package so that the library itself stays free of
// dependencies. Run them with:
//
//     swift run -c release --package-path Benchmarks flowkit-bench
let package = Package(
    name: "FlowKitBenchmarks",
    // FlowKit's own floor (see ../Package.swift); a dependent package may not go lower.
    platforms: [.iOS(.v17), .macOS(.v14), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    dependencies: [
        .package(name: "FlowKit", path: ".."),
        .package(url: "https://github.com/Swinject/Swinject", from: "2.10.0"),
    ],
    targets: [
        // glibc's allocator statistics (`mallinfo2()`), which the Glibc module does not export.
        .systemLibrary(name: "CMalloc"),
        .executableTarget(
            name: "flowkit-bench",
            dependencies: [
                .product(name: "FlowKit", package: "FlowKit"),
                .product(name: "FlowKitLinks", package: "FlowKit"),
                .product(name: "FlowKitCharts", package: "FlowKit"),
                .product(name: "Swinject", package: "Swinject"),
                "CMalloc",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
