// Praxis console: live updates over server-sent events. No inline script anywhere (the
// Content-Security-Policy forbids it); text is set with textContent, never as HTML.
"use strict";

(function () {
  function cell(row, text, className) {
    const td = document.createElement("td");
    if (className) td.className = className;
    td.textContent = text == null ? "" : String(text);
    row.appendChild(td);
    return td;
  }

  function setStatus(text) {
    const status = document.getElementById("live-status");
    if (status) status.textContent = text;
  }

  // --- times: in the browser's zone with its name; UTC on hover, or by the switch ---------
  const TIME_KEY = "praxis-console-times";

  function utcMode() {
    try { return window.localStorage.getItem(TIME_KEY) === "utc"; } catch (e) { return false; }
  }

  function pad(n, width) { return String(n).padStart(width || 2, "0"); }

  function zoneName(date) {
    const part = new Intl.DateTimeFormat(undefined, { timeZoneName: "short" })
      .formatToParts(date).find(function (p) { return p.type === "timeZoneName"; });
    return part ? part.value : "";
  }

  function localText(date) {
    return date.getFullYear() + "-" + pad(date.getMonth() + 1) + "-" + pad(date.getDate()) + " " +
      pad(date.getHours()) + ":" + pad(date.getMinutes()) + ":" + pad(date.getSeconds()) + "." +
      pad(date.getMilliseconds(), 3) + " " + zoneName(date);
  }

  // A <time> the server wrote in UTC, shown in the browser's zone (or in UTC): the other
  // form is its tooltip.
  function renderTime(el) {
    if (!el.dataset.utc) el.dataset.utc = el.textContent;
    const date = new Date(el.getAttribute("datetime"));
    if (isNaN(date.getTime())) return;
    const local = localText(date);
    el.textContent = utcMode() ? el.dataset.utc : local;
    el.title = utcMode() ? local : el.dataset.utc;
  }

  function renderTimes(root) {
    root.querySelectorAll("time[datetime]").forEach(renderTime);
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "your time zone";
    const name = document.getElementById("time-zone");
    if (name) name.textContent = utcMode() ? "UTC" : zone;
    const flip = document.getElementById("time-switch");
    if (flip) {  // no switch for a browser whose zone is UTC itself
      flip.textContent = utcMode() ? "Show times in " + zone : "Show times in UTC";
      flip.hidden = zone === "UTC" || zone === "Etc/UTC";
    }
  }

  // Sets a cell to a time the live views send as text (``YYYY-MM-DD HH:MM:SS.mmm UTC``).
  function setTime(el, utcText) {
    if (!el) return;
    const text = utcText == null ? "" : String(utcText);
    const shown = el.querySelector("time");
    if (shown && shown.dataset.utc === text) return;
    el.textContent = "";
    if (!text) return;
    const time = document.createElement("time");
    time.setAttribute("datetime", text.replace(/ UTC$/, "").replace(" ", "T") + "Z");
    time.dataset.utc = text;
    time.textContent = text;
    el.appendChild(time);
    renderTime(time);
  }

  function timeCell(row, utcText) {
    const td = cell(row, "");
    setTime(td, utcText);
    return td;
  }

  function timeSwitch() {
    const flip = document.getElementById("time-switch");
    if (!flip) return;
    flip.addEventListener("click", function () {
      try { window.localStorage.setItem(TIME_KEY, utcMode() ? "local" : "utc"); } catch (e) { return; }
      renderTimes(document);
    });
  }

  // --- one confirmation step for every destructive form (data-confirm) --------------------
  function confirmations() {
    const dialog = document.getElementById("confirm-dialog");
    if (!dialog || typeof dialog.showModal !== "function") return;
    let pending = null;
    document.addEventListener("submit", function (event) {
      const form = event.target;
      if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-confirm")) return;
      if (form.dataset.confirmed === "yes") { delete form.dataset.confirmed; return; }
      event.preventDefault();
      pending = { form: form, submitter: event.submitter || null };
      document.getElementById("confirm-text").textContent = form.getAttribute("data-confirm");
      document.getElementById("confirm-ok").textContent =
        form.getAttribute("data-confirm-button") || "Confirm";
      dialog.returnValue = "";
      dialog.showModal();
      document.getElementById("confirm-cancel").focus();
    }, true);
    document.getElementById("confirm-cancel").addEventListener("click", function () { dialog.close("cancel"); });
    document.getElementById("confirm-ok").addEventListener("click", function () { dialog.close("ok"); });
    dialog.addEventListener("close", function () {
      const chosen = pending;
      pending = null;
      if (!chosen) return;
      if (dialog.returnValue === "ok") {
        chosen.form.dataset.confirmed = "yes";
        chosen.form.requestSubmit(chosen.submitter);
      } else if (chosen.submitter) {
        chosen.submitter.focus();  // dismissed (Cancel or Escape): nothing was sent
      }
    });
  }

  function setBadge(el, state) {
    if (!el) return;
    el.textContent = state;
    el.className = el.className.replace(/\bstate-\S+/g, "").trim() + " state-" + state.toLowerCase();
  }

  // --- the run page ----------------------------------------------------------------
  function updateNode(node) {
    document.querySelectorAll('tr[data-uid="' + CSS.escape(node.uid) + '"]').forEach(function (row) {
      setBadge(row.querySelector('[data-field="state"]'), node.state);
      const attempts = row.querySelector('[data-field="attempts"]');
      if (attempts) attempts.textContent = String(node.attempts);
      const error = row.querySelector('[data-field="error"]');
      if (error) error.textContent = node.error;
      const report = row.querySelector('[data-field="report"]');
      if (report && node.report != null) report.textContent = node.report;
      ["started", "finished"].forEach(function (name) {
        const field = row.querySelector('[data-field="' + name + '"]');
        const value = node[name + "_at"];
        if (field && value != null) setTime(field, value);
      });
      const duration = row.querySelector('[data-field="duration"]');
      if (duration && node.duration != null) duration.textContent = node.duration;
      const progress = row.querySelector('[data-field="progress"]');
      if (progress && node.fanout_items) {
        progress.max = node.fanout_items; progress.value = node.fanout_items_done; progress.hidden = false;
      }
      const text = row.querySelector('[data-field="progress-text"]');
      if (text && node.fanout_items) {
        text.textContent = node.progress; text.hidden = false;
      }
    });
    if (node.uid.indexOf("#") !== -1) return;
    document.querySelectorAll('g[data-node-id="' + CSS.escape(node.node_id) + '"]').forEach(function (g) {
      const cls = (g.getAttribute("class") || "").replace(/\bstate-\S+/g, "").trim();
      g.setAttribute("class", cls + " state-" + node.state.toLowerCase());
      const st = g.querySelector(".node-state");
      if (st) st.textContent = node.state;
      const pr = g.querySelector(".node-progress");
      if (pr && node.fanout_items) pr.textContent = node.progress + " items";
      const title = g.querySelector("title");
      if (title) title.textContent = node.node_id + ": " + node.state;
    });
  }

  function itemRow(n) {
    const row = document.createElement("tr");
    row.setAttribute("data-uid", n.uid);
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = n.uid;
    row.appendChild(th);
    const badge = document.createElement("span");
    badge.className = "badge state-" + n.state.toLowerCase();
    badge.setAttribute("data-field", "state");
    badge.textContent = n.state;
    cell(row, "").appendChild(badge);
    cell(row, n.attempts).setAttribute("data-field", "attempts");
    timeCell(row, n.started_at).setAttribute("data-field", "started");
    timeCell(row, n.finished_at).setAttribute("data-field", "finished");
    cell(row, n.report).setAttribute("data-field", "report");
    cell(row, n.error).setAttribute("data-field", "error");
    return row;
  }

  // A fan-out expanded after the page was drawn: list its first items (the page of a later
  // items_token keeps its own rows).
  function addItems(listed) {
    const table = document.querySelector("#items[data-live-items]");
    const body = document.getElementById("item-rows");
    if (!table || !body) return;
    listed.items.forEach(function (n) {
      if (!body.querySelector('tr[data-uid="' + CSS.escape(n.uid) + '"]')) body.appendChild(itemRow(n));
    });
    document.getElementById("items-section").hidden = body.rows.length === 0;
    const more = document.getElementById("items-more");
    if (more && listed.more) {
      more.querySelector("a").href = listed.more;
      more.hidden = false;
    }
  }

  function upsertAttempt(a) {
    const body = document.getElementById("attempt-rows");
    if (!body || !a) return;
    let row = body.querySelector('tr[data-attempt="' + CSS.escape(a.attempt_id) + '"]');
    const fresh = document.createElement("tr");
    fresh.setAttribute("data-attempt", a.attempt_id);
    cell(fresh, a.node_uid);
    cell(fresh, a.number);
    const code = document.createElement("code");
    code.textContent = a.attempt_id;
    cell(fresh, "").appendChild(code);
    cell(fresh, a.worker_id);
    timeCell(fresh, a.dispatched_at);
    timeCell(fresh, a.ended_at);
    cell(fresh, a.outcome, "outcome");
    cell(fresh, a.effect, "effect");
    cell(fresh, a.error);
    if (row) body.replaceChild(fresh, row); else body.appendChild(fresh);
  }

  function runPage(root) {
    let lastSeq = 0;
    document.querySelectorAll("#event-rows tr td:first-child").forEach(function (td) {
      lastSeq = Math.max(lastSeq, parseInt(td.textContent, 10) || 0);
    });
    const source = new EventSource(root.getAttribute("data-live"));
    source.onopen = function () { setStatus("Live"); };
    source.onerror = function () { setStatus("Reconnecting…"); };
    source.addEventListener("run", function (message) {
      const run = JSON.parse(message.data);
      setBadge(document.getElementById("run-state"), run.state);
      setTime(document.getElementById("run-updated"), run.updated_at);
      setTime(document.getElementById("run-finished"), run.finished_at);
      const count = document.getElementById("run-node-count");
      if (count) count.textContent = String(run.node_count);
      const duration = document.getElementById("run-duration");
      if (duration) duration.textContent = run.duration;
      const outcome = document.getElementById("run-outcome");
      if (outcome) outcome.textContent = run.result_error ? (run.result_reason + " " + run.result_error) : run.result_json;
      const settling = document.getElementById("run-settling");
      if (settling) { settling.textContent = run.settling || ""; settling.hidden = !run.settling; }
      const stopForm = document.getElementById("stop-run");
      if (stopForm && run.settling) stopForm.hidden = true;
      run.nodes.forEach(updateNode);
    });
    source.addEventListener("items", function (message) {
      addItems(JSON.parse(message.data));
    });
    source.addEventListener("log", function (message) {
      const e = JSON.parse(message.data);
      if (e.attempt) upsertAttempt(e.attempt);
      if (e.seq <= lastSeq) return;
      lastSeq = e.seq;
      const body = document.getElementById("event-rows");
      if (!body) return;
      const row = document.createElement("tr");
      cell(row, e.seq); timeCell(row, e.at); cell(row, e.kind); cell(row, e.node_uid);
      const code = document.createElement("code");
      code.textContent = e.payload.length > 200 ? e.payload.slice(0, 197) + "..." : e.payload;
      cell(row, "").appendChild(code);
      body.appendChild(row);
    });
    source.addEventListener("end", function (message) {
      source.close();
      setStatus("Ended: " + JSON.parse(message.data).state);
      root.setAttribute("data-ended", "true");
      const stop = document.getElementById("stop-run");
      if (stop) stop.hidden = true;
    });
    source.addEventListener("problem", function (message) {
      source.close();
      setStatus("Live view stopped: " + (JSON.parse(message.data).reason || "refused"));
    });
  }

  // --- the inbox -------------------------------------------------------------------
  function setText(el, text) {
    const value = text == null ? "" : String(text);
    if (el.textContent !== value) el.textContent = value;
  }

  function inboxRow(id) {
    const row = document.createElement("tr");
    row.setAttribute("data-item", id);
    cell(row, "");
    const tag = document.createElement("span");
    cell(row, "").appendChild(tag);
    const link = document.createElement("a");
    cell(row, "").appendChild(link);
    cell(row, "");
    cell(row, "");
    return row;
  }

  // Writes only what changed: a row stays the same element while its item is listed, so
  // a click on it is never lost to a redraw.
  function fillInboxRow(row, i) {
    setTime(row.cells[0], i.since);
    const tag = row.cells[1].querySelector("span");
    const tagClass = "tag kind-" + i.kind.toLowerCase();
    if (tag.className !== tagClass) tag.className = tagClass;
    setText(tag, i.label);
    const link = row.cells[2].querySelector("a");
    if (link.getAttribute("href") !== i.href) link.setAttribute("href", i.href);
    setText(link, i.summary || i.id);
    setText(row.cells[3], i.work_order_id);
    setText(row.cells[4], i.run_id);
  }

  function updateInboxRows(body, items) {
    const listed = new Map();
    Array.prototype.forEach.call(body.rows, function (row) {
      listed.set(row.getAttribute("data-item"), row);
    });
    items.forEach(function (i, index) {
      let row = listed.get(i.id);
      if (row) listed.delete(i.id);
      else row = inboxRow(i.id);
      fillInboxRow(row, i);
      const here = body.rows[index];
      if (here !== row) body.insertBefore(row, here || null);
    });
    listed.forEach(function (row) { row.remove(); });
  }

  function inboxPage(root) {
    // A later page ("Newer items") keeps its rows; its live view updates the counts.
    const firstPage = !root.hasAttribute("data-later");
    const source = new EventSource(root.getAttribute("data-live"));
    source.onopen = function () { setStatus("Live"); };
    source.onerror = function () { setStatus("Reconnecting…"); };
    source.addEventListener("inbox", function (message) {
      const inbox = JSON.parse(message.data);
      if (firstPage) {
        updateInboxRows(document.getElementById("inbox-items"), inbox.items);
        document.getElementById("inbox-empty").hidden = inbox.items.length > 0;
      }
      inbox.counts.forEach(function (c) {
        const el = document.querySelector('.count[data-kind="' + c.kind + '"]');
        if (el) el.textContent = String(c.count);
      });
      const all = document.querySelector('.count[data-kind=""]');
      if (all && all.textContent !== "") {
        all.textContent = String(inbox.counts.reduce(function (n, c) { return n + c.count; }, 0));
      }
      root.setAttribute("data-version", String((parseInt(root.getAttribute("data-version") || "0", 10) + 1)));
    });
    source.addEventListener("problem", function (message) {
      source.close();
      setStatus("Live view stopped: " + (JSON.parse(message.data).reason || "refused"));
    });
  }

  // --- answer forms: a JSON field is checked before the form is sent -----------------
  function jsonProblem(text) {
    try {
      JSON.parse(text, function (key, value) {
        if (typeof value === "number" && !Number.isSafeInteger(value)) {
          throw new Error("numbers are whole, within ±9007199254740991 (use a decimal string for fractions)");
        }
        return value;
      });
      return "";
    } catch (error) {
      return error instanceof SyntaxError ? "not JSON: " + error.message : error.message;
    }
  }

  function checkJsonFields(form, event) {
    let first = null;
    form.querySelectorAll('textarea[data-kind="json"]').forEach(function (field) {
      const problem = field.value.trim() === "" && !field.required ? "" : jsonProblem(field.value);
      const shown = field.parentElement.querySelector(".json-problem");
      field.setCustomValidity(problem);
      field.setAttribute("aria-invalid", problem ? "true" : "false");
      if (shown) { shown.textContent = problem; shown.hidden = !problem; }
      if (problem && !first) first = field;
    });
    if (first) { event.preventDefault(); first.focus(); }
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("form[data-answer-form]").forEach(function (form) {
      form.addEventListener("submit", function (event) { checkJsonFields(form, event); });
      form.querySelectorAll('textarea[data-kind="json"]').forEach(function (field) {
        field.addEventListener("input", function () { field.setCustomValidity(""); });
      });
    });
  });

  document.addEventListener("DOMContentLoaded", function () {
    renderTimes(document);
    timeSwitch();
    confirmations();
    if (!window.EventSource) return;
    const run = document.querySelector("#run[data-live]");
    if (run) runPage(run);
    const inbox = document.querySelector("#inbox[data-live]");
    if (inbox) inboxPage(inbox);
  });
})();
