// Dice made by the whole table (games/rules/chance.py explains the scheme). On a game's page,
// the host's and each player's phone keep a secret in this browser, join with its SHA-256
// before the first roll, send their part of each roll (HMAC of the roll's label): the phone
// whose roll it is with the roll, every other once the roll has been asked for and waits for
// it (so nobody knows every part before the roller has chosen); when the wait runs out, any
// phone asks for the roll to be made without the parts that did not come; and they show the
// secret once the game is over. On the check page, every roll is rolled again here
// from the seed and every part, each part checked against its phone's secret.
// SHA-256 comes from js-sha256 (static/sha256-1.0.0.min.js): the browser's own crypto.subtle
// is missing on the plain-http address phones at the table use.
(() => {
  "use strict";
  const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  const bytesOf = (text) => Uint8Array.from(text.match(/../g) || [], (h) => parseInt(h, 16));
  const utf8 = (text) => new TextEncoder().encode(text);
  const join = (...parts) => {
    const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const part of parts) { all.set(part, at); at += part.length; }
    return all;
  };
  const partOf = (secret, label) => sha256.hmac(bytesOf(secret), "thirty:part:" + label);

  // The dice of one roll, as games.rules.dice.rolled.table_dice draws them from the seed and
  // the roll's parts, joined in the order the roll keeps them.
  const rollAgain = (seed, parts, turn, step, count) => {
    const key = new Uint8Array(sha256.array(join(bytesOf(seed), ...parts.map(bytesOf))));
    const dice = [];
    for (let block = 0; dice.length < count; block += 1) {
      const label = utf8(`:turn:${turn}:roll:${step}:${block}`);
      for (const byte of sha256.array(join(key, label))) {
        if (byte < 252 && dice.length < count) dice.push((byte % 6) + 1);
      }
    }
    return dice;
  };

  const csrf = () => JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"];
  const storageKey = (game) => `thirty-table-secret-${game}`;
  const secretFor = (game) => {
    let secret = localStorage.getItem(storageKey(game));
    if (!secret) {
      secret = hex(crypto.getRandomValues(new Uint8Array(32)));
      localStorage.setItem(storageKey(game), secret);
    }
    return secret;
  };
  const send = (url, fields) => fetch(url, {
    method: "POST",
    headers: { "X-CSRFToken": csrf(), "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
    credentials: "same-origin",
  });

  // A game's page: join, send this phone's part of each roll, and show the secret at the
  // end. Each is sent once, and again a moment later if it did not get through (a phone on a
  // weak network, or a page busy with many updates at once); the server answers the same for
  // a repeat. The region says which roll's part this phone has sent (data-sent).
  const sending = new Set();
  const sent = new Set();
  const finishing = new Set();
  const once = (what, url, fields) => {
    if (sending.has(what)) return;
    sending.add(what);
    const again = () => { sending.delete(what); setTimeout(tend, 1000); };
    send(url, fields).then((answer) => {
      if (answer.status >= 500) { again(); return; }
      if (answer.ok) sent.add(what);
      // Done, or refused because the page was behind the game: asked again only where the
      // page still says so a moment later (a phone that missed a roll joins again).
      setTimeout(() => { sending.delete(what); tend(); }, 2000);
      if (answer.ok) tend();
    }, again);
  };
  const tend = () => {
    const area = document.getElementById("table-dice");
    if (!area || !area.dataset.url) return;
    const secret = secretFor(area.dataset.game);
    if (area.dataset.joined === "0") {
      once("join", area.dataset.url, { commitment: sha256(bytesOf(secret)) });
      return;
    }
    const label = area.dataset.label;
    if (label && area.dataset.finished === "0" && area.dataset.withhold === "0") {
      const what = "part " + label;
      if (sent.has(what)) area.dataset.sent = label;
      else once(what, area.dataset.url, { label, part: partOf(secret, label) });
    }
    const waiting = area.dataset.waiting;
    if (waiting && !finishing.has(waiting)) {
      // The server says how long the roll still waits; once it has, ask for it to be made,
      // and again a moment later while the page still shows it waiting. A roll made
      // meanwhile (every part came) is not asked for: at a table that rolls quickly, one
      // such request per roll would pile up on the phone and on the server.
      finishing.add(waiting);
      const stillWaiting = () => document.getElementById("table-dice")?.dataset.waiting === waiting;
      setTimeout(() => {
        if (!stillWaiting()) return;
        send(area.dataset.url, { finish: waiting }).finally(() => {
          setTimeout(() => { finishing.delete(waiting); tend(); }, 1000);
        });
      }, Number(area.dataset.dueMs || 0) + 250);
    }
    if (area.dataset.finished === "1" && area.dataset.revealed === "0") {
      once("reveal", area.dataset.url, { secret });
    }
  };
  if (document.getElementById("table-dice")) {
    tend();
    // The region is replaced with every live update, whichever way it came (an update in
    // the stream, or a poll): look again whenever the page changes.
    new MutationObserver(tend).observe(document.body, { childList: true, subtree: true });
    // Every dice move (a roll, or a typed-in turn, for the computers that roll after it)
    // carries this phone's part of the next roll, as the page it was asked from showed it.
    document.body.addEventListener("htmx:configRequest", (event) => {
      const area = document.getElementById("table-dice");
      const path = event.detail.path || "";
      if (!area || !area.dataset.url || !/\/(move|roll|turn)$/.test(path)) return;
      const label = area.dataset.label;
      if (label && event.detail.parameters.v) {
        event.detail.parameters.part = partOf(secretFor(area.dataset.game), label);
      }
    });
  }

  // The check page.
  const data = document.getElementById("check-data");
  const result = document.getElementById("check-result");
  if (data && result) {
    const game = JSON.parse(data.textContent);
    const secrets = new Map();
    const problems = [];
    const phone = (seat) => (seat === null ? "host" : "seat " + (seat + 1));
    for (const part of game.parts) {
      if (!part.secret) continue;
      if (sha256(bytesOf(part.secret)) !== part.commitment) {
        problems.push(`${phone(part.seat)}: secret ≠ SHA-256`);
      } else {
        secrets.set(part.seat, part.secret);
      }
    }
    if (sha256(bytesOf(game.seed)) !== game.seed_sha256) problems.push("seed ≠ SHA-256");
    let checked = 0;
    let unchecked = 0;
    for (const roll of game.rolls) {
      const name = `${roll.number}.${roll.step + 1}`;
      let whole = true;
      for (const entry of roll.parts) {
        const secret = secrets.get(entry.seat);
        if (!secret) whole = false;
        else if (partOf(secret, roll.label) !== entry.part) problems.push(`${name}: ${phone(entry.seat)}`);
      }
      // Every roll rolls again from the parts it kept, also one whose parts cannot all be
      // checked: its dice still follow from the seed and those parts, or do not.
      const parts = roll.parts.map((entry) => entry.part);
      const dice = rollAgain(game.seed, parts, roll.number, roll.step, roll.dice.length);
      if (dice.join(",") !== roll.dice.join(",")) problems.push(`${name}: ${roll.dice} ≠ ${dice}`);
      if (whole) checked += 1;
      else unchecked += 1;
    }
    const list = document.getElementById("check-list");
    for (const text of problems) {
      const item = document.createElement("li");
      item.textContent = text;
      list.append(item);
    }
    if (problems.length) result.textContent = `${result.dataset.bad} ${problems.length}`;
    else result.textContent = unchecked ? result.dataset.some : result.dataset.ok;
    result.dataset.result = problems.length ? "mismatch" : "match";
    result.dataset.checked = String(checked);
    result.dataset.unchecked = String(unchecked);
  }
})();
