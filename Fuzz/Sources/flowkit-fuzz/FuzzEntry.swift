import Foundation

/// The door a run fuzzes, from `FLOWKIT_FUZZ_TARGET`.
enum FuzzTarget: String, CaseIterable, Sendable {
    case links
    case snapshots
    case charts
    case operations
    case scxml

    /// The target named by the environment; the process stops if it names none.
    static let selected: FuzzTarget = {
        let name = ProcessInfo.processInfo.environment["FLOWKIT_FUZZ_TARGET"] ?? ""
        guard let target = FuzzTarget(rawValue: name) else {
            let names = allCases.map(\.rawValue).joined(separator: ", ")
            printError("flowkit-fuzz: set FLOWKIT_FUZZ_TARGET to one of: \(names)")
            exit(2)
        }
        return target
    }()
}

/// The process entry: hands control to libFuzzer's driver, which parses libFuzzer's options
/// and calls ``fuzz(_:_:)`` for each input.
///
/// SwiftPM links an executable's `main` to its module's entry point, so the binary starts
/// here rather than in libFuzzer's own `main`.
@main
enum FlowKitFuzz {
    static func main() {
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(
            LLVMFuzzerRunDriver(&argc, &argv) { data, size in
                fuzz(data ?? UnsafePointer(bitPattern: 1)!, size)
            })
    }
}

/// libFuzzer's driver (`-sanitize=fuzzer` links it in).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ body: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// libFuzzer's entry point: one input, run through the selected door and its oracle.
///
/// libFuzzer calls it on the main thread, so main-actor code is entered synchronously.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    MainActor.assumeIsolated {
        switch FuzzTarget.selected {
        case .links: LinksTarget.run(bytes)
        case .snapshots: SnapshotsTarget.run(bytes)
        case .charts: ChartsTarget.run(bytes)
        case .operations: OperationsTarget.run(bytes)
        case .scxml: SCXMLTarget.run(bytes)
        }
    }
    return 0
}

/// Stops the process with `message` when an oracle does not hold; libFuzzer then saves the
/// input that caused it.
func oracle(
    _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
    file: StaticString = #fileID, line: UInt = #line
) {
    guard !condition() else { return }
    printError("flowkit-fuzz: oracle failed (\(file):\(line)): \(message())")
    abort()
}

/// Writes `line` and a line break to the standard error.
func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
