import FlowKit

/// Placeholder: the demo app's flows live in this module (see issue 3).
public enum FlowDemo {}
