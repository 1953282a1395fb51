import Testing

@Test func placeholder_FlowDemoTests() {
    #expect(Bool(true))
}
