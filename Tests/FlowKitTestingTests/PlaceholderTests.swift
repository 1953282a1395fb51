import Testing

@Test func placeholder_FlowKitTestingTests() {
    #expect(Bool(true))
}
