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

  // A name in a table cell: shown (shortened, shownOf) and cut to the
  // column by CSS (text-overflow), the whole name on hover (title).
  function nameCell(name, attrs, shown) {
    var td = el("td", attrs);
    td.className = "name";
    td.title = name;
    td.appendChild(el("span", null, shown || name));
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

  // --- C++ names: shortened as the logfile's columns do --------------------
  // (src/output/short_name.c): a demangled template function starts with
  // its return type, so a name cut from the right loses the function.
  // Shortened a step at a time until it fits: the return type and the
  // parameter list dropped, the template arguments written "<...>", the
  // leading qualifiers "...": the function's own name always stays.

  var NAME_SHOWN = 70;

  // The length of an operator's name after "operator" at i.
  function operatorLength(name, i) {
    var rest = name.slice(i + 8);
    if (/^(\(\)|\[\])/.test(rest)) return 2;
    if (rest[0] === " ") return rest.indexOf("(") < 0 ? rest.length : rest.indexOf("(");
    return /^[<>=!+\-*\/%^&|~,]*/.exec(rest)[0].length;
  }

  function operatorAt(name, i) {
    return name.substr(i, 8) === "operator" && (i === 0 || name[i - 1] === ":" || name[i - 1] === " ") &&
      !/[A-Za-z0-9_]/.test(name[i + 8] || "");
  }

  // [start, end) of the function's qualified name: no return type (the
  // last space outside brackets before it), no parameter list (the first
  // parenthesised group outside brackets no ")::" follows).
  function ownName(name) {
    var depth = 0, space = -1, params = name.length;
    for (var i = 0; i < name.length; i++) {
      var c = name[i];
      if (operatorAt(name, i)) {
        i += 8 + operatorLength(name, i) - 1;
        continue;
      }
      if (c === "(" && depth === 0 && name.indexOf(")::", i) < 0) {
        params = i;
        break;
      }
      if ("(<[{".indexOf(c) >= 0) depth++;
      else if (")>]}".indexOf(c) >= 0 && depth > 0) depth--;
      else if (c === " " && depth === 0) space = i + 1;
    }
    return [space >= 0 && space < params ? space : 0, params];
  }

  function elideTemplates(text) {
    var out = "", depth = 0;
    for (var i = 0; i < text.length; i++) {
      var c = text[i];
      if (depth === 0 && operatorAt(text, i)) {
        var k = 8 + operatorLength(text, i);
        out += text.substr(i, k);
        i += k - 1;
      } else if (c === "<") {
        if (depth++ === 0) out += "<...>";
      } else if (c === ">" && depth > 0) {
        depth--;
      } else if (depth === 0) {
        out += c;
      }
    }
    return out;
  }

  // One name shortened to max characters; step 1 (own name, templates
  // kept) or 2 (the name as it is) shorten less.
  function shortName(name, max, step) {
    max = max || NAME_SHOWN;
    if (name.length <= max || step === 2) return name;
    var range = ownName(name), own = name.slice(range[0], range[1]);
    if (own.length <= max || step === 1) return own;
    var work = elideTemplates(own);
    if (work.length <= max) return work;
    var keep = max - 3, tail = work.length - keep, at = work.indexOf("::", tail);
    return "..." + work.slice(at >= 0 ? at : tail);
  }

  // Every function of the profile, name -> the name shown: shortened, but
  // two names that would look the same are shortened a step less, until
  // they differ (two instantiations of a template stay two names).
  function shownNames(doc) {
    var names = (doc.functions || []).map(function (f) { return f.name; });
    var step = new Map(), shown = new Map();
    names.forEach(function (n) { step.set(n, 0); });
    for (var round = 0; round < 3; round++) {
      var seen = new Map();
      names.forEach(function (n) {
        var s = shortName(n, NAME_SHOWN, step.get(n));
        shown.set(n, s);
        (seen.get(s) || seen.set(s, []).get(s)).push(n);
      });
      var again = false;
      seen.forEach(function (list) {
        var distinct = new Set(list);
        if (distinct.size < 2) return;
        distinct.forEach(function (n) {
          if (step.get(n) < 2) {
            step.set(n, step.get(n) + 1);
            again = true;
          }
        });
      });
      if (!again) break;
    }
    return shown;
  }

  var shownCache = new WeakMap();

  // The name a function (its full name) is shown by (full in the title).
  function shownOf(doc, full) {
    var table = doc.functions && shownCache.get(doc.functions);
    if (doc.functions && !table) {
      table = shownNames(doc);
      shownCache.set(doc.functions, table);
    }
    return (table && table.get(full)) || shortName(full);
  }

  function shownName(doc, s) {
    return shownOf(doc, functionName(doc, s));
  }

  // Labels of a list of stacks: the function's name shown, and where two
  // stacks of the list would read the same, their callers after
  // " \u2190 " until they differ ("MPI_Allreduce \u2190 solve").
  function stackLabels(doc, ids) {
    var labels = new Map(), up = new Map();
    ids.forEach(function (id) {
      labels.set(id, shownName(doc, doc.byId(id)));
      up.set(id, doc.byId(id).parent);
    });
    for (var round = 0; round < 64; round++) {
      var byLabel = new Map();
      ids.forEach(function (id) {
        var l = labels.get(id);
        (byLabel.get(l) || byLabel.set(l, []).get(l)).push(id);
      });
      var again = false;
      byLabel.forEach(function (list) {
        if (list.length < 2) return;
        list.forEach(function (id) {
          var p = up.get(id), caller = p >= 0 ? doc.byId(p) : null;
          if (!caller) return;
          labels.set(id, labels.get(id) + " \u2190 " + shownName(doc, caller));
          up.set(id, caller.parent);
          again = true;
        });
      });
      if (!again) break;
    }
    return labels;
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

  // The view shown ("all": the whole profile; a rank; "thread:N": one
  // thread index; "phase:NAME": one named phase), for data-view attributes.
  function viewName(view) {
    if (view.rank_view !== undefined) return String(view.rank_view);
    if (view.thread_view !== undefined) return "thread:" + view.thread_view;
    return view.phase_view !== undefined ? "phase:" + view.phase_view : "all";
  }

  return {el: el, nameCell: nameCell, seconds: seconds, count: count, bytes: bytes,
          hashParams: hashParams, setHashParams: setHashParams, shortName: shortName,
          shownName: shownName, shownOf: shownOf, stackLabels: stackLabels, functionName: functionName, stackPath: stackPath,
          rootTime: rootTime, counterEvents: counterEvents, viewName: viewName};
})();
