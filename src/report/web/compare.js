// hooktrace-report's --compare and --scaling page (docs/compare.md):
// renders the JSON embedded as <script id="ht-data">, the very document
// --json writes.  Names go into the page as text, never as HTML.  Rows
// carry data-* attributes with the JSON's exact figures (String(number)
// round-trips a double), which test/integration/compare.py reads.
(function () {
  "use strict";

  var COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
                "#7f7f7f", "#bcbd22", "#17becf"];

  // A metadata value longer than this (the config of every option) is
  // folded in a <details>, its key and length shown.
  var METADATA_SHOWN = 120;

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (k) {
        if (attrs[k] !== undefined && attrs[k] !== null) e.setAttribute(k, String(attrs[k]));
      });
    }
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  function svg(tag, attrs, text) {
    var e = document.createElementNS("http://www.w3.org/2000/svg", tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, String(attrs[k])); });
    if (text !== undefined) e.textContent = String(text);
    return e;
  }

  function seconds(s) {
    if (typeof s !== "number") return "-";
    if (s === 0) return "0 s";
    if (s >= 1) return s.toFixed(3) + " s";
    if (s >= 1e-3) return (s * 1e3).toFixed(3) + " ms";
    return (s * 1e6).toFixed(3) + " us";
  }

  function count(n) {
    return typeof n === "number" ? n.toLocaleString("en-US") : "-";
  }

  function ratio(r) {
    return typeof r === "number" ? "x" + r.toFixed(3) : "-";
  }

  function pathText(path) {
    return path.join(" > ");
  }

  function section(id, title, nav) {
    var s = el("section", {id: id});
    s.appendChild(el("h2", null, title));
    document.getElementById("ht-main").appendChild(s);
    var a = el("a", {href: "#" + id}, title);
    nav.appendChild(a);
    return s;
  }

  function runsTable(runs, labels) {
    var t = el("table", {id: "ht-run-info"});
    var head = el("tr");
    head.appendChild(el("th"));
    labels.forEach(function (l) { head.appendChild(el("th", null, l)); });
    t.appendChild(head);
    var fields = [["file", "file"], ["command", "command"], ["start_time", "start time"],
                  ["ranks", "ranks"], ["merged", "MPI summary (figures summed over ranks)"],
                  ["wall_time_s", "wall time"], ["time_incl_s", "inclusive time of the roots"],
                  ["stacks", "call paths"], ["hooktrace_version", "hooktrace"]];
    fields.forEach(function (f) {
      var tr = el("tr", {"data-field": f[0]});
      tr.appendChild(el("th", null, f[1]));
      runs.forEach(function (r) {
        var v = r[f[0]];
        var text = /_s$/.test(f[0]) ? seconds(v) : (v === null || v === undefined ? "-" : v);
        tr.appendChild(el("td", {"data-value": v === null || v === undefined ? null : String(v)},
                          text));
      });
      t.appendChild(tr);
    });
    // Several runs a side (--compare A1,A2,... B1,B2,...): each run's file.
    if (runs.some(function (r) { return r.runs && r.runs.length > 1; })) {
      var rr = el("tr", {"data-field": "runs"});
      rr.appendChild(el("th", null, "runs (figures: medians over them)"));
      runs.forEach(function (r) {
        var td = el("td", {"class": "name", "data-value": String(r.runs.length)});
        r.runs.forEach(function (run) {
          td.appendChild(el("div", null, run.file + " (" + seconds(run.time_incl_s) + ")"));
        });
        rr.appendChild(td);
      });
      t.appendChild(rr);
    }
    if (runs.some(function (r) { return r.metadata; })) {
      var tr = el("tr", {"data-field": "metadata"});
      tr.appendChild(el("th", null, "metadata"));
      runs.forEach(function (r) {
        var td = el("td", {"class": "name"});
        if (r.metadata && typeof r.metadata === "object") {
          // a long value (the whole config) folded, open on a click, and
          // wrapped anywhere: the page never scrolls sideways
          Object.keys(r.metadata).forEach(function (k) {
            var v = r.metadata[k];
            var text = typeof v === "string" ? v : JSON.stringify(v, null, 1).replace(/\n\s*/g, " ");
            if (text.length <= METADATA_SHOWN) {
              td.appendChild(el("div", {"data-key": k}, k + ": " + text));
              return;
            }
            var fold = el("details", {"data-key": k});
            fold.appendChild(el("summary", null, k + " (" + text.length + " characters)"));
            fold.appendChild(el("div", null, text));
            td.appendChild(fold);
          });
        }
        tr.appendChild(td);
      });
      t.appendChild(tr);
    }
    document.getElementById("ht-runs").appendChild(t);
  }

  // --- --compare ---------------------------------------------------------------

  function pairCells(tr, pair, fmt, name) {
    tr.appendChild(el("td", {"class": "num", "data-name": name + "-base"}, fmt(pair[0])));
    tr.appendChild(el("td", {"class": "num", "data-name": name + "-new"}, fmt(pair[1])));
  }

  // A side's median and, when the side has several runs, their range
  // (smallest..largest) below it.
  function timeCells(tr, s, field, name, runs) {
    ["base", "new"].forEach(function (side, k) {
      var td = el("td", {"class": "num", "data-name": name + "-" + side}, seconds(s[field][k]));
      var range = s[field.replace(/_s$/, "_range_s")][k];
      if (runs[k] > 1 && range) {
        td.appendChild(el("div", {"class": "range"}, seconds(range[0]) + " .. " + seconds(range[1])));
      }
      tr.appendChild(td);
    });
  }

  // Coloured as worse or better unless the runs' ranges overlap: a change
  // within the noise is not one.
  function ratioCell(tr, r, noise) {
    var rc = r === null || noise === "within" ? null : r > 1 ? "num worse" : r < 1 ? "num better" : "num";
    tr.appendChild(el("td", {"class": rc || "num"}, ratio(r)));
  }

  var NOISE_HELP = {
    slower: "every new run is slower than every base run",
    faster: "every new run is faster than every base run",
    within: "the new runs' range overlaps the base runs': within the noise"
  };

  function noiseCell(tr, n) {
    tr.appendChild(el("td", {"class": n === "slower" ? "worse" : n === "faster" ? "better" : null,
                             title: n ? NOISE_HELP[n] : "one run a side: no spread to judge by"},
                      n || "-"));
  }

  function strings(a) {
    return JSON.stringify(a.map(function (v) {
      return v === null ? null : Array.isArray(v) ? v.map(String) : String(v);
    }));
  }

  function stackTable(id, stacks, runs) {
    var t = el("table", {id: id});
    var head = el("tr");
    ["call path", "status", "incl. base", "incl. new", "ratio", "noise", "excl. base", "excl. new",
     "excl. ratio", "excl. noise", "calls base", "calls new", "messages base", "messages new",
     "bytes base", "bytes new"]
      .forEach(function (h) { head.appendChild(el("th", null, h)); });
    t.appendChild(head);
    stacks.forEach(function (s) {
      var attrs = {"data-path": JSON.stringify(s.path), "data-status": s.status,
                   "data-counted": s.counted ? "1" : "0", "data-slower": s.slower ? "1" : "0",
                   "class": s.slower ? "slower" : null,
                   "data-ratio": s.ratio === null ? "null" : String(s.ratio),
                   "data-ratio-excl": s.ratio_excl === null ? "null" : String(s.ratio_excl),
                   "data-noise": s.noise === null ? "null" : s.noise,
                   "data-noise-excl": s.noise_excl === null ? "null" : s.noise_excl,
                   "data-runs": JSON.stringify(s.runs)};
      ["time_incl_s", "time_excl_s", "time_incl_range_s", "time_excl_range_s", "calls", "messages",
       "bytes"].forEach(function (f) {
        attrs["data-" + f.replace(/_/g, "-")] = strings(s[f]);
      });
      var tr = el("tr", attrs);
      tr.appendChild(el("td", {"class": "name", title: pathText(s.path)}, pathText(s.path)));
      tr.appendChild(el("td", null, s.status));
      timeCells(tr, s, "time_incl_s", "incl", runs);
      ratioCell(tr, s.ratio, s.noise);
      noiseCell(tr, s.noise);
      timeCells(tr, s, "time_excl_s", "excl", runs);
      ratioCell(tr, s.ratio_excl, s.noise_excl);
      noiseCell(tr, s.noise_excl);
      pairCells(tr, s.calls, count, "calls");
      pairCells(tr, s.messages, count, "messages");
      pairCells(tr, s.bytes, count, "bytes");
      t.appendChild(tr);
    });
    return t;
  }

  function renderCompare(doc) {
    document.getElementById("ht-title").textContent = "hooktrace comparison";
    runsTable([doc.base, doc.new], ["base", "new"]);
    var g = doc.gate;
    var runs = [doc.base.runs.length, doc.new.runs.length];
    var several = runs[0] > 1 || runs[1] > 1;
    var gateText = (several ? runs[0] + " base runs against " + runs[1] + " new: each figure is " +
      "the median over a side's runs, with their range below it. " : "") +
      "Stacks counted by --fail-above: in both sides, base inclusive time >= " +
      seconds(g.threshold_s) + " (" + (g.min_share * 100) + "% of the base total, at least " +
      seconds(g.min_time_s) + ").";
    if (g.fail_above !== null) {
      gateText += " --fail-above " + g.fail_above + ": a counted stack fails when new/base of its" +
        " inclusive time is above that" + (several ? " and its noise is \"slower\" (every new " +
        "run slower than every base run)" : "") + ": " + g.slower.length +
        " stack(s) fail" + (g.slower.length ? " (highlighted)." : ".");
    }
    var gp = document.getElementById("ht-gate");
    gp.textContent = gateText;
    gp.setAttribute("data-slower", String(g.slower.length));
    if (doc.ranks_differ) {
      var warn = el("p", {id: "ht-ranks-warning", "class": "warning"},
                    "Warning: the profiles' rank counts differ (see \"ranks\" above): their " +
                    "figures are sums over ranks and change with their number." +
                    (g.force ? " --force: the gate judged them all the same." : ""));
      gp.parentNode.insertBefore(warn, gp.nextSibling);
    }
    var nav = document.getElementById("ht-nav");
    var parts = [["changed", "ht-changed", "In both runs",
                  "Sorted by the absolute change of inclusive time (the median, with several runs), largest first."],
                 ["new", "ht-new", "New stacks", "Only in the new run, most time first."],
                 ["vanished", "ht-vanished", "Vanished stacks", "Only in the base run, most time first."]];
    parts.forEach(function (p) {
      // The page holds the first page_rows stacks of each status; the
      // JSON (--json) has them all.
      var rows = doc.stacks.filter(function (s) { return s.status === p[0]; });
      var total = doc.counts[p[0]];
      var s = section(p[1] + "-section", p[2] + " (" + total + ")", nav);
      s.appendChild(el("p", {"class": "help", "data-total": total}, p[3] + (total > rows.length ?
        " The first " + rows.length + " are shown; the JSON (--json) has all " + total + "." : "")));
      if (rows.length) s.appendChild(stackTable(p[1], rows, runs));
      else s.appendChild(el("p", {"class": "note", id: p[1]}, "(none)"));
    });
  }

  // --- --scaling ---------------------------------------------------------------

  function chart(doc) {
    var W = 760, H = 380, L = 70, R = 20, T = 15, B = 40;
    var series = doc.stacks.map(function (s) { return s.time_s; });
    // each stack's ideal line: perfect strong scaling from its first
    // point, time x ranks constant (T1*P1/P), dashed in its colour
    var ideals = series.map(function (t) {
      var i0 = t.findIndex(function (v) { return v > 0; });
      return t.map(function (v, i) { return i0 >= 0 && i >= i0 ? t[i0] * doc.ranks[i0] / doc.ranks[i] : null; });
    });
    var ys = [];
    series.concat(ideals).forEach(function (t) { t.forEach(function (v) { if (v > 0) ys.push(v); }); });
    var box = svg("svg", {width: W, height: H, viewBox: "0 0 " + W + " " + H});
    if (!ys.length) return box;
    var lx0 = Math.log(doc.ranks[0]), lx1 = Math.log(doc.ranks[doc.ranks.length - 1]);
    var ly0 = Math.log(Math.min.apply(null, ys)), ly1 = Math.log(Math.max.apply(null, ys));
    if (ly1 - ly0 < 1e-9) { ly0 -= 1; ly1 += 1; }
    function x(p) { return L + (Math.log(p) - lx0) / (lx1 - lx0 || 1) * (W - L - R); }
    function y(v) { return H - B - (Math.log(v) - ly0) / (ly1 - ly0) * (H - T - B); }
    box.appendChild(svg("line", {x1: L, y1: H - B, x2: W - R, y2: H - B, "class": "axis"}));
    box.appendChild(svg("line", {x1: L, y1: T, x2: L, y2: H - B, "class": "axis"}));
    doc.ranks.forEach(function (p) {
      box.appendChild(svg("line", {x1: x(p), y1: T, x2: x(p), y2: H - B, "class": "grid"}));
      box.appendChild(svg("text", {x: x(p), y: H - B + 14, "text-anchor": "middle"}, p));
    });
    [ly0, (ly0 + ly1) / 2, ly1].forEach(function (l) {
      box.appendChild(svg("text", {x: L - 4, y: y(Math.exp(l)) + 4, "text-anchor": "end"},
                          seconds(Math.exp(l))));
    });
    box.appendChild(svg("text", {x: (L + W - R) / 2, y: H - 6, "text-anchor": "middle"}, "ranks"));
    series.forEach(function (t, k) {
      var pts = [];
      t.forEach(function (v, i) { if (v > 0) pts.push(x(doc.ranks[i]) + "," + y(v)); });
      var color = COLORS[k % COLORS.length];
      var ideal = [];
      ideals[k].forEach(function (v, i) { if (v > 0) ideal.push(x(doc.ranks[i]) + "," + y(v)); });
      box.appendChild(svg("polyline", {points: ideal.join(" "), fill: "none", stroke: color,
                                       "stroke-width": 1, "stroke-dasharray": "4 3", "class": "ideal",
                                       "data-stack": k, "data-times": JSON.stringify(ideals[k])}));
      box.appendChild(svg("polyline", {points: pts.join(" "), fill: "none", stroke: color,
                                       "stroke-width": 2, "data-stack": k}));
      t.forEach(function (v, i) {
        if (v > 0) box.appendChild(svg("circle", {cx: x(doc.ranks[i]), cy: y(v), r: 3, fill: color}));
      });
    });
    return box;
  }

  function renderScaling(doc) {
    document.getElementById("ht-title").textContent = "hooktrace scaling";
    runsTable(doc.profiles, doc.ranks.map(function (p) { return p + " ranks"; }));
    document.getElementById("ht-gate").textContent =
      "Time per rank = inclusive time summed over ranks / ranks; efficiency = T1*P1 / (Tp*Pp)" +
      " against the profile with the fewest ranks (1 = perfect strong scaling).";
    var nav = document.getElementById("ht-nav");
    var s = section("ht-chart-section", "Time per rank against ranks (log-log)", nav);
    s.appendChild(el("p", {"class": "help"}, "Dashed: each stack's ideal line, perfect strong" +
                      " scaling from its first point (time \u00d7 ranks constant)."));
    var div = el("div", {id: "ht-chart"});
    div.appendChild(chart(doc));
    var legend = el("ul", {id: "ht-legend"});
    doc.stacks.forEach(function (st, k) {
      var li = el("li");
      li.appendChild(el("span", {"class": "legend-swatch",
                                 style: "background:" + COLORS[k % COLORS.length]}));
      li.appendChild(document.createTextNode(pathText(st.path)));
      legend.appendChild(li);
    });
    div.appendChild(legend);
    s.appendChild(div);

    var ts = section("ht-scaling-section", "The " + doc.stacks.length + " stacks with the most time",
                     nav);
    var t = el("table", {id: "ht-scaling"});
    var h = el("tr");
    h.appendChild(el("th", null, "call path"));
    doc.ranks.forEach(function (p) { h.appendChild(el("th", null, p + " ranks")); });
    doc.ranks.forEach(function (p) { h.appendChild(el("th", null, "efficiency " + p)); });
    t.appendChild(h);
    [{path: ["(whole run: the roots)"], time_s: doc.run.time_s, efficiency: doc.run.efficiency,
      time_incl_s: doc.run.time_incl_s, run: true}].concat(doc.stacks).forEach(function (st) {
      var tr = el("tr", {"data-path": st.run ? "run" : JSON.stringify(st.path),
                         "data-time-s": JSON.stringify(st.time_s.map(function (v) {
                           return v === null ? null : String(v); })),
                         "data-efficiency": JSON.stringify(st.efficiency.map(function (v) {
                           return v === null ? null : String(v); }))});
      tr.appendChild(el("td", {"class": "name"}, pathText(st.path)));
      st.time_s.forEach(function (v) { tr.appendChild(el("td", {"class": "num"}, seconds(v))); });
      st.efficiency.forEach(function (v) {
        tr.appendChild(el("td", {"class": "num"}, typeof v === "number" ? v.toFixed(3) : "-"));
      });
      t.appendChild(tr);
    });
    ts.appendChild(t);
  }

  var doc = JSON.parse(document.getElementById("ht-data").textContent);
  if (doc.kind === "compare") renderCompare(doc);
  else if (doc.kind === "scaling") renderScaling(doc);
  else throw new Error("unknown kind of page: " + doc.kind);
  document.body.setAttribute("data-ht-ready", "1");
})();
