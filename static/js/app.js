// Small behaviours that need a script; kept out of the templates (no inline JavaScript).
document.addEventListener("click", (event) => {
  if (event.target.closest("[data-print]")) {
    window.print();
  }
});
