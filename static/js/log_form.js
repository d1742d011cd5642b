// The floor judge's log form keeps what the judge entered, and the one-time key of that intention,
// on the tablet (sessionStorage: this tab only, gone when the tab closes). Why, in
// docs/decisions.md ("One intention, one record"):
// - Back, a reload or a form opened again after a lost answer puts back the same key, so the
//   server answers with the record already made instead of making a second one;
// - a reload or signing in again (the session ended, or the CSRF page) loses nothing, and the
//   judge is told «Восстановлено то, что вы ввели».
// The state is stored per tournament, judge and player: "desk:log:<slug>:<user>:<player>".
// phase: "editing" (the key has not been sent), "sent" (sent, no record seen yet), "done" (the
// record card of this key was shown).
(() => {
  const PREFIX = "desk:log:";
  const FIELDS = ["infraction", "sub_item", "moment", "deferred", "note"];

  function read(name) {
    try {
      return JSON.parse(sessionStorage.getItem(name) || "null");
    } catch {
      return null;
    }
  }

  function write(name, state) {
    try {
      sessionStorage.setItem(name, JSON.stringify(state));
    } catch {
      // A tablet in private mode may refuse storage: the form still works, without the memory.
    }
  }

  function contentOf(form) {
    const data = new FormData(form);
    return {
      infraction: data.get("infraction") || "",
      sub_item: data.get("sub_item") || "",
      moment: data.get("moment") || "",
      deferred: data.has("deferred"),
      note: data.get("note") || "",
    };
  }

  function same(a, b) {
    return FIELDS.every((field) => a[field] === b[field]);
  }

  function apply(form, content) {
    for (const name of ["infraction", "sub_item", "moment"]) {
      for (const input of form.querySelectorAll(`input[type=radio][name=${name}]`)) {
        input.checked = input.value === content[name];
      }
    }
    const deferred = form.querySelector("input[name=deferred]");
    if (deferred) {
      deferred.checked = Boolean(content.deferred);
    }
    const note = form.querySelector("textarea[name=note]");
    if (note) {
      note.value = content.note || "";
    }
  }

  function newKey() {
    if (window.crypto && typeof window.crypto.randomUUID === "function") {
      return window.crypto.randomUUID();
    }
    // randomUUID needs a secure context; a laptop served over plain http on the venue's
    // network is not one, so the version-4 layout is filled from getRandomValues.
    const bytes = window.crypto.getRandomValues(new Uint8Array(16));
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  function cameBack() {
    const entry = performance.getEntriesByType("navigation")[0];
    return Boolean(entry && entry.type === "back_forward");
  }

  // A record card of a key this tab sent, or the judge's page after the service worker kept the
  // form offline (?kept=<key>, static/js/desk_sw.js): that intention is recorded or on its way.
  function markRecorded() {
    const card = document.querySelector("[data-recorded-key]");
    const kept = new URLSearchParams(window.location.search).get("kept");
    const key = card ? card.dataset.recordedKey : kept;
    if (!key) {
      return;
    }
    for (let index = 0; index < sessionStorage.length; index += 1) {
      const name = sessionStorage.key(index);
      if (!name || !name.startsWith(PREFIX)) {
        continue;
      }
      const state = read(name);
      if (state && state.key === key) {
        state.phase = "done";
        write(name, state);
      }
    }
  }

  function start() {
    markRecorded();
    const form = document.querySelector("form[data-form-state]");
    if (!form) {
      return;
    }
    const name = PREFIX + form.dataset.formState;
    const keyInput = form.querySelector("input[name=client_key]");
    const shown = contentOf(form);
    let state = read(name);
    if (form.dataset.bound) {
      // The server showed the submitted form again (a refusal, a confirmation to give): it holds
      // what was entered and the key; the tablet follows it.
      const phase = state && state.key === keyInput.value ? state.phase : "editing";
      state = { key: keyInput.value, content: shown, phase: phase === "done" ? "done" : "editing" };
    } else if (state && state.phase === "done" && !cameBack()) {
      // Opened anew after the record was shown: a new intention, with the page's new key.
      state = null;
    } else if (state && state.phase === "editing" && form.dataset.prefilled && !cameBack()) {
      // Opened by a link that fills the form: the link says what is meant now.
      state = null;
    } else if (state) {
      apply(form, state.content);
      keyInput.value = state.key;
      if (state.phase !== "done" && !same(state.content, shown)) {
        document.getElementById("form-restored").hidden = false;
      }
      if (state.content.infraction) {
        // The preview was drawn for the empty form: ask again for what is chosen now. After
        // htmx has bound the form, hence the next turn.
        setTimeout(() => window.htmx && window.htmx.trigger(form, "change"), 0);
      }
    }
    if (!state) {
      // A new intention gets a key made here: the page may be a copy the service worker kept
      // for offline use, whose key an earlier form of this player already sent.
      keyInput.value = newKey();
      state = { key: keyInput.value, content: contentOf(form), phase: "editing" };
    }
    write(name, state);

    const remember = () => {
      const content = contentOf(form);
      if (same(content, state.content)) {
        return;
      }
      if (state.phase !== "editing") {
        // The judge changes a form whose key was sent: that is another intention.
        state.key = newKey();
        keyInput.value = state.key;
        const entered = form.querySelector("input[name=entered_at]");
        if (entered) {
          entered.value = "";
        }
        state.phase = "editing";
      }
      state.content = content;
      write(name, state);
    };
    form.addEventListener("input", remember);
    form.addEventListener("change", remember);

    let sending = false;
    form.addEventListener("submit", (event) => {
      if (sending) {
        // A double tap: the first send is on its way with the same key.
        event.preventDefault();
        return;
      }
      sending = true;
      // The tablet's clock: when the judge entered the penalty (the first send of this form) and
      // when it is sent; the server checks the one against its own clock by the other.
      const now = new Date().toISOString();
      const entered = form.querySelector("input[name=entered_at]");
      if (entered && !entered.value) {
        entered.value = now;
      }
      const sent = form.querySelector("input[name=sent_at]");
      if (sent) {
        sent.value = now;
      }
      state.content = contentOf(form);
      state.phase = "sent";
      write(name, state);
      // Let a send that never got an answer be tried again after a while (the key stays).
      setTimeout(() => {
        sending = false;
      }, 5000);
    });
  }

  // A preview asked for after the session ended is redirected to the sign-in page: that page is
  // not drawn into the form. The form keeps what was entered; its submit leads through the
  // sign-in page back to this form, filled again.
  document.addEventListener("htmx:beforeSwap", (event) => {
    const target = event.detail.target;
    const xhr = event.detail.xhr;
    if (!target || target.id !== "penalty-preview" || !xhr.responseURL) {
      return;
    }
    const asked = new URL(event.detail.requestConfig.path, window.location.href).pathname;
    if (new URL(xhr.responseURL).pathname !== asked) {
      event.detail.shouldSwap = false;
    }
  });

  // A preview refused as out of date (the session changed in another tab): the judge is told
  // before they send, and that what they entered is kept.
  document.addEventListener("htmx:responseError", (event) => {
    const target = event.detail.target;
    const stale = document.getElementById("form-stale");
    const xhr = event.detail.xhr;
    const outOfDate = xhr.status === 403 && xhr.getResponseHeader("X-Desk-Refusal") === "csrf";
    if (target && target.id === "penalty-preview" && stale && outOfDate) {
      stale.hidden = false;
    }
  });

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
