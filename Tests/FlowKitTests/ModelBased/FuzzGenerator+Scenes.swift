import FlowKit

/// Scene operations (`scenes` in `FLOWKIT_FUZZ_EXCLUDE` leaves them out): the platform
/// connecting scenes, reporting facts (mostly legal ones for the scene's phase), late
/// restoration data, serving what the app asked; links and commands from outside, app-wide
/// events, changes inside scenes' trees, moving a screen to a new scene, closing, and
/// letting the app go. Scene numbers are 1 to 4 (the platform serving an open takes the first
/// free of 1 to 6), so identities meet again after a scene was discarded or closed.
extension FuzzGenerator {
    /// The facts the platform reports in `phase`.
    static func legalFacts(_ phase: FlowScenePhase) -> [FlowSceneFact] {
        FlowSceneFact.allCases.filter { $0.phase(from: phase) != nil }
    }

    mutating func sceneOp(_ view: FuzzSceneView) -> FuzzSceneOp {
        let known = view.phases.keys.sorted()
        let connected = known.filter { view.phases[$0]!.isConnected }
        func anyScene() -> Int {
            rng.pick(known).map { rng.chance(85) ? $0 : 1 + rng.below(4) } ?? 1 + rng.below(4)
        }
        func value() -> Int { rng.below(6) }
        // With no scene connected, usually connect one first.
        let roll = connected.isEmpty && rng.chance(60) ? 0 : rng.below(100)
        switch roll {
        case 0..<16:
            let restoration: FuzzSceneRestoration
            switch rng.below(20) {
            case 0..<8: restoration = .none
            case 8..<15: restoration = .stored
            case 15..<18: restoration = .later
            default: restoration = .storedUnder(1 + rng.below(4))
            }
            // Usually a scene that is not connected (new, or reclaimed).
            let free = (1...4).filter { view.phases[$0]?.isConnected != true }
            let n = rng.chance(85) ? rng.pick(free) ?? 1 + rng.below(4) : 1 + rng.below(4)
            let givesValue = restoration == .none || view.phases[n] == nil || rng.chance(30)
            return .connect(n, value: givesValue ? value() : nil, restoration)
        case 16..<36:
            let n = anyScene()
            let phase = view.phases[n]
            if let phase, rng.chance(85) {
                // Usually forward: to the foreground, then active (where commands go).
                if (phase == .connected || phase == .background) && rng.chance(50) {
                    return .fact(n, .enterForeground)
                }
                if phase == .inactive && rng.chance(50) { return .fact(n, .activate) }
                if let fact = rng.pick(Self.legalFacts(phase)) { return .fact(n, fact) }
            }
            return .fact(n, rng.pick(FlowSceneFact.allCases)!)
        case 36..<40:
            let n = rng.pick(Array(view.restoring)) ?? anyScene()
            return .lateData(n, fromStore: rng.chance(70))
        case 40..<50:
            return .serve
        case 50..<66:
            let push: Int? = rng.chance(75) ? rng.below(9) : nil
            let sheet: Int? = rng.chance(25) ? rng.below(3) : nil
            return .open(
                push: push, sheet: sheet, value: rng.chance(70) ? value() : nil,
                delivery: rng.chance(30) ? rng.below(4) : nil,
                receivedBy: rng.chance(25) ? anyScene() : nil)
        case 66..<72:
            return .perform(rng.below(4), delivery: rng.chance(20) ? rng.below(4) : nil)
        case 72..<75:
            return .broadcast(rng.below(4))
        case 75..<93:
            let n = rng.pick(connected) ?? anyScene()
            switch rng.below(4) {
            case 0: return .push(n, screen: rng.below(9))
            case 1: return .pop(n)
            case 2: return .present(n, sheet: rng.below(3))
            default: return .dismiss(n)
            }
        case 93..<96:
            return .moveOut(
                rng.pick(connected) ?? anyScene(), screen: rng.below(9), value: value(),
                removing: rng.chance(50))
        case 96..<99:
            return .requestClose(anyScene())
        default:
            return .releaseApp
        }
    }
}
