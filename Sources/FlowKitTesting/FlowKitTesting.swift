import FlowKit

/// Placeholder: test helpers for FlowKit flows live in this module (see issue 5).
public enum FlowKitTesting {}
