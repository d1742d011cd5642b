// The round clock, counted down in the browser from the server's moments: the page carries the
// server's "now" and the moment time will be called, so a wrong clock on the tablet does not
// matter. Changes (pause, resume, end) come over the live stream and replace the element.
(() => {
  const offsets = new WeakMap();
  // The players' pages are bytes built once per change, so their clock carries no "now": the
  // server's time comes from the Date header of the latest answer to this page's requests
  // (whole seconds, so the middle of the second is taken).
  let dateOffset = 0;
  document.addEventListener("htmx:beforeSwap", (event) => {
    const date = event.detail.xhr && event.detail.xhr.getResponseHeader("Date");
    if (date && !Number.isNaN(Date.parse(date))) {
      dateOffset = Date.parse(date) + 500 - Date.now();
    }
  });

  function offsetOf(element) {
    // The server's clock minus this device's, taken when the element first appears.
    if (!offsets.has(element)) {
      const serverNow = element.dataset.serverNow;
      offsets.set(element, serverNow === undefined ? dateOffset : Number(serverNow) - Date.now());
    }
    return offsets.get(element);
  }

  function format(seconds) {
    const s = Math.max(0, Math.floor(seconds));
    const hours = Math.floor(s / 3600);
    const minutes = Math.floor((s % 3600) / 60);
    const rest = String(s % 60).padStart(2, "0");
    return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
  }

  function tick() {
    let timeUp = false;
    document.querySelectorAll("[data-clock][data-status=running]").forEach((clock) => {
      const left = Math.ceil((Number(clock.dataset.endsAt) - (Date.now() + offsetOf(clock))) / 1000);
      const digits = clock.querySelector(".clock-digits");
      if (left <= 0) {
        digits.textContent = clock.dataset.timeUp;
        clock.dataset.status = "time_called";
        clock.classList.add("clock-time_called");
        timeUp = true;
      } else {
        digits.textContent = format(left);
        clock.classList.toggle("clock-last-minutes", left <= 300);
      }
    });
    document.querySelectorAll("[data-ends-at]:not([data-clock])").forEach((element) => {
      const left = Math.ceil((Number(element.dataset.endsAt) - (Date.now() + offsetOf(element))) / 1000);
      element.textContent = left > 0 ? `(${format(left)})` : element.dataset.timeUp;
    });
    document.querySelectorAll("[data-since]").forEach((element) => {
      const waited = (Date.now() + offsetOf(element) - Number(element.dataset.since)) / 1000;
      element.textContent = format(waited);
    });
    if (timeUp) {
      // Pages that show what happens after time is called (the projector) re-fetch it.
      document.body.dispatchEvent(new CustomEvent("desk:time-up"));
    }
  }

  tick();
  setInterval(tick, 250);
  document.addEventListener("htmx:afterSwap", tick);

  // The players' pairings: filtered as the name is typed (the form also searches on the server).
  document.addEventListener("input", (event) => {
    const field = event.target.closest("[data-filter-rows]");
    if (!field) {
      return;
    }
    const text = field.value.trim().toLowerCase().replaceAll("ё", "е");
    document.querySelectorAll(`${field.dataset.filterRows} tbody tr[data-name]`).forEach((row) => {
      row.hidden = text !== "" && !row.dataset.name.replaceAll("ё", "е").includes(text);
    });
  });
})();

// The projector turns the pages of the pairings and standings: one shown at a time, the next
// after the seconds the page asks for. The page index lives here, so a re-fetched list goes on
// from where it was.
(() => {
  let shown = -1;
  let timer = null;

  function turn() {
    const rotation = document.querySelector("[data-rotation]");
    if (!rotation) {
      return;
    }
    const panels = rotation.querySelectorAll(".rotation-panel");
    if (panels.length === 0) {
      return;
    }
    shown = (shown + 1) % panels.length;
    panels.forEach((panel, index) => {
      panel.hidden = index !== shown;
    });
  }

  function show() {
    // After a re-fetch the same page stays up until its time is over.
    const rotation = document.querySelector("[data-rotation]");
    if (!rotation) {
      return;
    }
    const panels = rotation.querySelectorAll(".rotation-panel");
    panels.forEach((panel, index) => {
      panel.hidden = index !== shown % panels.length;
    });
  }

  function start() {
    const rotation = document.querySelector("[data-rotation]");
    if (!rotation || timer !== null) {
      return;
    }
    turn();
    timer = setInterval(turn, Number(rotation.dataset.seconds || 12) * 1000);
  }

  document.addEventListener("DOMContentLoaded", start);
  document.addEventListener("htmx:afterSwap", () => {
    if (shown >= 0) {
      show();
    }
  });
})();
