import Testing

@Test func placeholder_FlowKitChartsTests() {
    #expect(Bool(true))
}
