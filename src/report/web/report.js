// hooktrace's HTML report (docs/output.md, "HTML report"): renders the
// profile JSON embedded in the page as <script id="ht-profile">.  Every name
// goes into the page as text (textContent), never as HTML.  Elements carry
// ids and data-* attributes with the exact figures of the JSON, so that a
// test (test/mpi/report.py) can compare them.
(function () {
  "use strict";

  // The flame graph leaves out stacks under this fraction of the total
  // inclusive time, so that 100,000 stacks do not freeze the page.
  var FLAME_MIN_FRACTION = 0.001;
  // Rank bars when the summary has no rank_time_stacks: this many stacks.
  var IMBALANCE_TOP = 16;

  var lib = window.htReportLib; // lib.js: elements, figures, the profile's names
  var el = lib.el, nameCell = lib.nameCell, seconds = lib.seconds, count = lib.count,
    bytes = lib.bytes, hashParams = lib.hashParams, functionName = lib.functionName,
    stackPath = lib.stackPath, rootTime = lib.rootTime, counterEvents = lib.counterEvents,
    viewName = lib.viewName;

  // --- summary -----------------------------------------------------------------

  function renderSummary(doc) {
    var dl = document.getElementById("ht-summary");
    function item(key, label, value) {
      if (value === undefined || value === null || value === "") return;
      dl.appendChild(el("dt", null, label));
      dl.appendChild(el("dd", {"data-key": key}, value));
    }
    item("command", "command", doc.command);
    item("ranks", "ranks", doc.ranks);
    item("rank", "rank", doc.rank);
    item("wall_time_s", "wall time", seconds(doc.wall_time_s));
    item("threads", "threads", doc.threads);
    item("stacks", "stacks", doc.stacks.length);
    item("start_time", "started", doc.start_time);
    item("hooktrace_version", "hooktrace", doc.hooktrace_version);
    if (doc.command) document.title = "hooktrace: " + doc.command;
    var notes = document.getElementById("ht-notes");
    if (doc.partial) {
      var why = doc.partial.reason + (doc.partial.signal ? " " + doc.partial.signal : "") +
        (doc.partial.errorcode !== undefined ? " (error code " + doc.partial.errorcode + ")" : "");
      notes.appendChild(el("span", {id: "ht-partial", "class": "warning"},
                           "Partial profile: the run ended early (" + why + ")."));
    }
    if (doc.incomplete)
      notes.appendChild(el("span", {id: "ht-incomplete", "class": "warning"},
                           "Incomplete profile: " + doc.incomplete));
    if (doc.ranks_without_profile && doc.ranks_without_profile.length)
      notes.appendChild(el("span", {"class": "warning"},
                           "Ranks without a profile: " + doc.ranks_without_profile.join(", ")));
  }

  // --- flame graph -------------------------------------------------------------

  // The merged profile as d3-flame-graph's tree; value = inclusive time.
  // A stack's parent has a smaller ID, so one pass in ID order builds it.
  // Counted inlined copies have calls and no time of their own: no frame,
  // their calls in their caller's hover text (node.inlined: their stack
  // IDs; the result's inlined: how many are in some caller's).
  function flameTree(doc) {
    var total = rootTime(doc), cutoff = total * FLAME_MIN_FRACTION;
    var nodes = new Map(), roots = [], shown = 0, inlined = 0;
    doc.stacks.forEach(function (s, index) {
      var id = s.id !== undefined ? s.id : index;
      var parent = s.parent >= 0 ? nodes.get(s.parent) : null;
      if (s.inlined && !(s.time_incl_s > 0)) {
        if (parent) { // else under a stack left out: left out too
          parent.inlined.push(id);
          inlined++;
        }
        return;
      }
      if (s.time_incl_s < cutoff) return;
      if (s.parent >= 0 && !parent) return; // under a stack left out
      var node = {name: lib.shownName(doc, s), full: functionName(doc, s), value: s.time_incl_s, id: id,
                  children: [], inlined: []};
      nodes.set(id, node);
      shown++;
      (parent ? parent.children : roots).push(node);
    });
    return {tree: {name: "all", value: total, id: -1, children: roots}, shown: shown, inlined: inlined};
  }

  // A frame's hover text: the stack's own figures, and its counters per
  // event, so that counters are read per call stack and not only per function.
  function frameLabel(doc, node) {
    var text = (node.full || node.name) + ": " + seconds(node.value) + " inclusive";
    var s = node.id >= 0 ? doc.byId(node.id) : null;
    if (!s) return text;
    text += ", " + seconds(s.time_excl_s) + " exclusive, " + count(s.calls) + " calls";
    counterEvents(doc).forEach(function (e) {
      var c = s.counters && s.counters[e];
      if (c) text += "\n" + e + ": " + count(c.incl) + " inclusive, " + count(c.excl) + " exclusive";
    });
    (node.inlined || []).forEach(function (id) {
      var c = doc.byId(id);
      if (c) text += "\n" + functionName(doc, c) + " inlined: " + count(c.calls) + " calls, counted, not timed";
    });
    return text;
  }

  // The chart draws its frames' widths and labels in a d3 transition, that
  // is after the load event, even with no duration: set them at once, so
  // that the graph is there at first paint (a screenshot, a slow machine).
  function settleFlame(box) {
    Array.prototype.forEach.call(box.querySelectorAll("svg g"), function (g) {
      var rect = g.querySelector("rect"), label = g.querySelector("foreignObject div");
      if (rect && g.getAttribute("width") !== null) rect.setAttribute("width", g.getAttribute("width"));
      if (label && !label.textContent) label.textContent = g.getAttribute("name");
    });
  }

  var flameChart = null;

  // Zooms the flame graph to a stack (the call tree's choice), or to the
  // nearest caller drawn when the stack is under the graph's cut.
  function zoomFlameTo(id) {
    var box = document.getElementById("ht-flame"), root = flameChart ? d3.select(box).datum() : null;
    if (!root || !root.descendants) return;
    var byStack = new Map();
    root.descendants().forEach(function (d) { byStack.set(d.data.id, d); });
    var view = flameView;
    for (var s = view.byId(id); s && !byStack.has(s.id); s = s.parent >= 0 ? view.byId(s.parent) : null);
    var target = s ? byStack.get(s.id) : root;
    flameChart.zoomTo(target);
    settleFlame(box);
    box.setAttribute("data-zoom", target.data.id);
  }

  var flameView = null;

  // Draws the flame graph of a view: the merged profile or one rank's.
  function drawFlame(view) {
    var box = document.getElementById("ht-flame");
    box.textContent = "";
    box.setAttribute("data-zoom", -1);
    flameView = view;
    var built = flameTree(view);
    var left = view.stacks.length - built.shown - built.inlined;
    var note = document.getElementById("ht-flame-note");
    note.setAttribute("data-shown", built.shown);
    note.setAttribute("data-left-out", left);
    note.setAttribute("data-inlined", built.inlined);
    note.setAttribute("data-view", viewName(view));
    note.textContent = (left > 0 ? built.shown + " of " + view.stacks.length + " stacks shown: those under " +
      (FLAME_MIN_FRACTION * 100) + "% of the total inclusive time are left out (the table below has all). " : "") +
      (built.inlined > 0 ? built.inlined + " stacks of inlined copies, counted and not timed, are in their" +
       " callers' hover text." : "");
    var width = Math.max(400, box.clientWidth || 960);
    flameChart = flamegraph() // the d3-flame-graph bundle's global
      .width(width)
      .cellHeight(18)
      .transitionDuration(0)
      .minFrameSize(1)
      .sort(true)
      .title("")
      .label(function (d) { return frameLabel(view, d.data); })
      .onClick(function (d) { box.setAttribute("data-zoom", d.data.id); })
      .setSearchMatch(function (d, term) { // the full name, template arguments and all
        return term !== "" && (d.data.full || d.data.name).indexOf(term) >= 0;
      })
      .setSearchHandler(function (results) {
        // the share of the whole run's time, zoomed or not: the matches'
        // own inclusive times (outermost ones only), not the widths drawn,
        // which a zoom sets to 0 outside the frame zoomed to
        var matched = new Set(results), sum = 0, total = built.tree.value;
        results.forEach(function (d) {
          for (var p = d.parent; p; p = p.parent) if (matched.has(p)) return;
          sum += d.data.value;
        });
        var out = document.getElementById("ht-search-result");
        out.setAttribute("data-matches", results.length);
        out.setAttribute("data-share", total > 0 ? sum / total : 0);
        out.textContent = results.length ? results.length + " frames match, " +
          (total > 0 ? (100 * sum / total).toFixed(1) : "0") + "% of the time" : "";
      });
    d3.select(box).datum(built.tree).call(flameChart);
    settleFlame(box);
    var search = document.getElementById("ht-search");
    if (search.value) flameChart.search(search.value);
  }

  function renderFlame(doc) {
    var box = document.getElementById("ht-flame");
    if (!doc.stacks.length) {
      document.getElementById("ht-flame-section").hidden = true;
      return;
    }
    var search = document.getElementById("ht-search");
    var wanted = hashParams().search;
    if (wanted) search.value = wanted;
    drawFlame(doc);
    search.addEventListener("input", function () {
      if (search.value) flameChart.search(search.value);
      else flameChart.clear();
      if (!search.value) document.getElementById("ht-search-result").textContent = "";
    });
    document.getElementById("ht-reset").addEventListener("click", function () {
      flameChart.resetZoom();
      settleFlame(box);
      box.setAttribute("data-zoom", -1);
    });
    box.addEventListener("click", function () { settleFlame(box); }); // after the chart's zoom
  }

  // --- function table ----------------------------------------------------------

  // Per function: calls, exclusive time and counters summed over its
  // stacks; inclusive figures summed over its outermost stacks only, so
  // that recursion does not count the same time twice.
  //
  // Stack IDs are assigned depth first, so the path from the root to the
  // stack being read is a stack of IDs: pop to the parent, push the stack.
  // onPath counts each function on that path, which says in O(1) whether a
  // stack is nested in one of its own function (O(stacks) in all, however
  // deep the recursion).
  function functionRows(doc) {
    var events = counterEvents(doc);
    var rows = new Map(), path = [], names = [], onPath = new Map();
    doc.stacks.forEach(function (s, index) {
      var id = s.id !== undefined ? s.id : index;
      var name = functionName(doc, s);
      while (path.length && path[path.length - 1] !== s.parent) {
        path.pop();
        var left = names.pop();
        onPath.set(left, onPath.get(left) - 1);
      }
      var nested = (onPath.get(name) || 0) > 0;
      path.push(id);
      names.push(name);
      onPath.set(name, (onPath.get(name) || 0) + 1);
      var r = rows.get(name);
      if (!r) {
        r = {name: name, stacks: 0, calls: 0, incl: 0, excl: 0, inlinedCalls: 0, counters: {}};
        events.forEach(function (e) { r.counters[e] = {incl: 0, excl: 0}; });
        rows.set(name, r);
      }
      r.stacks++;
      r.calls += s.calls;
      r.excl += s.time_excl_s;
      if (!nested) r.incl += s.time_incl_s;
      if (s.throttled) r.throttled = true;
      if (s.inlined) r.inlinedCalls += s.calls;
      if (s.counters) {
        events.forEach(function (e) {
          var c = s.counters[e];
          if (!c) return;
          r.counters[e].excl += c.excl;
          if (!nested) r.counters[e].incl += c.incl;
        });
      }
    });
    return Array.from(rows.values());
  }

  // throttled; inlined (every call a counted inlined copy's) or partly.
  function rowClass(r) {
    return [r.throttled ? "throttled" : "", !r.inlinedCalls ? "" :
            r.inlinedCalls === r.calls ? "inlined" : "partly-inlined"].join(" ").trim();
  }

  function renderFunctions(doc) {
    var events = counterEvents(doc);
    var table = document.getElementById("ht-functions");
    if (!doc.stacks.length) {
      document.getElementById("ht-functions-section").hidden = true;
      return;
    }
    table.tHead.textContent = "";
    table.setAttribute("data-view", viewName(doc));
    var columns = [
      {key: "name", label: "function", get: function (r) { return r.name; }, text: true},
      {key: "stacks", label: "stacks", get: function (r) { return r.stacks; }, show: count},
      {key: "calls", label: "calls", get: function (r) { return r.calls; }, show: count},
      {key: "incl", label: "inclusive", get: function (r) { return r.incl; }, show: seconds},
      {key: "excl", label: "exclusive", get: function (r) { return r.excl; }, show: seconds}
    ];
    events.forEach(function (e) {
      columns.push({key: "incl:" + e, label: e + " incl", event: e, kind: "incl",
                    get: function (r) { return r.counters[e].incl; }, show: count});
      columns.push({key: "excl:" + e, label: e + " excl", event: e, kind: "excl",
                    get: function (r) { return r.counters[e].excl; }, show: count});
    });
    var rows = functionRows(doc);
    document.getElementById("ht-functions-inlined").hidden = !rows.some(function (r) { return r.inlinedCalls; });
    var head = el("tr");
    columns.forEach(function (c) {
      var th = el("th", {"data-sort": c.key, title: "sort by " + c.label}, c.label);
      th.addEventListener("click", function () {
        sortBy(c.key, table.getAttribute("data-sorted") === c.key &&
                      table.getAttribute("data-order") === "descending" ? "ascending" : "descending");
      });
      head.appendChild(th);
    });
    table.tHead.appendChild(head);

    function sortBy(key, order) {
      var col = columns.find(function (c) { return c.key === key; }) || columns[3];
      var sign = order === "ascending" ? 1 : -1;
      rows.sort(function (a, b) {
        var x = col.get(a), y = col.get(b);
        var d = col.text ? (x < y ? -1 : x > y ? 1 : 0) : x - y;
        return d !== 0 ? sign * d : (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
      });
      table.setAttribute("data-sorted", col.key);
      table.setAttribute("data-order", order);
      Array.prototype.forEach.call(head.children, function (th) {
        th.className = th.getAttribute("data-sort") === col.key ? "sorted " + order : "";
      });
      var body = document.createElement("tbody");
      rows.forEach(function (r) {
        var tr = el("tr", {"data-function": r.name, "data-calls": r.calls, "data-stacks": r.stacks,
                           "data-incl": r.incl, "data-excl": r.excl,
                           "data-inlined-calls": r.inlinedCalls || null, "class": rowClass(r) || null});
        columns.forEach(function (c) {
          var v = c.get(r);
          // a counter's cell carries its exact figure, as the other columns' rows do
          tr.appendChild(c.text ? nameCell(v, null, lib.shownOf(doc, v)) :
                         el("td", {"class": "num", "data-event": c.event || null,
                                   "data-kind": c.kind || null, "data-value": c.event ? v : null},
                            c.show(v)));
        });
        body.appendChild(tr);
      });
      table.replaceChild(body, table.tBodies[0]);
    }

    // a rank chosen later keeps the order the table has
    var params = hashParams();
    var key = table.getAttribute("data-sorted") || params.sort || "incl";
    var order = table.getAttribute("data-order") ||
      (params.order === "ascending" ? "ascending" : key === "name" && !params.order ?
       "ascending" : "descending");
    sortBy(key, order);
  }

  // --- communication matrices --------------------------------------------------

  function renderMatrix(doc, field, id, title) {
    var cells = doc[field];
    if (!Array.isArray(cells)) return false;
    var box = document.getElementById("ht-matrices");
    box.appendChild(el("h3", null, title));
    var n = doc.ranks || 0;
    cells.forEach(function (c) { n = Math.max(n, c.sender + 1, c.receiver + 1); });
    if (!cells.length) {
      box.appendChild(el("p", {id: id, "data-cells": 0}, "No messages."));
      return true;
    }
    var max = 0;
    cells.forEach(function (c) { max = Math.max(max, c.bytes); });
    var byCell = new Map();
    cells.forEach(function (c) { byCell.set(c.sender * n + c.receiver, c); });
    var table = el("table", {id: id, "class": "matrix", "data-cells": cells.length});
    var head = el("tr");
    head.appendChild(el("th", {"class": "corner"}, "from \\ to"));
    for (var r = 0; r < n; r++) head.appendChild(el("th", null, r));
    table.appendChild(el("thead")).appendChild(head);
    var body = table.appendChild(el("tbody"));
    for (var s = 0; s < n; s++) {
      var tr = el("tr");
      tr.appendChild(el("th", null, s));
      for (var d = 0; d < n; d++) {
        var c = byCell.get(s * n + d);
        if (!c) {
          tr.appendChild(el("td", {"class": "empty"}));
          continue;
        }
        // Heat on a log scale of bytes, so that small peers still show.
        var heat = max > 0 ? Math.log(1 + c.bytes) / Math.log(1 + max) : 0;
        var td = el("td", {"class": "cell", "data-sender": s, "data-receiver": d,
                           "data-messages": c.messages, "data-bytes": c.bytes,
                           title: "rank " + s + " to rank " + d + ": " + count(c.messages) +
                             " messages, " + count(c.bytes) + " bytes"}, count(c.messages));
        td.style.backgroundColor = "hsl(" + Math.round(220 - 220 * heat) + ", 80%, " +
          Math.round(92 - 40 * heat) + "%)";
        tr.appendChild(td);
      }
      body.appendChild(tr);
    }
    box.appendChild(el("div", {"class": "scroll"})).appendChild(table);
    box.appendChild(el("p", {"class": "help"},
                       "Cell: messages from the row's rank to the column's; colour: bytes (log scale, max " +
                       bytes(max) + "). Hover for exact figures."));
    return true;
  }

  function renderMatrices(doc) {
    var any = renderMatrix(doc, "comm_matrix", "ht-comm-matrix", "Point-to-point and one-sided");
    any = renderMatrix(doc, "coll_matrix", "ht-coll-matrix", "Collectives") || any;
    if (!any) document.getElementById("ht-matrix-section").hidden = true;
  }

  // --- time per rank -----------------------------------------------------------

  function bar(attrs, fraction, label) {
    var wrap = el("div", attrs);
    wrap.className = "bar";
    var fill = el("span", {"class": "fill"});
    fill.style.width = (100 * Math.max(0, Math.min(1, fraction))).toFixed(2) + "%";
    wrap.appendChild(fill);
    wrap.appendChild(el("span", {"class": "label"}, label));
    return wrap;
  }

  function renderRankTimes(doc) {
    var box = document.getElementById("ht-rank-times");
    if (Array.isArray(doc.rank_time_stacks) && doc.rank_time_stacks.length) {
      box.setAttribute("data-kind", "rank_time_incl_s");
      box.appendChild(el("p", {"class": "help"},
                         "Inclusive time of each rank (summed over its threads) on the stacks whose slowest rank took longest."));
      var labels = lib.stackLabels(doc, doc.rank_time_stacks);
      doc.rank_time_stacks.forEach(function (id) {
        var s = doc.stacks[id], times = s.rank_time_incl_s || [];
        var max = Math.max.apply(null, times.concat([0]));
        var group = el("div", {"class": "rank-stack", "data-stack": id, "data-function": functionName(doc, s)});
        group.appendChild(el("h4", {title: stackPath(doc, id)}, labels.get(id)));
        times.forEach(function (t, rank) {
          group.appendChild(bar({"data-rank": rank, "data-seconds": t}, max > 0 ? t / max : 0,
                                "rank " + rank + ": " + seconds(t)));
        });
        box.appendChild(group);
      });
      return;
    }
    var withImbalance = doc.stacks.map(function (s, id) { return id; })
      .filter(function (id) { return doc.stacks[id].imbalance; });
    if (!withImbalance.length) {
      document.getElementById("ht-rank-section").hidden = true;
      return;
    }
    box.setAttribute("data-kind", "imbalance");
    box.appendChild(el("p", {"class": "help"},
                       "Inclusive time over ranks (min, average, max) of the stacks whose slowest rank took longest."));
    withImbalance.sort(function (a, b) {
      return doc.stacks[b].imbalance.max_s - doc.stacks[a].imbalance.max_s || a - b;
    });
    var top = withImbalance.slice(0, IMBALANCE_TOP), topLabels = lib.stackLabels(doc, top);
    top.forEach(function (id) {
      var s = doc.stacks[id], im = s.imbalance;
      var group = el("div", {"class": "rank-stack", "data-stack": id, "data-function": functionName(doc, s)});
      group.appendChild(el("h4", {title: stackPath(doc, id)}, topLabels.get(id)));
      var max = im.max_s;
      group.appendChild(bar({"data-stat": "min", "data-seconds": im.min_s}, max > 0 ? im.min_s / max : 0,
                            "min " + seconds(im.min_s) + " (rank " + im.min_rank + ")"));
      group.appendChild(bar({"data-stat": "avg", "data-seconds": im.avg_s}, max > 0 ? im.avg_s / max : 0,
                            "avg " + seconds(im.avg_s)));
      group.appendChild(bar({"data-stat": "max", "data-seconds": im.max_s}, 1,
                            "max " + seconds(im.max_s) + " (rank " + im.max_rank + ")"));
      box.appendChild(group);
    });
  }

  // --- throttled functions -----------------------------------------------------

  function renderThrottled(doc) {
    var box = document.getElementById("ht-throttled");
    var ids = [];
    doc.stacks.forEach(function (s, id) { if (s.throttled) ids.push(id); });
    if (!ids.length) {
      document.getElementById("ht-throttled-section").hidden = true;
      return;
    }
    var t = doc.throttle || {};
    // The threshold and what it came from (docs/throttle.md, "The rule");
    // profiles written before the rule by cost have max_ns_per_call only.
    var rule = "";
    if (typeof t.max_ns_per_call === "number") {
      rule = ", under " + (t.max_ns_per_call / 1000).toFixed(3) + " \u00b5s a call";
      if (t.threshold_source === "cost" && typeof t.hook_pair_ns === "number")
        rule += ": the hook pair's " + t.hook_pair_ns.toFixed(1) + " ns over a " +
                Number((100 * t.budget).toPrecision(2)) + "% budget";
      else if (t.threshold_source === "config")
        rule += " (max_ns_per_call)";
    }
    box.appendChild(el("p", {"class": "help"},
                       "Called very often for very little time: recorded until throttled (min_calls " +
                       t.min_calls + rule + ", code patching " + t.code_patching +
                       "), later time in the caller's exclusive time."));
    var table = el("table", {id: "ht-throttled-stacks"});
    var head = el("tr");
    ["stack", "function", "calls recorded", "inclusive", "path"].forEach(function (h) {
      head.appendChild(el("th", null, h));
    });
    table.appendChild(el("thead")).appendChild(head);
    var body = table.appendChild(el("tbody"));
    ids.forEach(function (id) {
      var s = doc.stacks[id];
      var tr = el("tr", {"data-stack": id, "data-function": functionName(doc, s), "data-calls": s.calls});
      tr.appendChild(el("td", {"class": "num"}, id));
      tr.appendChild(nameCell(functionName(doc, s), null, lib.shownName(doc, s)));
      tr.appendChild(el("td", {"class": "num"}, count(s.calls)));
      tr.appendChild(el("td", {"class": "num"}, seconds(s.time_incl_s)));
      tr.appendChild(nameCell(stackPath(doc, id)));
      body.appendChild(tr);
    });
    box.appendChild(table);
    // GCC's own list matches parts of names: only the exact file is shown.
    if (t.exclude_file)
      box.appendChild(el("p", {"class": "help"},
                          (t.plugin_used ? "" : "with hooktrace's GCC plugin: ") +
                          "-fplugin-arg-hooktrace_gcc-exclude-file=" + t.exclude_file));
  }

  // --- counters ----------------------------------------------------------------

  function renderCounters(doc) {
    var c = doc.counters;
    if (!c) {
      document.getElementById("ht-counters-section").hidden = true;
      return;
    }
    var box = document.getElementById("ht-counters");
    if (c.papi_version) box.appendChild(el("p", {id: "ht-papi-version"}, "PAPI " + c.papi_version));
    var list = el("ul", {id: "ht-counter-events"});
    (c.events || []).forEach(function (e) { list.appendChild(el("li", {"data-event": e}, e)); });
    box.appendChild(el("h3", null, "Events counted (per function in the table above)"));
    box.appendChild(list);
    if (c.unavailable && c.unavailable.length) {
      box.appendChild(el("h3", null, "Unavailable"));
      var ul = el("ul", {id: "ht-counter-unavailable"});
      c.unavailable.forEach(function (u) {
        ul.appendChild(el("li", {"data-event": u.event}, u.event + ": " + u.reason));
      });
      box.appendChild(ul);
    }
  }

  // --- the rank, thread and phase selectors (views.js) ------------------------

  function renderViews(doc) {
    window.htReportViews.render(doc, function (view) {
      renderFunctions(view);
      drawFlame(view);
      window.htReportTree.render(view);
    });
  }

  // The menu: a link per section shown, none to a section left empty.
  function renderNav() {
    var nav = document.getElementById("ht-nav");
    Array.prototype.forEach.call(document.querySelectorAll("body > section"), function (section) {
      if (!section.hidden)
        nav.appendChild(el("a", {href: "#" + section.id}, section.getAttribute("data-menu")));
    });
  }

  // --- main --------------------------------------------------------------------

  var doc = JSON.parse(document.getElementById("ht-profile").textContent);
  if (!Array.isArray(doc.stacks)) throw new Error("the embedded profile has no stacks");
  doc.byId = function (id) { return doc.stacks[id]; };
  // Each part on its own: one that fails (reported in #ht-errors) leaves
  // the others.
  function renderTree(doc) { window.htReportTree.render(doc, zoomFlameTo); }
  [renderSummary, renderFunctions, renderMatrices, renderRankTimes, renderThrottled,
   renderCounters, renderFlame, renderTree, renderViews, renderNav].forEach(function (part) {
    try {
      part(doc);
    } catch (e) {
      console.error(part.name + ": " + (e && e.stack ? e.stack : e));
    }
  });
  document.body.setAttribute("data-ht-ready", "1");
})();
