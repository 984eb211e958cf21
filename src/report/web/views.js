// The view selectors of hooktrace's HTML report (docs/report.md): a rank
// of an MPI summary (rank_profiles), a thread index (stacks[].threads,
// kept in the page when the profile has several), a named phase.  Each
// makes a document of that view's stacks, which report.js hands to the
// call tree, the flame graph and the function table (show); each writes
// its choice into the address (#rank=, #thread=, #phase=).
window.htReportViews = (function () {
  "use strict";

  var lib = window.htReportLib;
  var el = lib.el, seconds = lib.seconds, hashParams = lib.hashParams, functionName = lib.functionName;

  // --- the rank selector ------------------------------------------------------


  // One rank's profile as a document the flame graph and the table read:
  // the summary's stacks that rank entered, with its own figures.
  function rankView(doc, rp) {
    var byId = new Map(), stacks = rp.stacks.map(function (row) {
      var s = doc.stacks[row[0]];
      var own = {id: row[0], parent: s.parent, function_index: s.function_index, "function": s["function"],
                 calls: row[1], time_incl_s: row[2], time_excl_s: row[3], inlined: s.inlined};
      byId.set(own.id, own);
      return own;
    });
    return {functions: doc.functions, stacks: stacks, rank_view: rp.rank,
            byId: function (id) { return byId.get(id); }};
  }

  function renderRankSelector(doc, show) {
    var profiles = Array.isArray(doc.rank_profiles) ? doc.rank_profiles : [];
    var box = document.getElementById("ht-view");
    if (!profiles.length || !doc.stacks.length) return;
    box.hidden = false;
    var select = document.getElementById("ht-rank");
    var slowest = profiles.reduce(function (a, b) { return b.time_incl_s > a.time_incl_s ? b : a; });
    function option(value, label) { select.appendChild(el("option", {value: value}, label)); }
    option("all", "all ranks, summed");
    option("slowest", "the slowest rank (rank " + slowest.rank + ")");
    profiles.forEach(function (rp) {
      option(String(rp.rank), "rank " + rp.rank + (rp.why !== "every rank" ? " (" + rp.why + ")" : "") +
             ": " + seconds(rp.time_incl_s));
    });
    if (profiles[0].why !== "every rank")
      box.appendChild(el("span", {"class": "help"}, " Of " + doc.ranks +
                         " ranks the profile holds the slowest, the median and the fastest."));
    function choose(value) {
      var rp = value === "slowest" ? slowest : profiles.find(function (p) { return String(p.rank) === value; });
      select.value = rp ? value : "all";
      var view = rp ? rankView(doc, rp) : doc;
      show(view);
    }
    select.addEventListener("change", function () {
      choose(select.value);
      lib.setHashParams({rank: select.value === "all" ? null : select.value});
    });
    if (hashParams().rank) choose(hashParams().rank);
  }

  // --- the thread selector ----------------------------------------------------

  // One thread index's figures (stacks[].threads, which the page keeps when
  // the profile has several threads) as a document: the stacks that thread
  // entered.  In an MPI summary a thread index sums that index over ranks.
  function threadView(doc, thread) {
    var byId = new Map(), stacks = [];
    doc.stacks.forEach(function (s) {
      var t = (s.threads || []).find(function (e) { return e.thread === thread; });
      if (!t) return;
      var own = Object.assign({}, s, {calls: t.calls, time_incl_s: t.time_incl_s, time_excl_s: t.time_excl_s});
      byId.set(own.id, own);
      stacks.push(own);
    });
    return {functions: doc.functions, stacks: stacks, thread_view: thread,
            byId: function (id) { return byId.get(id); }};
  }

  function renderThreadSelector(doc, show) {
    var incl = new Map();
    doc.stacks.forEach(function (s) {
      if (s.parent >= 0) return;
      (s.threads || []).forEach(function (t) { incl.set(t.thread, (incl.get(t.thread) || 0) + t.time_incl_s); });
    });
    if (incl.size < 2) return;
    document.getElementById("ht-thread-view").hidden = false;
    var select = document.getElementById("ht-thread"), rank = document.getElementById("ht-rank");
    select.appendChild(el("option", {value: "all"}, "all threads, summed"));
    Array.from(incl.keys()).sort(function (a, b) { return a - b; }).forEach(function (t) {
      select.appendChild(el("option", {value: String(t)}, "thread " + t + ": " + seconds(incl.get(t))));
    });
    function choose(value) {
      var thread = incl.has(Number(value)) && value !== "all" ? Number(value) : null;
      select.value = thread === null ? "all" : value;
      // per-rank profiles have no per-thread figures: a thread is of all ranks
      if (thread !== null && rank.value && rank.value !== "all") {
        rank.value = "all";
        lib.setHashParams({rank: null});
      }
      var view = thread === null ? doc : threadView(doc, thread);
      show(view);
    }
    select.addEventListener("change", function () {
      choose(select.value);
      lib.setHashParams({thread: select.value === "all" ? null : select.value});
    });
    rank.addEventListener("change", function () {
      if (select.value !== "all") {
        select.value = "all";
        lib.setHashParams({thread: null});
      }
    });
    if (hashParams().thread) choose(hashParams().thread);
  }

  // --- the phase selector -----------------------------------------------------

  // One named phase (hooktrace_phase) as a document: the stacks below its
  // root node "phase:NAME", that node left out (its children are roots).
  function phaseView(doc, phase, name) {
    var inside = new Set([phase.id]), byId = new Map(), stacks = [];
    doc.stacks.forEach(function (s) {
      if (s.parent < 0 || !inside.has(s.parent)) return;
      inside.add(s.id);
      var own = Object.assign({}, s, {parent: s.parent === phase.id ? -1 : s.parent});
      byId.set(own.id, own);
      stacks.push(own);
    });
    return {functions: doc.functions, stacks: stacks, phase_view: name,
            byId: function (id) { return byId.get(id); }};
  }

  function renderPhaseSelector(doc, show) {
    var phases = doc.stacks.filter(function (s) {
      return s.parent < 0 && functionName(doc, s).indexOf("phase:") === 0;
    });
    if (!phases.length) return;
    document.getElementById("ht-phase-view").hidden = false;
    var select = document.getElementById("ht-phase");
    select.appendChild(el("option", {value: ""}, "the whole run, phases as roots"));
    phases.forEach(function (s) {
      var name = functionName(doc, s).slice(6);
      select.appendChild(el("option", {value: name}, name + ": " + seconds(s.time_incl_s)));
    });
    function choose(value) {
      var phase = phases.find(function (s) { return functionName(doc, s).slice(6) === value; });
      select.value = phase ? value : "";
      var view = phase ? phaseView(doc, phase, value) : doc;
      show(view);
    }
    select.addEventListener("change", function () {
      choose(select.value);
      lib.setHashParams({phase: select.value || null});
    });
    if (hashParams().phase) choose(hashParams().phase);
  }

  // Each selector on its own: one that fails (reported in #ht-errors)
  // leaves the others.
  function render(doc, show) {
    [renderRankSelector, renderThreadSelector, renderPhaseSelector].forEach(function (part) {
      try {
        part(doc, show);
      } catch (e) {
        console.error(part.name + ": " + (e && e.stack ? e.stack : e));
      }
    });
  }

  return {render: render};
})();
