// The little the page needs beyond htmx: show the updates the game's event stream brings,
// fall back to polling when it does not get through, ignore stale live updates, keep the
// newest row in view, and show a row's explanation when it is tapped.
(() => {
  "use strict";
  let seenVersion = Number(document.body.dataset.version || 0);

  // When this phone's own turn was sent, while its answer is awaited (0: none is). A turn
  // whose answer never comes (the request was called off before it left) stops counting as
  // on its way after TURN_WAIT_MS, so that the page never stops following the game.
  const TURN_WAIT_MS = 10000;
  let turnSentAt = 0;
  const turnInFlight = () => turnSentAt > 0 && Date.now() - turnSentAt < TURN_WAIT_MS;
  // A form that records a move: the dice turn form, or a phone's hand of cards.
  const isTurnForm = (elt) => Boolean(elt.closest?.("#turn-panel form, #hand form"));

  // The stream (htmx's SSE extension on #live-stream) carries every change's update itself
  // (an "update" event, applied here), or says only the new version ("version": after a
  // cut, or from a server that cannot make the update), and #live then fetches the update.
  // #live also polls every second; while the stream is healthy (it has delivered an event
  // since it last failed) those polls are held back to one every SLOW_POLL_MS, as a safety
  // net. A proxy that buffers the stream, or a stream that fails, leaves the once-a-second
  // poll running, so nobody notices the difference but the delay.
  const SLOW_POLL_MS = 30000;
  let streamHealthy = false;
  let streamSpoke = false;  // it has, since the page was opened
  let streamReopened = false;  // after its last cut (below)
  let lastLive = 0;
  // Whether the stream is speaking, shown on the page (`data-stream`) for anyone to tell (a
  // test too): "open" once an event came, "closed" once the stream broke off.
  const streamIs = (healthy) => {
    streamHealthy = healthy;
    if (healthy) {
      streamSpoke = true;
      streamReopened = false;
    }
    document.body.dataset.stream = healthy ? "open" : "closed";
  };
  document.body.addEventListener("htmx:sseMessage", () => streamIs(true));
  document.body.addEventListener("htmx:sseError", () => streamIs(false));
  document.body.addEventListener("htmx:sseClose", () => streamIs(false));
  // A fetch that failed (the network dropped for a moment) is tried again by the next poll.
  const liveFailed = (event) => { if (event.detail.elt.id === "live") lastLive = 0; };
  document.body.addEventListener("htmx:sendError", liveFailed);
  document.body.addEventListener("htmx:responseError", liveFailed);

  // The newest version the stream spoke of. One held back while this phone's own turn was on
  // its way is asked for once the turn's answer is in, should that answer not bring it (a
  // turn refused because the game had moved on).
  let heardVersion = 0;
  const heard = (version) => { heardVersion = Math.max(heardVersion, Number(version) || 0); };
  const catchUp = () => {
    const live = document.getElementById("live");
    if (live && heardVersion > seenVersion) htmx.trigger(live, "thirty:behind");
  };
  const showVersion = (version) => {
    seenVersion = version;
    // Shown on the page, so that anyone (a test too) can tell which version is on screen.
    document.body.dataset.version = String(version);
  };
  // A pushed update: {"version", "since", "html"}. It is made from the version the stream
  // last sent ("since"; null when it fits any older page); a page that shows another one
  // (it skipped an update, or fetched one itself) asks #live for what it is missing.
  const dataOf = (message) => {
    try {
      return JSON.parse(message.data);
    } catch {
      return null;  // not an event of ours: nothing to show
    }
  };
  const applyPushed = (message) => {
    streamIs(true);
    lastLive = Date.now();  // as good as a poll: the safety net's next one is due later
    const update = dataOf(message);
    if (!update) return;
    heard(update.version);
    // Nothing new, or this phone's own turn is on its way: its answer brings the same.
    if (!update.html || update.version <= seenVersion || turnInFlight()) return;
    const live = document.getElementById("live");
    if (update.since !== null && update.since !== seenVersion) {
      if (live) htmx.trigger(live, "thirty:behind");
      return;
    }
    showVersion(update.version);
    if (document.activeElement?.closest?.("#turn-panel")) focusWasInPanel = true;
    // Settled as htmx settles an answer it fetched (after htmx.config.defaultSettleDelay):
    // the new rows are in, and painted, without waiting for the new parts to be set up.
    const settleDelay = htmx.config.defaultSettleDelay;
    htmx.swap(live || document.body, update.html, { swapStyle: "none", settleDelay }, { eventInfo: { pushed: true } });
  };
  // A stream that the extension opens again after a cut starts from what the page shows.
  const syncStreamQuery = () => {
    const stream = document.getElementById("live-stream");
    const query = document.getElementById("live")?.getAttribute("hx-get")?.split("?")[1];
    const url = stream?.getAttribute("sse-connect");
    if (url && query) stream.setAttribute("sse-connect", `${url.split("?")[0]}?${query}`);
  };
  document.body.addEventListener("htmx:afterSettle", syncStreamQuery);
  // A change the stream tells only by its version (a rematch, say) while an update settles
  // reaches no #live: the old one has gone, and htmx sets the new one up only after its
  // settle delay. The stream's own listener heard the version all the same (`heard`): the
  // page asks for it once the new #live is set up, not at the next poll, which a speaking
  // stream holds back to one every SLOW_POLL_MS.
  document.body.addEventListener("htmx:afterSettle", catchUp);
  // A stream the server answered with an error (its limit of streams per address, a proxy
  // whose app is restarting) is given up by the browser; the extension then tries again
  // after a wait that doubles with every refusal, up to 64 s, while the page polls. Once a
  // poll gets through, the server is there again: the stream is opened at once instead of
  // after the rest of that wait. Only after it had spoken, and once per cut, so that a proxy
  // that never lets a stream through is not asked for one after every poll.
  let streamSource = null;  // the extension's latest
  document.body.addEventListener("htmx:sseError", (event) => { streamSource = event.detail.source; });
  const reopenStream = () => {
    const element = document.getElementById("live-stream");
    if (!element) return;
    syncStreamQuery();  // the poll's answer may not have settled yet
    const html = element.outerHTML;
    // The extension's own next try reads the address when its wait is over: none, no try.
    element.removeAttribute("sse-connect");
    htmx.swap(element, html, { swapStyle: "outerHTML" });
  };
  document.body.addEventListener("htmx:afterRequest", (event) => {
    // The element that asked: a poll that brought an update has replaced #live by then, and
    // htmx tells its parent instead.
    if (event.detail.requestConfig?.elt?.id !== "live" || !event.detail.successful) return;
    if (streamHealthy || !streamSpoke || streamReopened) return;
    if (streamSource?.readyState !== EventSource.CLOSED) return;  // the browser tries again itself
    streamReopened = true;
    reopenStream();
  });
  const hooked = new WeakSet();
  document.body.addEventListener("htmx:sseOpen", (event) => {
    const source = event.detail.source;
    streamSource = source;
    if (!source || hooked.has(source)) return;  // opened again after a cut: still hooked
    hooked.add(source);
    source.addEventListener("update", applyPushed);
    // A stream that opens behind the page says only the version: it speaks all the same.
    source.addEventListener("version", (message) => {
      streamIs(true);
      heard(dataOf(message)?.version);
    });
  });

  document.body.addEventListener("htmx:beforeRequest", (event) => {
    const elt = event.detail.elt;
    if (isTurnForm(elt)) {
      turnSentAt = Date.now();
      // Told by the request itself: the answer replaces the form, and htmx's own events on a
      // form that has left the page never reach the body.
      event.detail.xhr.addEventListener("loadend", () => {
        turnSentAt = 0;
        setTimeout(catchUp, 0);  // after htmx has shown the answer
      });
      return;
    }
    if (elt.id !== "live") return;
    // While this phone's own turn is on its way, a poll would only race it.
    if (turnInFlight()) {
      event.preventDefault();
      return;
    }
    const trigger = String(event.detail.requestConfig?.triggeringEvent?.type || "");
    const pushed = trigger.startsWith("sse:") || trigger === "thirty:behind";
    if (!pushed && streamHealthy && Date.now() - lastLive < SLOW_POLL_MS) {
      event.preventDefault();
      return;
    }
    lastLive = Date.now();
  });

  document.body.addEventListener("htmx:beforeSwap", (event) => {
    const version = Number(event.detail.xhr.getResponseHeader("X-Thirty-Version"));
    if (!version) return;
    // The answer to this phone's own turn carries its confirmation: it wins over a poll that
    // brought the same version first.
    const own = isTurnForm(event.detail.elt);
    if (version < seenVersion || (version === seenVersion && !own)) {
      // A poll that crossed our own turn brings rows we already have.
      event.detail.shouldSwap = false;
      return;
    }
    showVersion(version);
  });

  // Right after a turn is recorded, the next player's pad waits a moment before it takes taps,
  // so that a double tap meant for one turn can never land on the next. The fieldset says how
  // long (THIRTY_COOLDOWN_MS).
  const COOLDOWN_MS = 600;
  document.body.addEventListener("htmx:load", (event) => {
    const root = event.detail.elt;
    const waiting = root.matches?.("[data-cooldown]") ? [root] : [...(root.querySelectorAll?.("[data-cooldown]") || [])];
    for (const fieldset of waiting) {
      setTimeout(() => {
        // A turn held back (below: a deal's end or a computer's moves still being shown) is
        // let go by itself once they have been.
        if ("held" in fieldset.dataset) return;
        fieldset.disabled = false;
        (fieldset.querySelector(".pad button, .pick input") || fieldset.querySelector("button"))?.focus({ preventScroll: true });
      }, Number(fieldset.dataset.cooldown) || COOLDOWN_MS);
    }
  });

  // Keyboard: each step of the turn form replaces the panel; focus stays in it, on the first
  // choice of the new step, so a turn takes a few keys rather than a walk through the page.
  let focusWasInPanel = false;
  const focusIsInPanel = () => Boolean(document.activeElement?.closest?.("#turn-panel"));
  document.body.addEventListener("htmx:beforeRequest", (event) => {
    // The pad's buttons are disabled while the step is on its way, which drops focus: note it now.
    if (event.detail.elt.closest?.("#turn-panel")) focusWasInPanel = true;
  });
  document.body.addEventListener("htmx:beforeSwap", () => {
    if (focusIsInPanel()) focusWasInPanel = true;
  });
  document.body.addEventListener("htmx:load", (event) => {
    const panel = event.detail.elt;
    if (panel.id !== "turn-panel" || !focusWasInPanel) return;
    focusWasInPanel = false;
    const active = document.activeElement;
    if (active && active !== document.body && document.contains(active) && !active.disabled) return;
    const target = panel.querySelector(".pad button:not(:disabled)") ||
      panel.querySelector("fieldset:disabled") || panel.querySelector("button, a[href]");
    if (target?.matches("fieldset")) {
      // The pad waits a moment after a recorded turn; meanwhile the panel itself holds focus.
      panel.tabIndex = -1;
      panel.focus({ preventScroll: true });
    } else {
      target?.focus({ preventScroll: true });
    }
  });

  // Offline: say so, and keep showing what this phone saw last (the service worker keeps a
  // copy of each game page, for a reload without a connection).
  const offline = document.getElementById("offline");
  const showOffline = (isOffline) => { if (offline) offline.hidden = !isOffline; };
  window.addEventListener("offline", () => showOffline(true));
  window.addEventListener("online", () => showOffline(false));
  document.body.addEventListener("htmx:sendError", () => showOffline(true));
  document.body.addEventListener("htmx:afterRequest", (event) => {
    if (event.detail.successful) showOffline(false);
  });
  showOffline(!navigator.onLine);
  const worker = document.body.dataset.serviceWorker;
  if (worker && "serviceWorker" in navigator) {
    navigator.serviceWorker.register(worker, { scope: "/" }).catch(() => {
      // Not over https, or refused: the app works as before, only not offline.
    });
  }

  // After a live update the worker fetches a fresh copy of the whole page to keep. That is
  // the whole sheet again, so it is asked for at most once every OFFLINE_COPY_MS, once the
  // game has been still for COPY_QUIET_MS (but no later than OFFLINE_COPY_MS after the first
  // update it has not kept), and whenever the page is hidden, when a phone is most likely to
  // lose its connection. Otherwise every phone would fetch the whole sheet on every change,
  // or at the moment every other phone at the table is putting the same update in.
  const OFFLINE_COPY_MS = 20000;
  const COPY_QUIET_MS = 2000;
  let copyKeptAt = 0;
  let unkeptSince = 0;  // when the first update the kept copy lacks came (0: none)
  let copyDue = null;
  const keepCopy = () => {
    clearTimeout(copyDue);
    copyDue = null;
    copyKeptAt = Date.now();
    unkeptSince = 0;
    navigator.serviceWorker?.controller?.postMessage({ refresh: location.pathname });
  };
  document.body.addEventListener("htmx:afterSettle", (event) => {
    if (!event.detail.pushed && !event.detail.xhr?.getResponseHeader("X-Thirty-Version")) return;
    const now = Date.now();
    unkeptSince ||= now;
    const quiet = Math.min(now + COPY_QUIET_MS, unkeptSince + OFFLINE_COPY_MS);
    clearTimeout(copyDue);
    copyDue = setTimeout(keepCopy, Math.max(quiet, copyKeptAt + OFFLINE_COPY_MS) - now);
  });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden" && copyDue !== null) keepCopy();
  });

  // Keep the screen on while a game is open and not over. In a secure context (https, or
  // this machine) the Wake Lock API does it; on plain http over the Wi-Fi, where browsers
  // refuse it, NoSleep.js plays a tiny silent looping video, which a browser starts only
  // from a tap: the first tap on the page starts it.
  let wakeLock = null;
  let noSleep = null;
  const awakeWanted = () => Boolean(document.getElementById("live-stream")) &&
    !document.querySelector("#status.finished") && document.visibilityState === "visible";
  const markAwake = (how) => {
    if (how) document.documentElement.dataset.awake = how;
    else delete document.documentElement.dataset.awake;
  };
  const keepAwake = async () => {
    const wanted = awakeWanted();
    if (!("wakeLock" in navigator)) {
      if (!wanted && noSleep?.isEnabled) {
        noSleep.disable();
        markAwake(null);
      }
      return;  // the video waits for a tap (below)
    }
    if (wanted && !wakeLock) {
      try {
        wakeLock = await navigator.wakeLock.request("screen");
        markAwake("true");
        wakeLock.addEventListener("release", () => {
          wakeLock = null;
          markAwake(null);
        });
      } catch {
        wakeLock = null;  // low battery, or not allowed: the screen sleeps as usual
      }
    } else if (!wanted && wakeLock) {
      wakeLock.release();
    }
  };
  document.addEventListener("pointerup", () => {
    if ("wakeLock" in navigator || !window.NoSleep || !awakeWanted()) return;
    noSleep ??= new window.NoSleep();
    if (noSleep.isEnabled) return;
    noSleep.enable().then(() => markAwake("video"), () => markAwake(null));
  });
  document.addEventListener("visibilitychange", keepAwake);
  document.body.addEventListener("htmx:afterSettle", keepAwake);
  document.addEventListener("DOMContentLoaded", keepAwake);

  // Whose turn it is (templates/games/turn_signal.html, renewed with every update): the
  // phone whose turn it is vibrates, plays a short sound if it switched sound on, and shows
  // it in the tab's title and icon while the page is in the background, with a notification
  // where allowed; every other phone's screen reader hears whose turn it is, politely.
  const turn = { seat: null, title: document.title, news: false };
  const icon = document.querySelector('link[rel="icon"]');
  const plainIcon = icon?.getAttribute("href");
  const soundKey = "thirty-turn-sound";
  let audio = null;
  const soundOn = () => localStorage.getItem(soundKey) === "on";
  const beep = () => {
    if (!audio) return;
    const tone = audio.createOscillator();
    const level = audio.createGain();
    tone.frequency.value = 880;
    level.gain.setValueAtTime(0.2, audio.currentTime);
    level.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.4);
    tone.connect(level).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.4);
  };
  const showTurnInTab = (mine) => {
    const signal = document.getElementById("turn-signal");
    const away = mine && document.visibilityState === "hidden";
    document.title = away ? `● ${signal.dataset.yourTurn} · ${turn.title}` : turn.title;
    if (icon) icon.setAttribute("href", away ? icon.dataset.turnIcon : plainIcon);
    document.documentElement.dataset.yourTurn = mine ? "true" : "false";
  };
  // A turn is told once the table has seen what came before it: while a deal's end is on its
  // banner, or a computer's moves are still being shown one by one, the signal waits, and so
  // does this phone's hand or turn form (`turnHeld`, below); each lets it go when it is done.
  // A turn that comes back to the same seat after such news (the loser starts the next deal,
  // the computers played in between) is a new turn too.
  const holdTurnForm = (held) => {
    document.documentElement.toggleAttribute("data-turn-held", held);  // its words wait too (thirty.css)
    for (const fieldset of document.querySelectorAll("#hand fieldset.turn-steps, #turn-panel fieldset.turn-steps")) {
      if (held && !fieldset.disabled) {
        fieldset.disabled = true;
        fieldset.dataset.held = "";
      } else if (held && fieldset.dataset.cooldown) {
        fieldset.dataset.held = "";  // its cooldown leaves it to the hold
      } else if (!held && "held" in fieldset.dataset) {
        delete fieldset.dataset.held;
        fieldset.disabled = false;
      }
    }
  };
  const onTurnSignal = () => {
    const signal = document.getElementById("turn-signal");
    if (!signal) return;
    const seat = signal.dataset.seat;
    const mine = seat !== "" && seat === signal.dataset.mySeat;
    const first = turn.seat === null;
    if (!first && turnHeld()) {
      turn.news = true;
      holdTurnForm(mine);
      return;
    }
    holdTurnForm(false);
    if (seat === turn.seat && !turn.news) return;  // the same turn, renewed
    turn.news = false;
    turn.seat = seat;
    showTurnInTab(mine);
    if (first) return;  // the page just opened: nothing happened yet
    if (mine) {
      navigator.vibrate?.([180, 80, 180]);
      if (soundOn()) beep();
      if (document.visibilityState === "hidden" && window.Notification?.permission === "granted") {
        new Notification(signal.dataset.yourTurn, { body: turn.title, tag: "thirty-turn" });
      }
    } else if (seat !== "") {
      const announce = document.getElementById("turn-announce");
      if (announce) announce.textContent = signal.dataset.announce;
    }
  };
  document.addEventListener("visibilitychange", () => {
    const signal = document.getElementById("turn-signal");
    // The turn told so far: one still held back is not shown in the tab either.
    if (signal) showTurnInTab(Boolean(turn.seat) && turn.seat === signal.dataset.mySeat);
  });
  // The sound switch: a tap also unlocks the page's audio and, over https, asks whether the
  // phone may show a notification on its turn.
  const soundButton = document.getElementById("turn-sound");
  const showSound = () => soundButton?.setAttribute("aria-pressed", soundOn() ? "true" : "false");
  showSound();
  soundButton?.addEventListener("click", () => {
    localStorage.setItem(soundKey, soundOn() ? "off" : "on");
    showSound();
    if (soundOn()) {
      audio ??= new AudioContext();
      audio.resume();
      beep();
      if (window.isSecureContext && window.Notification?.permission === "default") {
        Notification.requestPermission();
      }
    }
  });
  document.addEventListener("pointerdown", () => {
    if (soundOn() && !audio) audio = new AudioContext();  // a browser starts audio on a tap only
  }, { once: true });

  // The end of a card deal, on every phone (templates/games/card_area.html): a banner that
  // stays a few seconds, or until tapped, whenever a deal ends while the page is open. The
  // table is drawn again with every move, so the banner is kept shown until its time is up.
  const DEAL_BANNER_MS = 5000;
  let dealSeen = 0;
  let dealShownUntil = 0;
  const dealBanner = () => document.getElementById("deal-banner");
  const onDealBanner = () => {
    const banner = dealBanner();
    if (!banner) return;
    const deal = Number(banner.dataset.deal);
    if (deal > dealSeen) {
      dealSeen = deal;
      dealShownUntil = Date.now() + DEAL_BANNER_MS;
      setTimeout(() => {
        if (Date.now() < dealShownUntil) return;
        dealBanner()?.setAttribute("hidden", "");
        onTurnSignal();
      }, DEAL_BANNER_MS);
    }
    banner.hidden = Date.now() >= dealShownUntil;
  };
  document.addEventListener("DOMContentLoaded", () => { dealSeen = Number(dealBanner()?.dataset.deal || 0); });
  document.body.addEventListener("htmx:afterSettle", onDealBanner);
  document.addEventListener("click", (event) => {
    if (!event.target.closest?.("[data-close-banner]")) return;
    dealShownUntil = 0;
    dealBanner()?.setAttribute("hidden", "");
    onTurnSignal();
  });
  // A deal's end not yet shown on this phone, or still on its banner.
  const dealBannerUp = () => {
    const banner = dealBanner();
    return Boolean(banner) && (Number(banner.dataset.deal) > dealSeen || Date.now() < dealShownUntil);
  };

  // Computers move at once on the server; every phone shows their moves one by one, PACE_MS
  // apart and highlighted, so that a person can follow them. The templates mark each
  // computer move with data-pace (its key) and data-pace-order (its place in the game), and
  // what sums the moves up with data-pace-after: hidden (="hide": the dice sheet's points,
  // chart and status, which would tell the dice before they fall) or dimmed (the card table's
  // total and pile) until the moves have all been shown. A move already on the page when it
  // opened, or already shown, is not shown again when an update draws it anew.
  const PACE_MS = Number(document.body.dataset.paceMs) || 1500;
  const paceShown = new Set();
  let pacePending = [];
  const paceOrder = new Map();
  let paceNewest = null;
  let paceTimer = null;
  let paceShownAt = -Infinity;  // when the newest move came in (performance.now())
  const paced = () => [...document.querySelectorAll("[data-pace]")];
  const paceDraw = () => {
    const waiting = new Set(pacePending);
    for (const el of paced()) {
      el.classList.toggle("pace-wait", waiting.has(el.dataset.pace));
      el.classList.toggle("pace-new", el.dataset.pace === paceNewest);
    }
    for (const el of document.querySelectorAll("[data-pace-after]")) el.classList.toggle("pace-wait", waiting.size > 0);
    document.body.classList.toggle("pacing", waiting.size > 0);
  };
  const paceStep = () => {
    paceNewest = pacePending.shift();
    paceShown.add(paceNewest);
    paceDraw();
    if (!pacePending.length) onTurnSignal();
    // The move shows once this task is done (the turn signal's work too, which can take a
    // busy phone tens of milliseconds): the pace counts from then, so no move is newest for
    // less than the whole pace.
    paceShownAt = performance.now();
    paceTimer = pacePending.length ? setTimeout(paceStep, PACE_MS) : null;
  };
  const onPace = () => {
    for (const el of paced()) {
      const key = el.dataset.pace;
      if (paceShown.has(key) || pacePending.includes(key)) continue;
      pacePending.push(key);
      paceOrder.set(key, Number(el.dataset.paceOrder));
    }
    // The parts of one update come in one by one (each region is swapped on its own).
    pacePending.sort((a, b) => paceOrder.get(a) - paceOrder.get(b));
    paceDraw();
    // A move that comes in after the others were all shown (its update came later) still
    // leaves the one before it the newest for the whole pace.
    if (pacePending.length && paceTimer === null) {
      paceTimer = setTimeout(paceStep, Math.max(0, PACE_MS - (performance.now() - paceShownAt)));
    }
  };
  document.addEventListener("DOMContentLoaded", () => { for (const el of paced()) paceShown.add(el.dataset.pace); });
  // `work` run once for however many calls come before `schedule` runs it.
  const coalesced = (schedule, work) => {
    let due = false;
    return () => {
      if (due) return;
      due = true;
      schedule(() => {
        due = false;
        work();
      });
    };
  };
  // An update swaps its regions in one by one, all in one task. Each region's swap asks for
  // the pace, which runs once, when the task has put them all in and before anything is
  // painted, so that no new number shows for a moment before it waits (a pass over the
  // whole page per region cost about 4 ms an update).
  const oncePerUpdate = (work) => coalesced(queueMicrotask, work);
  const paceAfterSwap = oncePerUpdate(onPace);
  document.body.addEventListener("htmx:afterSwap", paceAfterSwap);
  document.body.addEventListener("htmx:oobAfterSwap", paceAfterSwap);
  document.body.addEventListener("htmx:afterSettle", paceAfterSwap);

  // Whether this phone's turn waits to be told (above): a deal's end or a computer's move that
  // the table has not been shown yet. Listened to after the banner and the pace, which each
  // update first.
  const turnHeld = () => dealBannerUp() || paced().some((el) => !paceShown.has(el.dataset.pace));
  const turnSignalAfterSwap = oncePerUpdate(onTurnSignal);  // after the pace's, queued first
  document.body.addEventListener("htmx:afterSettle", turnSignalAfterSwap);
  document.body.addEventListener("htmx:oobAfterSwap", turnSignalAfterSwap);
  document.addEventListener("DOMContentLoaded", onTurnSignal);

  // The chart in an update comes with its address in data-src and data-srcset
  // (templates/games/chart_picture.html): it is fetched once any of it is on the screen. A
  // phone's chart sits just below the sheet, out of sight (the sheet is as tall as the screen
  // allows), so a phone no longer fetches a new picture after every turn, nor the server
  // draws one, while the sheet is what it shows. A page as loaded has its chart at once.
  const showPicture = (img) => {
    for (const source of img.parentElement?.querySelectorAll("source[data-srcset]") || []) {
      source.srcset = source.dataset.srcset;
      delete source.dataset.srcset;
    }
    img.src = img.dataset.src;
    delete img.dataset.src;
  };
  const picturesOnScreen = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      picturesOnScreen.unobserve(entry.target);
      showPicture(entry.target);
    }
  });
  const watchPictures = oncePerUpdate(() => {
    picturesOnScreen.disconnect();  // the pictures an earlier update brought have left the page
    for (const img of document.querySelectorAll("img[data-src]")) picturesOnScreen.observe(img);
  });
  document.body.addEventListener("htmx:afterSwap", watchPictures);
  document.body.addEventListener("htmx:oobAfterSwap", watchPictures);

  // Replay: the arrow keys step through the turns.
  document.addEventListener("keydown", (event) => {
    if (event.target.closest?.("input, select, textarea")) return;
    const link = document.getElementById(event.key === "ArrowLeft" ? "replay-prev" : event.key === "ArrowRight" ? "replay-next" : "");
    if (link) location.href = link.href;
  });

  // Enter in a player's name goes on to the next name; in the last one it starts the game
  // (the form's first submit button), never removing or moving anyone.
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" || !event.target.matches?.('#create-form input[name="player"]')) return;
    const names = [...document.querySelectorAll('#create-form input[name="player"]')];
    const next = names[names.indexOf(event.target) + 1];
    if (next) {
      event.preventDefault();
      next.focus();
    }
  });

  const wrap = () => document.getElementById("sheet-wrap");
  const scrollToNewest = () => {
    const el = wrap();
    if (el) el.scrollTop = el.scrollHeight;
  };

  const why = document.getElementById("why");
  let hideTimer = 0;
  const explain = (row) => {
    if (!why || !row) return;
    why.textContent = row.dataset.why;
    why.hidden = false;
    clearTimeout(hideTimer);
    hideTimer = setTimeout(() => { why.hidden = true; }, 6000);
  };
  const say = (text) => {
    if (!why) return;
    why.textContent = text;
    why.hidden = false;
    clearTimeout(hideTimer);
    hideTimer = setTimeout(() => { why.hidden = true; }, 6000);
  };
  document.addEventListener("click", (event) => {
    const row = event.target.closest("tr[data-why]");
    const name = event.target.closest("#sheet-head th.seat");
    if (row) explain(row);
    else if (name) say(name.title);  // a long name is cut in the header: tap shows it whole
    else if (why && !event.target.closest("#why")) why.hidden = true;
  });

  // Copy a link, or hand it to the phone's own share sheet where there is one. Without the
  // Clipboard API (plain http) the selected text is copied the older way; where even that
  // fails, the link stays selected for the person to copy, and the button says so. Where
  // sharing fails (not a tap the browser counts, say), the link is copied instead.
  const copyLink = async (button, input) => {
    input.select();
    input.setSelectionRange(0, input.value.length);
    let copied = false;
    try {
      await navigator.clipboard.writeText(input.value);
      copied = true;
    } catch {
      try {
        copied = document.execCommand("copy");
      } catch {
        copied = false;
      }
    }
    const label = button.textContent;
    button.textContent = copied ? button.dataset.copied : button.dataset.selected;
    button.dataset.result = copied ? "copied" : "selected";
    setTimeout(() => { button.textContent = label; }, copied ? 1500 : 4000);
  };
  document.addEventListener("click", async (event) => {
    const copy = event.target.closest("[data-copy]");
    const share = event.target.closest("[data-share]");
    if (copy) {
      await copyLink(copy, document.querySelector(copy.dataset.copy));
    } else if (share) {
      const input = document.querySelector(share.dataset.share);
      try {
        await navigator.share({ title: share.dataset.title, url: input.value });
      } catch (error) {
        // Closed by the person (AbortError): nothing to do. Refused: copy instead.
        if (error?.name !== "AbortError") await copyLink(share, input);
      }
    }
  });
  if (navigator.share) {
    for (const button of document.querySelectorAll("[data-share]")) button.hidden = false;
  }

  // Outside a secure context, the host's page says what the phones miss (templates/games/share.html).
  if (!window.isSecureContext) {
    for (const notice of document.querySelectorAll("[data-insecure-notice]")) notice.hidden = false;
  }

  // A switch that saves as soon as it changes (the form has a button without scripts).
  document.addEventListener("change", (event) => {
    if (event.target.matches?.("[data-autosubmit]")) event.target.form.requestSubmit();
  });

  // On a phone the turn form sits above the sheet: keep the sheet's newest rows and its
  // points in view below the form, so the host sees what a turn did without scrolling.
  const fitSheet = () => {
    const el = wrap();
    if (!el) return;
    el.style.maxHeight = "";
    if (!document.getElementById("turn-panel") || window.innerWidth >= 900) return;
    const room = window.innerHeight - (el.getBoundingClientRect().top + window.scrollY) - 8;
    if (room >= 140) el.style.maxHeight = `${room}px`;
  };
  const fitAndScroll = () => {
    fitSheet();
    scrollToNewest();
  };
  document.addEventListener("DOMContentLoaded", fitAndScroll);
  // Sharing comes first while the table joins; once the first turn is in, the sheet does.
  const shareAfterFirstTurn = () => {
    const area = document.querySelector("#share-area.first");
    const legend = document.querySelector(".legend");
    if (!area || !document.querySelector("#sheet-rows tr, [data-started]")) return false;
    area.classList.remove("first");
    (legend || document.getElementById("card-area")).after(area);
    window.scrollTo(0, 0);
    return true;
  };
  // The sheet's height and scroll are measured in the next frame, not in the swap: reading a
  // size there makes the browser lay out the whole page while an update is still going in,
  // and the new row waited for it (about 3 ms a layout on a phone, more on a busy one). Asked
  // for as the rows go in, not once they have settled, so that the frame that first shows a
  // new row already has it scrolled into view.
  const fitInNextFrame = coalesced((run) => requestAnimationFrame(run), fitAndScroll);
  document.body.addEventListener("htmx:afterSwap", fitInNextFrame);
  document.body.addEventListener("htmx:oobAfterSwap", fitInNextFrame);
  document.body.addEventListener("htmx:afterSettle", () => {
    if (shareAfterFirstTurn()) fitInNextFrame();  // the sheet moved up the page
  });
  window.addEventListener("resize", fitSheet);
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

  document.addEventListener("focusin", (event) => {
    if (event.target.matches?.("input.copy")) event.target.select();
  });

  // Dice thrown at the table: each face button adds a die to the field beside it (⌫ takes the
  // last one off), so a roll is entered in a few taps, as the dice lie on the table.
  document.addEventListener("click", (event) => {
    const button = event.target.closest?.(".dice-entry button.face");
    if (!button) return;
    const field = button.closest(".dice-entry").querySelector("[data-dice-entry]");
    const faces = field.value.replace(/[^1-6]/g, "");
    field.value = button.dataset.face ? (faces + button.dataset.face).slice(0, 6) : faces.slice(0, -1);
  });
})();
