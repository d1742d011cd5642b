// The tablet offline (README: "Working offline"), on every page of a signed-in member of staff:
// - registers the service worker (/sw.js, static/js/desk_sw.js) that keeps pages and penalties;
// - «не отправлено: N» with the list of the penalties kept on this tablet, each waiting, refused
//   (with the server's words, sent again or discarded by the judge) or recorded (with its card);
// - «нет связи с HH:MM» while the server does not answer, the last moment it did; then the other
//   writes (judge calls, extensions, statements, decisions) are disabled with that message, and
//   the log form's preview says that the penalty will be computed when it is sent;
// - when the server answers again, what waits is sent and the page's live parts catch up.
(() => {
  const LAST_CONTACT = "desk:last-contact";
  const NEWEST_PAGE = "desk:newest-page";
  const PING_SECONDS = 5;
  let box;
  let online = true;
  let timer = null;
  // The worker this page talks to: the one in control of it, or else the registration's active
  // one. A page asked for while the worker was still installing is never controlled (the worker's
  // clients.claim() takes the pages already open, not one still loading), yet its messages and
  // the log forms fetched ahead are the same: the worker fetches them with the tablet's session.
  let worker = null;
  let greeted = null;

  function text(name, values = {}) {
    let value = box.dataset[name] || "";
    for (const [key, replacement] of Object.entries(values)) {
      value = value.replace(`{${key}}`, replacement);
    }
    return value;
  }

  function clock(moment) {
    const date = new Date(Number(moment));
    return `${String(date.getHours()).padStart(2, "0")}:${String(date.getMinutes()).padStart(2, "0")}`;
  }

  function csrf() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch {
      return "";
    }
  }

  function ask(message) {
    const target = (navigator.serviceWorker && navigator.serviceWorker.controller) || worker;
    if (!target) {
      return Promise.resolve(null);
    }
    return new Promise((resolve) => {
      const reply = new MessageChannel();
      reply.port1.onmessage = (event) => resolve(event.data);
      target.postMessage({ ...message, user: box.dataset.user, csrf: csrf() }, [reply.port2]);
    });
  }

  // ---- the connection ----------------------------------------------------------------------

  function contact() {
    if (!box) {
      return;
    }
    try {
      localStorage.setItem(LAST_CONTACT, String(Date.now()));
    } catch {
      // Storage refused: the time shown is this page's.
    }
    if (!online) {
      online = true;
      showConnection();
      // Back: send what waits, and let the live parts of the page fetch what they missed.
      ask({ type: "replay" }).then(render);
      document.body.dispatchEvent(new CustomEvent("desk:resync"));
      // A page the worker answered from its copy (the server was slow or away) fetched nothing
      // ahead; now that the server answers, the table's pages are fetched ahead after all.
      warm();
    }
  }

  function lost() {
    if (!box) {
      return;
    }
    if (online) {
      online = false;
      showConnection();
    }
    if (!timer) {
      timer = setInterval(ping, PING_SECONDS * 1000);
    }
  }

  async function ping() {
    try {
      // Any answer will do: the worker's own script, which reads no database.
      await fetch(box.dataset.worker, { method: "HEAD", cache: "no-store", credentials: "same-origin" });
    } catch {
      lost();
      return;
    }
    if (timer) {
      clearInterval(timer);
      timer = null;
    }
    contact();
  }

  function lastContact() {
    let value = null;
    try {
      value = localStorage.getItem(LAST_CONTACT);
    } catch {
      value = null;
    }
    return value || box.dataset.renderedAt;
  }

  function showConnection() {
    const status = document.getElementById("connection-status");
    status.hidden = online;
    status.textContent = online ? "" : text("textNoConnection", { time: clock(lastContact()) });
    document.body.classList.toggle("offline", !online);
    // Writes that are not kept on the tablet wait for the server (README: "Working offline").
    for (const form of document.querySelectorAll("form[method=post]")) {
      if (form.id === "infraction-form" || form.closest("#desk-offline, .topbar")) {
        continue;
      }
      for (const button of form.querySelectorAll("button, input[type=submit]")) {
        if (!online && !button.disabled) {
          button.disabled = true;
          button.dataset.offlineDisabled = "1";
          button.title = text("textDisabled");
        } else if (online && button.dataset.offlineDisabled) {
          button.disabled = false;
          delete button.dataset.offlineDisabled;
          button.removeAttribute("title");
        }
      }
    }
    const disabled = document.getElementById("offline-disabled");
    disabled.hidden = online || !document.querySelector("[data-offline-disabled]");
    if (!online) {
      previewOffline();
    }
  }

  function previewOffline() {
    const preview = document.getElementById("penalty-preview");
    if (!preview || !document.querySelector("#infraction-form input[name=infraction]:checked")) {
      return;
    }
    const line = document.createElement("p");
    line.className = "notice";
    line.id = "preview-offline";
    line.textContent = text("textPreviewOffline");
    preview.replaceChildren(line);
  }

  // ---- the penalties kept on the tablet ---------------------------------------------------

  function button(label, onClick, className = "link") {
    const element = document.createElement("button");
    element.type = "button";
    element.className = className;
    element.textContent = label;
    element.addEventListener("click", onClick);
    return element;
  }

  function item(entry, kind) {
    const row = document.createElement("li");
    row.className = `kept ${kind}`;
    row.dataset.key = entry.key;
    const what = document.createElement("span");
    what.className = "kept-what";
    const when = entry.enteredAt ? Date.parse(entry.enteredAt) : null;
    what.textContent = `${entry.label} · ${entry.infraction}${when ? ` · ${text("textEntered", { time: clock(when) })}` : ""}`;
    row.append(what, " ");
    if (kind === "pending") {
      const state = document.createElement("span");
      state.className = "muted";
      state.textContent = text("textWaiting");
      row.append(state);
    } else if (kind === "refused") {
      const why = document.createElement("p");
      why.className = "error";
      why.setAttribute("role", "alert");
      why.dataset.code = entry.code;
      why.textContent = `${text("textRefused")} ${entry.message || entry.code}`;
      const second = entry.code === "second_penalty_unconfirmed";
      const actions = document.createElement("p");
      actions.className = "kept-actions";
      actions.append(
        button(second ? text("textSecond") : text("textRetry"), () =>
          ask({ type: "retry", key: entry.key, confirm: second }).then(render),
        ),
        " ",
        button(text("textDiscard"), () => {
          const sure = document.createElement("span");
          sure.className = "kept-sure";
          sure.append(
            `${text("textDiscardSure")} `,
            button(text("textDiscardYes"), () => ask({ type: "discard", key: entry.key }).then(render), "danger"),
          );
          actions.append(" ", sure);
        }),
      );
      row.append(why, actions);
    } else {
      const link = document.createElement("a");
      link.href = entry.url;
      link.textContent = text("textRecorded");
      row.append(link, " ", button(text("textHide"), () => ask({ type: "dismiss", key: entry.key }).then(render)));
    }
    return row;
  }

  function render(state) {
    if (!state || !state.pending) {
      return;
    }
    const waiting = state.pending.length + state.refused.length;
    const queue = document.getElementById("offline-queue");
    const count = document.getElementById("offline-count");
    const list = document.getElementById("offline-list");
    queue.hidden = waiting === 0 && state.sent.length === 0;
    count.textContent =
      waiting > 0 ? text("textPending", { n: String(waiting) }) : text("textSent", { n: String(state.sent.length) });
    count.classList.toggle("waiting", waiting > 0);
    list.replaceChildren(
      ...state.refused.map((entry) => item(entry, "refused")),
      ...state.pending.map((entry) => item(entry, "pending")),
      ...state.sent.map((entry) => item(entry, "sent")),
    );
    if (state.refused.length) {
      queue.open = true;
    }
    if (state.status === "signed-out") {
      document.getElementById("offline-sign-in").hidden = false;
    }
  }

  // The log and record pages a judge may need at a table, fetched ahead while online.
  function warm() {
    const urls = new Set();
    for (const link of document.querySelectorAll("main a[href]")) {
      const url = new URL(link.href, window.location.href);
      if (url.origin === window.location.origin && /\/judge\/log\/$|\/records\/\d+\/$/.test(url.pathname)) {
        urls.add(url.href);
      }
    }
    if (urls.size) {
      ask({ type: "warm", urls: [...urls].slice(0, 60) });
    }
  }

  // Once per worker: when one is active for this page (at once if it controls the page), and
  // again when a new one takes over.
  function greet(active) {
    const target = navigator.serviceWorker.controller || active;
    if (!target || target === greeted) {
      return;
    }
    greeted = target;
    worker = target;
    ask({ type: online ? "replay" : "state" }).then(render);
    if (online) {
      warm();
    }
  }

  function start() {
    box = document.getElementById("desk-offline");
    if (!box) {
      return;
    }
    // A page kept by the worker is older than the newest one this tablet saw from the server:
    // shown offline, it says so until the server answers.
    const rendered = Number(box.dataset.renderedAt);
    let newest = 0;
    try {
      newest = Number(localStorage.getItem(NEWEST_PAGE) || 0);
      if (rendered > newest) {
        localStorage.setItem(NEWEST_PAGE, String(rendered));
        localStorage.setItem(LAST_CONTACT, String(Date.now()));
      }
    } catch {
      newest = 0;
    }
    if (rendered < newest || !navigator.onLine) {
      online = true; // so that lost() shows the change
      lost();
      ping();
    }
    const params = new URLSearchParams(window.location.search);
    if (params.get("kept")) {
      document.getElementById("offline-kept").hidden = false;
    }
    if (window.location.hash === "#not-sent") {
      document.getElementById("offline-not-sent").hidden = false;
    }
    if ("serviceWorker" in navigator && window.isSecureContext) {
      navigator.serviceWorker.register(box.dataset.worker).catch(() => {});
      navigator.serviceWorker.addEventListener("controllerchange", () => greet(null));
      navigator.serviceWorker.ready.then((registration) => greet(registration.active));
      const channel = new BroadcastChannel("desk-offline");
      channel.onmessage = () => ask({ type: "state" }).then(render);
    }
    for (const form of document.querySelectorAll("form[action$='/logout/']")) {
      form.addEventListener("submit", () => ask({ type: "signed-out" }));
    }
  }

  window.addEventListener("online", ping);
  window.addEventListener("offline", lost);
  document.addEventListener("htmx:sseOpen", contact);
  document.addEventListener("htmx:sseMessage", contact);
  // A stream that was open and broke; not one that never opened (a server without streams).
  document.addEventListener("htmx:sseError", (event) => {
    if (event.target && event.target.dataset && event.target.dataset.sseOpened) {
      ping();
    }
  });
  document.addEventListener("htmx:sendError", (event) => {
    lost();
    if (event.detail.target && event.detail.target.id === "penalty-preview") {
      previewOffline();
    }
  });
  document.addEventListener("htmx:afterRequest", (event) => {
    if (event.detail.xhr && event.detail.xhr.status > 0) {
      contact();
    }
  });

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
