extension FlowInspectorPage {
    /// The page's script, second half: drawing the step chosen, the lists, the timeline, the
    /// chart, and the `#verify` output.
    static let scriptViews = #"""
        const $ = id => document.getElementById(id);
        function el(tag, className, text) {
          const e = document.createElement(tag);
          if (className) e.className = className;
          if (text !== undefined) e.textContent = text;
          return e;
        }
        let current = 0;
        const openedWith = location.hash;  // #step=K, #verify, #timing (show() rewrites the hash)
        let eventFilter = { node: "", event: "" };
        let filteredEvents = events;
        $("title").textContent = data.title + " · FlowKit inspector";
        $("summary").textContent = steps.length + " steps · " + events.length + " events · " +
          bars.length + " transitions and gestures · runtimes: " + (runtimes.join(", ") || "none") +
          " · format " + data.version + (data.payloads ? " · with payloads" : "");
        if (data.problems.length) {
          $("problems").hidden = false;
          for (const p of data.problems) $("problems").appendChild(el("li", "", "line " + p.line + ": " + p.message));
        }
        $("scrubber").max = Math.max(0, steps.length - 1);

        function show(k) {
          if (!steps.length) { $("position").textContent = "no steps recorded"; return; }
          current = Math.max(0, Math.min(steps.length - 1, k));
          $("scrubber").value = current;
          const step = steps[current];
          stateAt(step.rt, step.local);  // replays the step (and reads its paths, formats 2 and 3)
          $("position").textContent = "step " + (current + 1) + " of " + steps.length + " · " +
            step.rt + " · t=" + step.t + " s · " + step.change.kind + " " + (step.change.container || "");
          drawTrees();
          drawDiff(step);
          drawEvents();
          if (!$("tab-timeline").hidden) drawTimeline();
          drawChart();
          $("snapshot-text").hidden = true;
          $("copy-snapshot").disabled = !step.snapshot;
          $("copy-snapshot").title = step.snapshot ? "the JSON start(restoring:) accepts" :
            "recorded without snapshots (FlowRecorder.Options(snapshots: true))";
          if (openedWith !== "#verify" && openedWith !== "#timing")
            try { history.replaceState(null, "", "#step=" + (current + 1)); } catch (_) {}
        }
        function drawTrees() {
          const box = $("trees");
          box.textContent = "";
          for (const rt of runtimes) {
            const local = localAt(rt, current);
            const tree = el("div", "tree");
            if (runtimes.length > 1) tree.appendChild(el("div", "rt", "runtime " + rt));
            if (local < 0) { tree.appendChild(el("div", "rt", "(not started yet)")); box.appendChild(tree); continue; }
            const step = steps[stepsOf.get(rt)[local]];
            const state = stateAt(rt, local);
            if (!state) tree.appendChild(el("div", "rt", "(the whole tree was not recorded before this step)"));
            for (const line of treeLines(state, step)) {
              const row = el("div", "line", line.text);
              if (line.focused) row.classList.add("focused");
              else if (line.active) row.classList.add("active");
              if (line.entered && stepsOf.get(rt)[local] === current) row.classList.add("entered");
              row.title = "#" + line.id;
              tree.appendChild(row);
            }
            if (stepsOf.get(rt)[local] === current)
              (step.change.exited || []).forEach((path, i) =>
                tree.appendChild(el("div", "line exited", "exited " + path + " #" + step.change.exitedIDs[i])));
            box.appendChild(tree);
          }
        }
        function drawDiff(step) {
          const box = $("diff");
          box.textContent = "";
          const list = el("dl");
          const add = (term, text) => { list.appendChild(el("dt", "", term)); list.appendChild(el("dd", "", text)); };
          const c = step.change;
          add("change", c.kind + (c.container ? " in " + c.container : ""));
          add("entered", (c.entered || []).map((p, i) => p + " #" + c.enteredIDs[i]).join(", ") || "none");
          add("exited", (c.exited || []).map((p, i) => p + " #" + c.exitedIDs[i]).join(", ") || "none");
          const state = stateAt(step.rt, step.local);
          const focusNames = ids => ids.map(id => nameOf(state, id)).join(" / ");
          const before = step.local > 0 ? steps[stepsOf.get(step.rt)[step.local - 1]] : null;
          const after = focusNames(step.focus);
          add("focus", before && before.focus.join() !== step.focus.join()
            ? focusNames(before.focus.filter(id => state && state.nodes.has(id))) + "  →  " + after : after || "none");
          for (const s of step.selections || []) {
            if (s.before.selection !== s.node.selection)
              add("selection", s.node.name + ": " + s.before.selection + " → " + s.node.selection);
            if (s.before.collapsed !== s.node.collapsed)
              add("split", s.node.name + (s.node.collapsed ? ": collapsed" : ": expanded"));
          }
          const here = (following[current] || []).slice(0, 50);
          if (here.length) add("then", here.map(describe).join("\n"));
          box.appendChild(list);
        }
        function describe(r) {
          switch (r.k) {
          case "event": return r.event + " from " + r.from + ": " + r.result + (r.handler ? " at " + r.handler : "");
          case "transition": return "transition " + r.phase + ": " + r.step + (r.error ? " (" + r.error + ")" : "");
          case "gesture": return "gesture " + r.kind + " " + r.phase + " at " + r.at + (r.progress !== undefined ? " " + Math.round(r.progress * 100) + "%" : "");
          case "intent": return "intent " + r.action + ": " + r.change + " (" + r.note + ")";
          case "decision": return r.decision + ": " + r.change + " at " + r.at + ": " + r.reason;
          case "result": return "result " + r.outcome + ": " + r.flow + " to " + r.awaitedAt + (r.reason ? " (" + r.reason + ")" : "");
          case "failure": return "failed " + r.operation + " at " + r.at + ": " + r.error;
          case "notRestored": return "not restored " + r.node + ": " + r.reason;
          case "coalesced": return "coalesced " + r.change + " in " + r.container + " (shown with the next step)";
          default: return r.k + (r.rt ? " " + r.rt : "");
          }
        }
        function filterEvents() {
          const node = eventFilter.node.toLowerCase(), name = eventFilter.event.toLowerCase();
          filteredEvents = events.filter(e => (!name || e.event.toLowerCase().includes(name)) &&
            (!node || e.from.toLowerCase().includes(node) || (e.handler || "").toLowerCase().includes(node) ||
              e.path.some(p => p.toLowerCase().includes(node))));
          drawEvents();
        }
        function drawEvents() {
          const body = $("events");
          body.textContent = "";
          let low = 0, high = filteredEvents.length;
          while (low < high) { const mid = (low + high) >> 1; if (filteredEvents[mid].after <= current) low = mid + 1; else high = mid; }
          const from = Math.max(0, low - 100), to = Math.min(filteredEvents.length, low + 100);
          $("event-count").textContent = filteredEvents.length + " of " + events.length + " events" +
            (to - from < filteredEvents.length ? " (showing " + (from + 1) + "–" + to + ", around this step)" : "");
          for (let i = from; i < to; i++) {
            const e = filteredEvents[i];
            const row = el("tr", e.after === current ? "current" : e.after > current ? "later" : "");
            [String(e.after + 1), e.event + (e.payload ? " " + e.payload : ""), e.from, e.path.join(" → "),
              e.handler || "", e.result + (e.error ? ": " + e.error : "")].forEach((text, column) => {
              const cell = el("td", column === 5 ? "result-" + e.result : "", text);
              row.appendChild(cell);
            });
            row.onclick = () => show(e.after);
            body.appendChild(row);
          }
        }
        function drawTimeline() {
          const box = $("timeline");
          box.textContent = "";
          const here = steps.length ? steps[current].index : 0;
          let low = 0, high = bars.length;
          while (low < high) { const mid = (low + high) >> 1; if (bars[mid].record.index < here) low = mid + 1; else high = mid; }
          const shown = bars.slice(Math.max(0, low - 40), Math.min(bars.length, low + 40));
          if (!shown.length) { box.appendChild(el("p", "axis", "No transitions or gestures recorded.")); return; }
          const last = records.length ? records[records.length - 1].t : 0;
          const t0 = Math.min(...shown.map(b => b.start));
          const t1 = Math.max(...shown.map(b => b.end === null ? last : b.end), t0 + 0.001);
          const x = t => (100 * (t - t0) / (t1 - t0)).toFixed(3) + "%";
          box.appendChild(el("div", "axis", "t = " + t0 + " s … " + t1 + " s (bars from perform to completion)"));
          for (const bar of shown) {
            const row = el("div", "row");
            const end = bar.end === null ? last : bar.end;
            const b = el("div", "bar " + (bar.kind === "gesture" ? "gesture " : "") + bar.outcome,
              bar.label + " · " + bar.outcome);
            if (bar.record.after === current || bar.record.after === current - 1) b.classList.add("current");
            b.style.left = x(bar.start);
            b.style.width = "calc(" + x(end) + " - " + x(bar.start) + ")";
            b.title = bar.label + "\n" + bar.start + " s → " + (bar.end === null ? "not finished" : bar.end + " s") +
              " · " + bar.outcome + (bar.error ? "\n" + bar.error : "");
            row.appendChild(b);
            for (const p of bar.progress) {
              const m = el("div", "mark"); m.style.left = x(p.t); m.title = Math.round(p.value * 100) + "%"; row.appendChild(m);
            }
            row.onclick = () => show(Math.max(0, bar.record.after));
            box.appendChild(row);
          }
          let first = 0, past = coalesced.length;
          while (first < past) { const mid = (first + past) >> 1; if (coalesced[mid].t < t0) first = mid + 1; else past = mid; }
          for (let i = first; i < coalesced.length && coalesced[i].t <= t1 && i < first + 40; i++) {
            const c = coalesced[i];
            const row = el("div", "row");
            const m = el("div", "coalesced", "coalesced " + c.change + " in " + c.container);
            m.style.left = x(c.t); row.appendChild(m); box.appendChild(row);
          }
        }
        function drawIntents() {
          const box = $("intents");
          const chains = [];
          let asked = null;
          for (const r of intents) {
            if (r.k === "decision") { if (r.decision === "redirected") asked = r; continue; }
            let chain = r.action === "kept" ? null : [...chains].reverse().find(c => c.change === r.change && c.open);
            if (!chain) { chain = { change: r.change, open: true, parts: [], first: r }; chains.push(chain);
              if (asked) { chain.parts.push("asked at " + asked.at + ": " + asked.reason); asked = null; } }
            chain.parts.push(r.action + " (" + r.note + ")");
            if (r.action !== "kept") chain.open = false;
          }
          if (!chains.length) box.appendChild(el("li", "", "No pending intents recorded."));
          for (const chain of chains) {
            const item = el("li", "", chain.change + ": " + chain.parts.join("  →  "));
            item.onclick = () => show(Math.max(0, chain.first.after));
            box.appendChild(item);
          }
        }
        function drawLog() {
          const box = $("log");
          for (const r of log.slice(0, 5000)) {
            const item = el("li", "", "step " + (r.after + 1) + ": " + describe(r));
            item.onclick = () => show(Math.max(0, r.after));
            box.appendChild(item);
          }
        }
        function drawChart() {
          if (!data.chart) return;
          const rt = runtimes[0];
          const local = rt === undefined ? -1 : localAt(rt, current);
          const state = local < 0 ? null : stateAt(rt, local);
          const step = local < 0 ? null : steps[stepsOf.get(rt)[local]];
          const active = new Set(), focused = new Set();
          if (state && step) {
            step.active.forEach(id => active.add(nameOf(state, id)));
            step.focus.forEach(id => focused.add(nameOf(state, id)));
          }
          for (const g of document.querySelectorAll("#chart .state")) {
            const name = g.getAttribute("data-state");
            g.classList.toggle("active", active.has(name));
            g.classList.toggle("focused", focused.has(name) && active.has(name));
          }
        }
        if (data.chart) { $("chart-panel").hidden = false; $("chart").innerHTML = data.chart.svg; }

        function verify() {
          // Every step's tree, the events and the bars as plain text, for the browser tests.
          const box = $("verify");
          box.hidden = false;
          steps.forEach((step, k) => {
            const state = stateAt(step.rt, step.local);
            const pre = el("pre", "verify-tree", treeLines(state, step).map(l => l.text).join("\n"));
            pre.setAttribute("data-step", String(k));
            box.appendChild(pre);
          });
          const list = el("ol"); list.id = "verify-events";
          for (const e of events) list.appendChild(el("li", "verify-event", [e.event, e.from, e.result, e.handler || "", e.path.join(">")].join("|")));
          box.appendChild(list);
          const barList = el("ol"); barList.id = "verify-bars";
          for (const bar of bars) barList.appendChild(el("li", "verify-bar", bar.label + "|" + bar.outcome));
          box.appendChild(barList);
          const done = el("p", "", "verified"); done.id = "verify-done";
          box.appendChild(done);
        }

        $("scrubber").addEventListener("input", e => show(Number(e.target.value)));
        $("first").onclick = () => show(0);
        $("prev").onclick = () => show(current - 1);
        $("next").onclick = () => show(current + 1);
        $("last").onclick = () => show(steps.length - 1);
        document.addEventListener("keydown", e => {
          if (e.target.tagName === "INPUT" && e.target.type !== "range" || e.target.tagName === "TEXTAREA") return;
          const moves = { ArrowRight: 1, ArrowDown: 1, j: 1, ArrowLeft: -1, ArrowUp: -1, k: -1, PageDown: 10, PageUp: -10 };
          if (e.key in moves) { show(current + moves[e.key]); e.preventDefault(); }
          else if (e.key === "Home") { show(0); e.preventDefault(); }
          else if (e.key === "End") { show(steps.length - 1); e.preventDefault(); }
        });
        for (const input of ["filter-node", "filter-event"])
          $(input).addEventListener("input", () => {
            eventFilter = { node: $("filter-node").value, event: $("filter-event").value };
            filterEvents();
          });
        for (const button of document.querySelectorAll("#tabs button"))
          button.onclick = () => {
            for (const other of document.querySelectorAll("#tabs button")) other.classList.toggle("selected", other === button);
            for (const tab of document.querySelectorAll(".tab")) tab.hidden = tab.id !== "tab-" + button.dataset.tab;
            if (button.dataset.tab === "timeline") drawTimeline();
          };
        $("copy-snapshot").onclick = () => {
          const step = steps[current];
          if (!step || !step.snapshot) return;
          const text = JSON.stringify(step.snapshot, null, 2);
          const area = $("snapshot-text");
          area.hidden = false; area.value = text; area.select();
          if (navigator.clipboard && window.isSecureContext)
            navigator.clipboard.writeText(text).catch(() => document.execCommand("copy"));
          else document.execCommand("copy");
        };
        drawIntents();
        drawLog();
        const wanted = /^#step=(\d+)$/.exec(openedWith);
        show(wanted ? Number(wanted[1]) - 1 : 0);
        if (openedWith === "#verify") verify();
        // How long the page took to open (from navigation to here), and to show a step, for
        // scripts/inspect-open-time.sh.
        document.body.dataset.openMs = performance.now().toFixed(1);
        if (openedWith === "#timing" && steps.length) {
          const began = performance.now();
          for (let i = 0; i < 100; i++) show((i * 7919) % steps.length);
          document.body.dataset.stepMs = ((performance.now() - began) / 100).toFixed(2);
        }

        """#
}
