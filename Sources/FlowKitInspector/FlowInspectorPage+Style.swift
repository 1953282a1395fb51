extension FlowInspectorPage {
    /// The page's CSS: system fonts only, no external resource.
    static let style = """
        :root { --fg: #1d2430; --muted: #6b7280; --line: #d9dee7; --bg: #fbfcfe; --panel: #fff;
          --focus: #1f6feb; --active: #1a7f37; --enter: #fff4c2; --exit: #fde2e2; --bar: #8ab4f8; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif;
          color: var(--fg); background: var(--bg); }
        header { display: flex; gap: 1em; align-items: baseline; padding: .6em 1em;
          border-bottom: 1px solid var(--line); background: var(--panel); }
        h1 { font-size: 1.1em; margin: 0; }
        h2 { font-size: .95em; margin: 0 0 .5em; color: var(--muted); text-transform: uppercase;
          letter-spacing: .04em; }
        #summary, #position, #event-count { color: var(--muted); }
        #problems, #page-errors { margin: 0; padding: .5em 2em; background: #fff7e6;
          border-bottom: 1px solid #f0c36d; }
        #page-errors { background: var(--exit); }
        #controls { display: flex; gap: .4em; align-items: center; padding: .5em 1em;
          position: sticky; top: 0; background: var(--bg); border-bottom: 1px solid var(--line);
          z-index: 2; }
        #scrubber { flex: 1; }
        button { font: inherit; padding: .15em .6em; border: 1px solid var(--line);
          background: var(--panel); border-radius: 4px; cursor: pointer; }
        button:disabled { color: var(--muted); cursor: default; }
        main { display: grid; grid-template-columns: minmax(280px, 1fr) minmax(280px, 1fr);
          gap: 1em; padding: 1em; }
        main > section, #lower { background: var(--panel); border: 1px solid var(--line);
          border-radius: 6px; padding: .8em; min-width: 0; }
        #chart-panel { grid-column: 1 / -1; overflow: auto; }
        .tree { font: 13px/1.45 ui-monospace, "SF Mono", Menlo, Consolas, monospace;
          white-space: pre; margin-bottom: .8em; overflow-x: auto; }
        .tree .rt { color: var(--muted); }
        .tree .line.focused { color: var(--focus); font-weight: 600; }
        .tree .line.active { color: var(--active); }
        .tree .line.entered { background: var(--enter); }
        .tree .line.exited { background: var(--exit); text-decoration: line-through;
          color: var(--muted); }
        .legend { color: var(--muted); font-size: .85em; }
        .legend .focused { color: var(--focus); } .legend .active { color: var(--active); }
        .legend .entered { background: var(--enter); }
        #snapshot-text { width: 100%; height: 12em; margin-top: .5em;
          font: 12px ui-monospace, monospace; }
        #diff dl { display: grid; grid-template-columns: max-content 1fr; gap: .2em .8em;
          margin: 0; }
        #diff dt { color: var(--muted); }
        #diff dd { margin: 0; overflow-wrap: anywhere; white-space: pre-line; }
        .ids { color: var(--muted); font-size: .85em; }
        #lower { margin: 0 1em 1em; }
        #tabs { display: flex; gap: .3em; margin-bottom: .6em; }
        #tabs button.selected { background: var(--focus); color: #fff; border-color: var(--focus); }
        table { border-collapse: collapse; width: 100%; margin-top: .5em; font-size: .9em; }
        th, td { text-align: left; padding: .15em .5em; border-bottom: 1px solid var(--line);
          vertical-align: top; }
        tr.current td { background: var(--enter); } tr.later td { color: var(--muted); }
        tr { cursor: pointer; }
        .result-unhandled, .result-dropped, .result-failed { color: #b42318; }
        #timeline .row { position: relative; height: 22px; margin: 2px 0; cursor: pointer; }
        #timeline .bar { position: absolute; height: 18px; top: 2px; background: var(--bar);
          border-radius: 3px; font-size: 11px; padding: 0 4px; white-space: nowrap;
          overflow: hidden; min-width: 3px; }
        #timeline .bar.failed { background: #f5a3a3; } #timeline .bar.running { opacity: .5; }
        #timeline .bar.gesture { background: #c4b5fd; }
        #timeline .bar.cancelled { background: #e5e7eb; }
        #timeline .bar.current { outline: 2px solid var(--focus); }
        #timeline .mark { position: absolute; top: 0; width: 2px; height: 22px; background: #444; }
        #timeline .coalesced { position: absolute; top: 4px; font-size: 11px; color: #b45309; }
        #timeline .axis { color: var(--muted); font-size: 11px; }
        #intents li, #log li { margin: .2em 0; cursor: pointer; }
        .arrow { color: var(--muted); }
        svg .state rect { fill: #fff; stroke: #9aa4b2; }
        svg .state.active > rect { fill: #dcfce7; stroke: var(--active); stroke-width: 2; }
        svg .state.focused > rect { fill: #dbeafe; stroke: var(--focus); stroke-width: 2.5; }
        svg text { font: 12px system-ui, sans-serif; fill: var(--fg); }
        svg .transition { stroke: #6b7280; fill: none; marker-end: url(#arrow); }
        svg .label { font-size: 11px; fill: #6b7280; }

        """
}
