import FlowKit

/// Placeholder: the chart model and runner live in this module (see issue 4).
public enum FlowKitCharts {}
