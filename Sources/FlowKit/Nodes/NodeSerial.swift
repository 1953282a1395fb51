/// Hands out node serials (see ``FlowController/_serial``).
@MainActor
enum _NodeSerial {
    static var next: UInt64 = 0
}
