// The little the page needs beyond htmx: ignore stale live updates, keep the newest row in
// view, and show a row's explanation when it is tapped.
(() => {
  "use strict";
  let seenVersion = Number(document.body.dataset.version || 0);

  document.body.addEventListener("htmx:beforeSwap", (event) => {
    const version = Number(event.detail.xhr.getResponseHeader("X-Thirty-Version"));
    if (!version) return;
    if (version <= seenVersion) {
      // A poll that crossed our own turn brings rows we already have.
      event.detail.shouldSwap = false;
      return;
    }
    seenVersion = version;
  });

  const wrap = () => document.getElementById("sheet-wrap");
  const scrollToNewest = () => {
    const el = wrap();
    if (el) el.scrollTop = el.scrollHeight;
  };
  document.addEventListener("DOMContentLoaded", scrollToNewest);
  document.body.addEventListener("htmx:afterSettle", scrollToNewest);

  const why = document.getElementById("why");
  let hideTimer = 0;
  const explain = (row) => {
    if (!why || !row) return;
    why.textContent = row.dataset.why;
    why.hidden = false;
    clearTimeout(hideTimer);
    hideTimer = setTimeout(() => { why.hidden = true; }, 6000);
  };
  document.addEventListener("click", (event) => {
    const row = event.target.closest("tr[data-why]");
    if (row) explain(row);
    else if (why && !event.target.closest("#why")) why.hidden = true;
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && event.target.matches?.("tr[data-why]")) explain(event.target);
  });

  // The host link carries its key after '#', which the server never sees.
  const hostKey = document.getElementById("host-key");
  if (hostKey && location.hash.length > 1) {
    hostKey.value = decodeURIComponent(location.hash.slice(1));
    history.replaceState(null, "", location.pathname);
    document.getElementById("claim-host").submit();
  }

  // A switch that saves as soon as it changes (the form has a button without scripts).
  document.addEventListener("change", (event) => {
    if (event.target.matches?.("[data-autosubmit]")) event.target.form.requestSubmit();
  });

  document.addEventListener("focusin", (event) => {
    if (event.target.matches?.("input.copy")) event.target.select();
  });
})();
