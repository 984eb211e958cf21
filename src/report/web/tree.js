// The call tree of hooktrace's HTML report (docs/report.md, "Call tree"):
// a row per call stack, under its caller, with its calls, inclusive and
// exclusive time, share of the total and, in an MPI summary, its messages
// and bytes.  A row's children are in the page only while it is expanded,
// so that 100,000 stacks cost a walk of the profile, not 100,000 rows.
// The state (expanded stacks, sort, search, the stack chosen) is kept in
// the address: #tree=, #tsort=, #torder=, #find=, #node=.
window.htReportTree = (function () {
  "use strict";

  // Rows drawn at most; beyond, a line says how many are left out.
  var ROW_LIMIT = 3000;

  var lib = window.htReportLib;
  var el = lib.el, seconds = lib.seconds, count = lib.count, bytes = lib.bytes;

  var state = {expanded: null, sort: "incl", order: "descending", find: "", node: null};
  var tree = null;       // the view's nodes: {nodes: Map id -> node, roots, total, mpi}
  var zoomTo = null;     // report.js: zooms the flame graph to a stack ID

  var COLUMNS = [
    {key: "name", label: "call stack", get: function (n) { return n.name; }, text: true},
    {key: "calls", label: "calls", get: function (n) { return n.s.calls; }, show: count},
    {key: "incl", label: "inclusive", get: function (n) { return n.s.time_incl_s; }, show: seconds},
    {key: "excl", label: "exclusive", get: function (n) { return n.s.time_excl_s; }, show: seconds},
    {key: "share", label: "% of total", get: function (n) { return n.share; },
     show: function (v) { return (100 * v).toFixed(1) + "%"; }},
    {key: "messages", label: "messages sent / received", mpi: true, get: function (n) { return n.messages; },
     show: function (v, n) {
       return n.s.messages_sent === undefined ? "" : count(n.s.messages_sent) + " / " + count(n.s.messages_received);
     }},
    {key: "bytes", label: "bytes sent / received", mpi: true, get: function (n) { return n.bytes; },
     show: function (v, n) {
       return n.s.bytes_sent === undefined ? "" : bytes(n.s.bytes_sent) + " / " + bytes(n.s.bytes_received);
     }}
  ];

  // The view's stacks as a tree; a stack's parent has a smaller ID, so one
  // pass in ID order builds it.
  function build(view) {
    var nodes = new Map(), roots = [], total = lib.rootTime(view), mpi = false;
    view.stacks.forEach(function (s, index) {
      var id = s.id !== undefined ? s.id : index;
      var parent = s.parent >= 0 ? nodes.get(s.parent) : null;
      var n = {id: id, s: s, name: lib.functionName(view, s), kids: [], parent: parent,
               depth: parent ? parent.depth + 1 : 0,
               share: total > 0 ? s.time_incl_s / total : 0,
               messages: (s.messages_sent || 0) + (s.messages_received || 0),
               bytes: (s.bytes_sent || 0) + (s.bytes_received || 0)};
      if (s.messages_sent !== undefined) mpi = true;
      nodes.set(id, n);
      (parent ? parent.kids : roots).push(n);
    });
    return {nodes: nodes, roots: roots, total: total, mpi: mpi, view: view};
  }

  function columns() {
    return COLUMNS.filter(function (c) { return !c.mpi || tree.mpi; });
  }

  function sorted(list) {
    var col = COLUMNS.find(function (c) { return c.key === state.sort; }) || COLUMNS[2];
    var sign = state.order === "ascending" ? 1 : -1;
    return list.slice().sort(function (a, b) {
      var x = col.get(a), y = col.get(b);
      var d = col.text ? (x < y ? -1 : x > y ? 1 : 0) : x - y;
      return d !== 0 ? sign * d : a.id - b.id;
    });
  }

  // The search: the stacks whose function's name holds the text (any
  // case), and the ones on the way to them (shown, expanded).
  function searchSets() {
    if (!state.find) return null;
    var text = state.find.toLowerCase(), matches = new Set(), onPath = new Set();
    tree.nodes.forEach(function (n) {
      if (n.name.toLowerCase().indexOf(text) < 0) return;
      matches.add(n.id);
      for (var p = n; p && !onPath.has(p.id); p = p.parent) onPath.add(p.id);
    });
    return {matches: matches, onPath: onPath};
  }

  // The stacks on the way to a match are expanded, and stay so.
  function expandToMatches() {
    var found = searchSets();
    if (!found) return;
    found.onPath.forEach(function (id) {
      var n = tree.nodes.get(id);
      if (n.kids.some(function (k) { return found.onPath.has(k.id); })) state.expanded.add(id);
    });
  }

  function saveState() {
    var all = true, ids = [];
    tree.nodes.forEach(function (n) {
      if (!n.kids.length) return;
      if (state.expanded.has(n.id)) ids.push(n.id);
      else all = false;
    });
    lib.setHashParams({tree: all && ids.length ? "all" : ids.length ? ids.join(",") : "none",
                       tsort: state.sort === "incl" ? null : state.sort,
                       torder: state.order === "descending" ? null : state.order,
                       find: state.find, node: state.node});
  }

  function nameCell(n, open) {
    var td = el("td", {"class": "name tree-name"});
    td.style.paddingLeft = (0.2 + 1.1 * n.depth).toFixed(1) + "em";
    td.title = n.name;
    var toggle = el("button", {type: "button", "class": "toggle", "data-toggle": n.id,
                               "aria-label": open ? "collapse" : "expand"},
                    n.kids.length ? (open ? "\u25be" : "\u25b8") : "");
    if (!n.kids.length) toggle.disabled = true;
    td.appendChild(toggle);
    td.appendChild(el("span", {"class": "node", "data-node": n.id}, lib.shownName(tree.view, n.s)));
    return td;
  }

  function draw() {
    var table = document.getElementById("ht-tree");
    var cols = columns(), search = searchSets();
    var body = document.createElement("tbody"), rows = 0, left = 0;
    // depth first without recursion (a recursion 100,000 deep is a path
    // 100,000 stacks long): a stack of the nodes still to visit
    var todo = sorted(tree.roots).reverse();
    while (todo.length) {
      var n = todo.pop();
      if (search && !search.onPath.has(n.id) && !(n.parent && search.matches.has(n.parent.id))) continue;
      var open = n.kids.length > 0 && state.expanded.has(n.id);
      if (open) Array.prototype.push.apply(todo, sorted(n.kids).reverse());
      if (rows >= ROW_LIMIT) { // counted, not drawn
        left++;
        continue;
      }
      var match = search && search.matches.has(n.id);
      var tr = el("tr", {"data-stack": n.id, "data-parent": n.parent ? n.parent.id : -1,
                         "data-depth": n.depth, "data-function": n.name, "data-calls": n.s.calls,
                         "data-incl": n.s.time_incl_s, "data-excl": n.s.time_excl_s,
                         "data-share": n.share, "data-messages-sent": n.s.messages_sent,
                         "data-messages-received": n.s.messages_received,
                         "data-bytes-sent": n.s.bytes_sent, "data-bytes-received": n.s.bytes_received,
                         "data-children": n.kids.length,
                         "aria-expanded": n.kids.length ? String(open) : null,
                         "class": [match ? "match" : "", state.node === n.id ? "chosen" : ""].join(" ").trim() || null});
      cols.forEach(function (c) {
        tr.appendChild(c.text ? nameCell(n, open) : el("td", {"class": "num"}, c.show(c.get(n), n)));
      });
      body.appendChild(tr);
      rows++;
    }
    table.replaceChild(body, table.tBodies[0]);
    table.setAttribute("data-rows", rows);
    table.setAttribute("data-sorted", state.sort);
    table.setAttribute("data-order", state.order);
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th) {
      th.className = th.getAttribute("data-sort") === state.sort ? "sorted " + state.order : "";
    });
    var note = document.getElementById("ht-tree-note");
    note.setAttribute("data-left-out", left);
    note.textContent = left ? "The first " + count(ROW_LIMIT) + " rows are shown, " + count(left) +
      " more are left out: collapse some, or search." : "";
    var result = document.getElementById("ht-tree-result");
    if (search) {
      var sum = 0;
      search.matches.forEach(function (id) { // outermost matches only: no time counted twice
        var n = tree.nodes.get(id), p = n.parent;
        while (p && !search.matches.has(p.id)) p = p.parent;
        if (!p) sum += n.s.time_incl_s;
      });
      result.setAttribute("data-matches", search.matches.size);
      result.setAttribute("data-share", tree.total > 0 ? sum / tree.total : 0);
      result.textContent = search.matches.size + " stacks match, " +
        (tree.total > 0 ? (100 * sum / tree.total).toFixed(1) : "0") + "% of the time";
    } else {
      result.removeAttribute("data-matches");
      result.removeAttribute("data-share");
      result.textContent = "";
    }
  }

  function head() {
    var table = document.getElementById("ht-tree");
    table.tHead.textContent = "";
    var tr = el("tr");
    columns().forEach(function (c) {
      var th = el("th", {"data-sort": c.key, title: "sort each node's children by " + c.label}, c.label);
      th.addEventListener("click", function () {
        state.order = state.sort === c.key && state.order === "descending" ? "ascending" : "descending";
        state.sort = c.key;
        draw();
        saveState();
      });
      tr.appendChild(th);
    });
    table.tHead.appendChild(tr);
  }

  function setAll(open) {
    tree.nodes.forEach(function (n) {
      if (!n.kids.length) return;
      if (open) state.expanded.add(n.id);
      else state.expanded.delete(n.id);
    });
    draw();
    saveState();
  }

  // The state the address asks for, read once when the page loads.
  function readState() {
    var p = lib.hashParams();
    state.expanded = new Set();
    if (p.tree === "all") {
      tree.nodes.forEach(function (n) { if (n.kids.length) state.expanded.add(n.id); });
    } else if (p.tree !== undefined) {
      p.tree.split(",").forEach(function (id) { if (/^\d+$/.test(id)) state.expanded.add(Number(id)); });
    } else {
      tree.roots.forEach(function (n) { state.expanded.add(n.id); }); // the roots' callees shown
    }
    if (p.tsort && COLUMNS.some(function (c) { return c.key === p.tsort; })) state.sort = p.tsort;
    else if (p.tsort === undefined) state.sort = "incl";
    state.order = p.torder === "ascending" ? "ascending" : "descending";
    state.find = p.find || "";
    state.node = p.node !== undefined && /^\d+$/.test(p.node) ? Number(p.node) : null;
    expandToMatches();
  }

  // Called once with the whole profile, then again with each view the rank
  // and phase selectors choose (their stacks keep the profile's IDs, so
  // the expanded stacks stay expanded).
  function render(view, onZoom) {
    var section = document.getElementById("ht-tree-section");
    if (!view.stacks.length) {
      section.hidden = true;
      return;
    }
    var first = tree === null;
    tree = build(view);
    if (onZoom) zoomTo = onZoom;
    document.getElementById("ht-tree").setAttribute("data-view", lib.viewName(view));
    head();
    if (first) {
      readState();
      wire();
    }
    draw();
    if (first && state.node !== null && tree.nodes.has(state.node) && zoomTo) zoomTo(state.node);
  }

  function wire() {
    var table = document.getElementById("ht-tree");
    var search = document.getElementById("ht-tree-search");
    search.value = state.find;
    search.addEventListener("input", function () {
      state.find = search.value;
      expandToMatches();
      draw();
      saveState();
    });
    document.getElementById("ht-tree-expand").addEventListener("click", function () { setAll(true); });
    document.getElementById("ht-tree-collapse").addEventListener("click", function () { setAll(false); });
    table.addEventListener("click", function (event) {
      var target = event.target;
      var toggle = target.closest ? target.closest("button[data-toggle]") : null;
      if (toggle) {
        var id = Number(toggle.getAttribute("data-toggle"));
        if (state.expanded.has(id)) state.expanded.delete(id);
        else state.expanded.add(id);
        draw();
        saveState();
        return;
      }
      var node = target.closest ? target.closest("span[data-node]") : null;
      if (node) {
        state.node = Number(node.getAttribute("data-node"));
        draw();
        saveState();
        if (zoomTo) zoomTo(state.node);
      }
    });
  }

  return {render: render};
})();
