// Small behaviours that need a script; kept out of the templates (no inline JavaScript).
document.addEventListener("click", (event) => {
  if (event.target.closest("[data-print]")) {
    window.print();
  }
});

// After the event stream reconnects, pages re-fetch what they show: changes made while the
// connection was down are not lost (the server also replays the latest event when it can).
document.addEventListener("htmx:sseOpen", (event) => {
  const source = event.target;
  if (source.dataset.sseOpened) {
    document.body.dispatchEvent(new CustomEvent("desk:resync"));
  }
  source.dataset.sseOpened = "1";
});

// A tournament's level sets whether deck lists are used (rules.md §1): on at the professional
// level, always on at the highest, off at the amateur level unless the organiser switches them on.
document.addEventListener("change", (event) => {
  const level = event.target.closest("[data-decklists-level]");
  if (!level) {
    return;
  }
  const box = level.form && level.form.querySelector("[data-decklists-box]");
  if (!box) {
    return;
  }
  box.checked = level.value !== "amateur";
  box.disabled = level.value === "highest";
});

// The judge report on a tablet: a table of many columns becomes a card per row, each cell shown
// under its column's name, which the stylesheet reads from the cell's data-label.
function labelReportTables(root) {
  root.querySelectorAll(".report table").forEach((table) => {
    const headers = [...table.querySelectorAll("thead th")].map((th) => th.textContent.trim());
    if (headers.length < 5) {
      return;
    }
    table.classList.add("stacked");
    table.querySelectorAll("tbody tr").forEach((row) => {
      [...row.children].forEach((cell, index) => {
        if (!cell.hasAttribute("colspan") && headers[index]) {
          cell.dataset.label = headers[index];
        }
      });
    });
  });
}
document.addEventListener("DOMContentLoaded", () => labelReportTables(document));
document.addEventListener("htmx:afterSwap", (event) => labelReportTables(event.target.parentNode || document));

// A live region that holds forms (data-hold-while-typing) is not re-fetched over what a person is
// typing: the refresh waits until the form is sent (which loads the page anew) or until nothing
// typed is left in it. Nothing a judge entered is lost to someone else's change.
document.addEventListener("input", (event) => {
  const form = event.target.closest && event.target.closest("[data-hold-while-typing] form");
  if (form) {
    form.dataset.typed = "1";
  }
});
document.addEventListener("htmx:beforeSwap", (event) => {
  const target = event.detail.target;
  if (
    target &&
    target.matches &&
    target.matches("[data-hold-while-typing]") &&
    target.querySelector("form[data-typed]")
  ) {
    event.detail.shouldSwap = false;
    target.classList.add("held");
  }
});
