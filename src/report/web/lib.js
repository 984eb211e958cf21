// The helpers of hooktrace's HTML report (report.js, which renders the
// page): building elements, writing figures, reading the profile's names.
// Apart so that report.js keeps to one concern a section and under the
// size every file keeps to (DESIGN.md); embedded before it in the page
// (src/report/local.mk).  Every name goes into the page as text
// (textContent), never as HTML.
window.htReportLib = (function () {
  "use strict";

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

  // A name in a table cell: cut to the column by CSS (text-overflow), the
  // whole name on hover (title) and in the text the tests read.
  function nameCell(name, attrs) {
    var td = el("td", attrs);
    td.className = "name";
    td.title = name;
    td.appendChild(el("span", null, name));
    return td;
  }

  function seconds(s) {
    if (typeof s !== "number") return "";
    if (s === 0) return "0 s";
    if (s >= 1) return s.toFixed(3) + " s";
    if (s >= 1e-3) return (s * 1e3).toFixed(3) + " ms";
    return (s * 1e6).toFixed(3) + " us";
  }

  function count(n) {
    return typeof n === "number" ? n.toLocaleString("en-US") : "";
  }

  function bytes(n) {
    if (n >= 1 << 30) return (n / (1 << 30)).toFixed(2) + " GiB";
    if (n >= 1 << 20) return (n / (1 << 20)).toFixed(2) + " MiB";
    if (n >= 1 << 10) return (n / (1 << 10)).toFixed(2) + " KiB";
    return n + " B";
  }

  function hashParams() {
    var out = {};
    location.hash.replace(/^#/, "").split("&").forEach(function (kv) {
      var i = kv.indexOf("=");
      if (i > 0) out[decodeURIComponent(kv.slice(0, i))] = decodeURIComponent(kv.slice(i + 1));
    });
    return out;
  }

  // Writes view state into the address (#key=value&...): the keys given
  // are set, or removed when null or "", the others kept; replaceState, so
  // that the back button does not step through every click.
  function setHashParams(changes) {
    var params = hashParams();
    Object.keys(changes).forEach(function (k) {
      if (changes[k] === null || changes[k] === undefined || changes[k] === "") delete params[k];
      else params[k] = String(changes[k]);
    });
    var text = Object.keys(params).map(function (k) {
      return encodeURIComponent(k) + "=" + encodeURIComponent(params[k]).replace(/%2C/g, ",");
    }).join("&");
    history.replaceState(null, "", text ? "#" + text : location.pathname + location.search);
  }

  // --- the profile -----------------------------------------------------------

  function functionName(doc, s) {
    if (typeof s.function_index === "number" && doc.functions && doc.functions[s.function_index])
      return doc.functions[s.function_index].name;
    return s.function !== undefined ? s.function : "?"; // format 1
  }

  function stackPath(doc, id) {
    var names = [];
    for (var s = doc.stacks[id]; s; s = s.parent >= 0 ? doc.stacks[s.parent] : null)
      names.push(functionName(doc, s));
    return names.reverse().join(" > ");
  }

  function rootTime(doc) {
    var total = 0;
    doc.stacks.forEach(function (s) {
      if (s.parent < 0) total += s.time_incl_s;
    });
    return total;
  }

  function counterEvents(doc) {
    return doc.counters && doc.counters.events ? doc.counters.events : [];
  }

  // The rank a view shows ("all": the summary; "phase:NAME": one named
  // phase of it), for data-view attributes.
  function viewName(view) {
    if (view.rank_view !== undefined) return String(view.rank_view);
    return view.phase_view !== undefined ? "phase:" + view.phase_view : "all";
  }

  return {el: el, nameCell: nameCell, seconds: seconds, count: count, bytes: bytes,
          hashParams: hashParams, setHashParams: setHashParams, functionName: functionName, stackPath: stackPath,
          rootTime: rootTime, counterEvents: counterEvents, viewName: viewName};
})();
