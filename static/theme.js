// Dark or light: follows the system unless the switch in the bar chose a side, remembered in
// this browser. Loaded in <head> without defer, so a dark page never flashes white. The table
// screen (/g/<id>/table, the watcher's page shown large) is marked here for the same reason.
(() => {
  "use strict";
  if (/^\/g\/[^/]+\/table$/.test(location.pathname)) {
    document.documentElement.classList.add("table-screen");
  }
  const KEY = "thirty-theme";
  const root = document.documentElement;
  const system = window.matchMedia("(prefers-color-scheme: dark)");
  const store = (value) => {
    try {
      if (value) localStorage.setItem(KEY, value);
      else localStorage.removeItem(KEY);
    } catch {
      // Storage refused (a private window): the choice lasts for this page only.
    }
  };
  let chosen = null;
  try { chosen = localStorage.getItem(KEY); } catch { chosen = null; }
  if (chosen === "dark" || chosen === "light") root.dataset.theme = chosen;
  const isDark = () => (root.dataset.theme ? root.dataset.theme === "dark" : system.matches);

  document.addEventListener("DOMContentLoaded", () => {
    const button = document.getElementById("theme-switch");
    if (!button) return;
    const show = () => button.setAttribute("aria-pressed", String(isDark()));
    button.hidden = false;
    show();
    button.addEventListener("click", () => {
      const dark = !isDark();
      if (dark === system.matches) {
        // The choice is what the system shows anyway: follow the system again.
        delete root.dataset.theme;
        store(null);
      } else {
        root.dataset.theme = dark ? "dark" : "light";
        store(root.dataset.theme);
      }
      show();
    });
    system.addEventListener("change", show);
  });
})();
