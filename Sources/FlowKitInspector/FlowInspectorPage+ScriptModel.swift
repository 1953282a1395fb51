extension FlowInspectorPage {
    /// The page's script, first half: reading the embedded session and replaying its steps
    /// (each step's tree from the last whole tree, checkpoints every 64 steps, so that a jump
    /// costs at most 64 steps' changes and a step forward one).
    static let scriptModel = #"""
        "use strict";
        const pageErrors = [];
        function reportError(message) {
          pageErrors.push(String(message));
          const list = document.getElementById("page-errors");
          if (!list) return;
          list.hidden = false;
          const item = document.createElement("li");
          item.textContent = "page error: " + message;
          list.appendChild(item);
        }
        window.addEventListener("error", e => reportError(e.message || e.type));
        window.addEventListener("unhandledrejection", e => reportError(e.reason));
        // The page's policy forbids every request: an attempt is an error of the page.
        document.addEventListener("securitypolicyviolation", e =>
          reportError("blocked " + e.violatedDirective + ": " + e.blockedURI));
        const consoleError = console.error.bind(console);
        console.error = (...parts) => { reportError(parts.join(" ")); consoleError(...parts); };

        const data = JSON.parse(document.getElementById("session-data").textContent);
        const records = data.records;
        const steps = [];              // the step records, in order (the scrubber's positions)
        const events = [];             // the event records
        const bars = [];               // transitions and gestures, as bars on the clock
        const coalesced = [];
        const intents = [];
        const log = [];
        const runtimes = [];
        const stepsOf = new Map();     // runtime label -> indices into steps
        const openBars = new Map();
        const following = [];          // per step, the records between it and the next step
        records.forEach((r, i) => {
          r.index = i;
          // Formats 2 and 3 leave a step's `active` out when the active nodes are the focused path.
          if (r.k === "step" && r.active === undefined) r.active = r.focus;
          r.after = steps.length - 1;  // the step this record follows
          if (r.k !== "step" && r.after >= 0) (following[r.after] = following[r.after] || []).push(r);
          switch (r.k) {
          case "step":
            r.after = steps.length;
            if (!stepsOf.has(r.rt)) { stepsOf.set(r.rt, []); runtimes.push(r.rt); }
            r.local = stepsOf.get(r.rt).length;
            stepsOf.get(r.rt).push(steps.length);
            steps.push(r);
            break;
          case "event": events.push(r); break;
          case "transition": {
            const key = r.rt + "#" + r.token;
            if (r.phase === "begin") {
              const bar = { kind: r.kind, label: r.step, container: r.container, rt: r.rt,
                start: r.t, end: null, outcome: "running", record: r, progress: [] };
              openBars.set(key, bar);
              bars.push(bar);
            } else {
              const bar = openBars.get(key);
              if (bar) { bar.end = r.t; bar.outcome = r.phase; bar.error = r.error; openBars.delete(key); }
            }
            break;
          }
          case "gesture": {
            const key = r.rt + "@gesture";
            if (r.phase === "began") {
              const bar = { kind: "gesture", label: "gesture " + r.kind + " " + r.at, container: r.at,
                rt: r.rt, start: r.t, end: null, outcome: "running", record: r, progress: [] };
              openBars.set(key, bar);
              bars.push(bar);
            } else {
              const bar = openBars.get(key);
              if (!bar) break;
              if (r.phase === "progress") { bar.progress.push({ t: r.t, value: r.progress }); break; }
              bar.end = r.t; bar.outcome = r.phase; openBars.delete(key);
            }
            break;
          }
          case "coalesced": coalesced.push(r); break;
          case "intent": case "decision": intents.push(r); if (r.k === "decision") log.push(r); break;
          case "result": case "failure": case "notRestored": case "attach": case "detach": case "end":
            log.push(r); break;
          }
        });

        // Replaying the trees: a state is { root, nodes: Map(id -> node) }; nodes are never changed
        // once made (a step makes new ones), so a checkpoint is a shallow copy of the map.
        // A step is a whole tree (full), a delta (formats 2 and 3: it has `order`, the
        // container's children; what exited is removed, what entered added; its first row is
        // the container's, but format 3 leaves that row out when it is unchanged), or its
        // container's subtree. Format 3 leaves out `full` when false and empty ID lists.
        function pathOf(state, id) {
          const names = [];
          for (let node = state && state.nodes.get(id); node; node = state.nodes.get(node.parent))
            names.push(node.name);
          return names.length ? names.reverse().join("/") : "#" + id;
        }
        function removeSubtree(state, id) {
          const node = state.nodes.get(id);
          if (!node) return;
          state.nodes.delete(id);
          for (const child of node.children) removeSubtree(state, child);
        }
        function applyStep(state, step) {
          const c = step.change;
          if (c.exitedIDs === undefined) c.exitedIDs = [];
          if (c.enteredIDs === undefined) c.enteredIDs = [];
          // Formats 2 and 3 write no paths where the trees tell them: they are read here, once.
          const derive = c.exited === undefined;
          if (derive) c.exited = c.exitedIDs.map(id => pathOf(state, id));
          if (step.full) state = { root: null, nodes: new Map() };
          else if (!state) return null;
          if (step.order) {
            for (const id of c.exitedIDs) {
              const node = state.nodes.get(id);
              if (!node) continue;
              const up = state.nodes.get(node.parent);
              if (up) state.nodes.set(up.id, Object.assign({}, up, { children: up.children.filter(x => x !== id) }));
              removeSubtree(state, id);
            }
          }
          const container = step.order ? c.containerID : null;
          if (step.order && !(step.nodes.length && step.nodes[0][0] === container)) {
            const up = state.nodes.get(container);
            if (up) state.nodes.set(container, Object.assign({}, up, { children: step.order.slice() }));
          }
          const selections = [];
          step.nodes.forEach((row, position) => {
            const [id, name, parent, kind, presented, selection, collapsed] = row;
            const before = state.nodes.get(id);
            const node = { id, name, parent, kind, presented: presented === 1,
              selection: selection === undefined ? null : selection,
              collapsed: collapsed === undefined ? null : collapsed === 1,
              children: id === container ? step.order.slice() : [] };
            if (before && (before.selection !== node.selection || before.collapsed !== node.collapsed))
              selections.push({ before, node });
            state.nodes.set(id, node);
            if (position === 0) { if (step.full) state.root = id; }
            else if (parent !== container) { const up = state.nodes.get(parent); if (up) up.children.push(id); }
          });
          if (step.full && step.nodes.length === 0) state.root = null;
          if (!step.full && step.selections === undefined) step.selections = selections;
          if (derive) {
            c.entered = c.enteredIDs.map(id => pathOf(state, id));
            c.container = c.containerID === undefined ? "" : pathOf(state, c.containerID);
          }
          return state;
        }
        const checkpoints = new Map();   // runtime -> Map(local index -> state)
        let cursor = null;               // { rt, local, state }: the last state computed
        function copy(state) { return state && { root: state.root, nodes: new Map(state.nodes) }; }
        function stateAt(rt, local) {
          const list = stepsOf.get(rt);
          if (local < 0) return null;
          if (!checkpoints.has(rt)) checkpoints.set(rt, new Map());
          const saved = checkpoints.get(rt);
          let from, state;
          if (cursor && cursor.rt === rt && cursor.local <= local && local - cursor.local <= 64) {
            from = cursor.local + 1; state = cursor.state;
          } else {
            let base = local - (local % 64);
            while (base > 0 && !saved.has(base)) base -= 64;
            if (saved.has(base)) { from = base + 1; state = copy(saved.get(base)); }
            else { from = 0; state = null; }
          }
          for (let i = from; i <= local; i++) {
            state = applyStep(state, steps[list[i]]);
            if (i % 64 === 0 && !saved.has(i)) saved.set(i, copy(state));
          }
          cursor = { rt, local, state };
          return state;
        }
        // The last step of runtime `rt` at or before global step k (-1: none yet).
        function localAt(rt, k) {
          const list = stepsOf.get(rt);
          let low = 0, high = list.length - 1, found = -1;
          while (low <= high) {
            const mid = (low + high) >> 1;
            if (list[mid] <= k) { found = mid; low = mid + 1; } else high = mid - 1;
          }
          return found;
        }
        // The tree of `state` as lines: { text, id, focused, active, entered }, in the text and
        // order of FlowRuntime.treeDescription().
        function treeLines(state, step) {
          if (!state || state.root === null) return [];
          const focus = new Set(step.focus), active = new Set(step.active);
          const entered = new Set(step.change.enteredIDs || []);
          const lines = [];
          const pending = [[state.root, 0, false]];
          while (pending.length) {
            const [id, depth, inEntered] = pending.pop();
            const node = state.nodes.get(id);
            if (!node) continue;
            const isEntered = inEntered || entered.has(id);
            const mark = focus.has(id) ? "* " : active.has(id) ? "+ " : "  ";
            lines.push({ text: "  ".repeat(depth) + mark + (node.presented ? "^" : "") + node.name,
              id, focused: focus.has(id), active: active.has(id), entered: isEntered });
            for (let c = node.children.length - 1; c >= 0; c--)
              pending.push([node.children[c], depth + 1, isEntered]);
          }
          return lines;
        }
        function nameOf(state, id) {
          const node = state && state.nodes.get(id);
          return node ? node.name : "#" + id;
        }

        """#
}
