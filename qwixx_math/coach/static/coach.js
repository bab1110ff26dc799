// qwixx-math coach: the page. Every tap is a request; the server checks it with the rules core.
"use strict";

let view = null;
let shownRules = null;
const $ = (id) => document.getElementById(id);

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v;
    else if (k.startsWith("data-")) node.setAttribute(k, v);
    else node[k] = v;
  }
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

function say(text, ok) {
  const m = $("message");
  m.textContent = text || "";
  m.className = ok ? "ok" : "";
}

// requests under way, on the body for scripts and tests to wait on (data-busy="0": idle)
let busy = 0;
function setBusy(d) { busy += d; document.body.dataset.busy = String(busy); }

async function api(path, body) {
  setBusy(1);
  try {
    return await call(path, body);
  } finally {
    setBusy(-1);
  }
}

async function call(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)};
  const res = await fetch(path, init);
  const data = await res.json();
  if (!res.ok) {
    const err = new Error(data.error || res.statusText);
    err.rule = data.rule;
    throw err;
  }
  return data;
}

async function step(path, body) {
  setBusy(1);
  try {
    view = await api(path, body === undefined ? {} : body);
    say("");
    render();
    return true;
  } catch (e) {
    say(e.rule ? `Refused: ${e.message}` : e.message);
    return false;
  } finally {
    setBusy(-1);
  }
}

const PHASE_WORDS = {
  roll: "Enter or roll the dice",
  action1: "Everyone may mark the white sum; then press 'Action 1 done'",
  action2: "The active player may mark white + a colour, or press 'No action 2'",
  over: "The game is over",
};

function render() {
  const v = view;
  const who = v.players[v.active];
  let status = `Turn ${v.turn}: ${who} rolls. ${PHASE_WORDS[v.phase]}.`;
  if (v.phase === "over") {
    const winners = v.winners.map((i) => v.players[i]).join(" and ");
    status = `Game over (${v.ended_by}): ${winners} win${v.winners.length > 1 ? "" : "s"}.`;
  }
  $("status").textContent = status;
  $("rules-shown").textContent = rulesWords(v.ruleset);
  const rules = JSON.stringify(v.ruleset);
  if (rules !== shownRules) { showRules(v.ruleset); shownRules = rules; }  // a new game, a load
  const dice = $("dice");
  dice.replaceChildren();
  if (v.roll) {
    for (const part of v.roll.split("/")) {
      const [key, faces] = part.split(":");
      const cls = {w: "white", r: "red", y: "yellow", g: "green", b: "blue"}[key];
      for (const f of faces.split(",")) dice.append(el("span", {class: `die ${cls}`}, f));
    }
    dice.append(el("span", {class: "note"}, ` white sum ${v.white_sum}`));
  }
  $("roll-form").hidden = v.phase !== "roll";
  $("done").hidden = v.phase !== "action1";
  $("skip").hidden = v.phase !== "action2";
  $("undo").disabled = !v.can_undo;
  const sheets = $("sheets");
  sheets.replaceChildren();
  v.sheets.forEach((sheet, p) => sheets.append(drawSheet(v, sheet, p)));
  const sel = $("advice-player");
  const keep = sel.value;
  sel.replaceChildren(...v.players.map((n, i) => el("option", {value: String(i)}, n)));
  sel.value = keep !== "" && Number(keep) < v.players.length ? keep : String(v.active);
  if (v.phase === "action2" || v.phase === "roll") sel.value = String(v.active);
  const layouts = $("layout");
  if (!layouts.options.length) {
    layouts.replaceChildren(...v.layouts.map((n) => el("option", {value: n}, n)));
  }
  $("advice").replaceChildren();
  $("advice-note").textContent = "";
  if (v.phase === "over" && !$("review").childElementCount) review();
}

// the game's rules in words when they are not the official ones (empty otherwise)
function rulesWords(r) {
  const words = [];
  if (r.action2_after_game_end) words.push("R15 Option: action 2 after the game ends");
  if (r.die_removal !== "immediate") words.push(`die removal ${r.die_removal} (R9)`);
  if (r.end_check !== "after_actions") words.push(`end check ${r.end_check} (R14)`);
  if (!r.simultaneous_close) words.push("no simultaneous close (R10)");
  return words.length ? `Rules: ${words.join("; ")}.` : "";
}

function showRules(r) {
  $("rule-a2").checked = r.action2_after_game_end;
  $("rule-die-removal").value = r.die_removal;
  $("rule-end-check").value = r.end_check;
  $("rule-simultaneous").checked = r.simultaneous_close;
}

// the colour cells a pending choice crosses: its own, and a Longo lucky choice's first mark
function pendingCells(m) {
  if (!m || m.bonus_row || m.colour === undefined) return [];
  return m.first ? [m, m.first] : [m];
}

function drawSheet(v, sheet, p) {
  const box = el("div", {class: "sheet" + (p === v.active ? " active" : ""), id: `sheet-${p}`});
  box.append(el("h3", {}, el("span", {}, v.players[p] + (p === v.active ? " (rolls)" : "")),
                el("span", {id: `score-${p}`}, `${v.scores[p]} points`)));
  const pending = pendingCells(v.pending[p]);
  for (const row of v.layout.rows) {
    const marks = new Set(sheet[row.lock]);
    const seconds = new Set((sheet.seconds || {})[row.lock] || []);  // Double A (DA1)
    const locked = sheet.locks.includes(row.lock);
    const closed = v.closed.includes(row.lock);
    const line = el("div", {class: `row ${row.lock}` + (closed ? " closed" : "")});
    row.numbers.forEach((n, k) => {
      let cls = `cell ${row.colours[k]}`;
      if (row.doubles[k]) cls += " double";
      if (marks.has(n)) cls += " marked";
      if (seconds.has(n)) cls += " seconded";
      if (pending.some((m) => m.colour === row.lock && m.number === n)) cls += " pending";
      const b = el("button", {class: cls, type: "button", id: `cell-${p}-${row.lock}-${n}`,
                              title: `${v.players[p]}: ${row.lock} row, ${n}`}, n);
      b.addEventListener("click", () => step("/api/tap", {player: p, colour: row.lock, number: n}));
      line.append(b);
    });
    line.append(el("span", {class: "lock" + (locked ? " locked" : ""), title: locked ? "locked" : "lock"},
                   locked ? "\u2713" : ""));
    box.append(line);
    for (const bonus of v.layout.bonus_rows) {  // Qwixx Big Points: a bonus row under its colour row
      if (bonus.after === row.lock) box.append(drawBonusRow(v, sheet, p, bonus));
    }
  }
  if (sheet.bar !== undefined) {  // Qwixx Bonus A: the bonus bar (BA1)
    box.append(el("div", {class: "note", id: `bar-${p}`}, `Bonus bar ${sheet.bar}`));
  }
  if (v.layout.exchange.length) {  // Qwixx X-Change: the track; tapping a cell exchanges by itself
    const used = new Set(sheet.exchange);
    const last = sheet.exchange.length ? sheet.exchange[sheet.exchange.length - 1] : -1;
    const pendingField = v.pending[p] ? v.pending[p].field : undefined;
    const track = el("div", {class: "track", id: `track-${p}`}, "X-Change ");
    v.layout.exchange.forEach(([a, b], k) => {
      let cls = "field";
      if (used.has(k)) cls += " used";
      else if (k < last) cls += " lost";
      if (pendingField === k) cls += " pending";
      const f = el("span", {class: cls, id: `field-${p}-${k}`,
                            title: `field ${k}: ${a} for ${b} or ${b} for ${a}`}, `${a}/${b}`);
      // a field spent alone (XC4, only under the Option xc_field_without_cross)
      f.addEventListener("click", () => step("/api/tap", {player: p, field: k}));
      track.append(f);
    });
    box.append(track);
  }
  const pen = el("div", {class: "penalties"}, "Penalties ");
  for (let i = 0; i < v.layout.penalty_boxes; i++) {
    pen.append(el("span", {class: "penalty" + (i < sheet.penalties ? " taken" : "")},
                  i < sheet.penalties ? "\u2715" : ""));
  }
  box.append(pen);
  return box;
}

// a Big Points bonus row (BP1): its cells are tapped like the colour cells
function drawBonusRow(v, sheet, p, bonus) {
  const crossed = new Set(sheet.bonus_rows[bonus.name]);
  const pending = v.pending[p];
  const line = el("div", {class: `row bonus ${bonus.name}`, id: `bonus-row-${p}-${bonus.name}`});
  for (const n of bonus.numbers) {
    let cls = "cell bonus";
    if (crossed.has(n)) cls += " marked";
    if (pending && pending.bonus_row === bonus.name && pending.number === n) cls += " pending";
    const b = el("button", {class: cls, type: "button", id: `bonus-${p}-${bonus.name}-${n}`,
                            title: `${v.players[p]}: bonus row ${bonus.name.toUpperCase()}, ${n}`}, n);
    b.addEventListener("click", () => step("/api/tap", {player: p, bonus_row: bonus.name, number: n}));
    line.append(b);
  }
  return line;
}

function pct(x) { return (100 * x).toFixed(1); }

function busyWhile(fn) {
  return async (...args) => {
    setBusy(1);
    try { return await fn(...args); } finally { setBusy(-1); }
  };
}

const advise = busyWhile(async (rollouts) => {
  const player = Number($("advice-player").value);
  $("advice-note").textContent = (rollouts ? "Playing the rollouts..." : "Ranking the choices...") +
    " (the first advice for a table size or sheet may solve its table: a minute or more)";
  let a;
  try {
    a = await api("/api/advice", {player, rollouts});
    while (a.building) {  // the table is being solved in the background: ask again
      $("advice").replaceChildren();
      $("advice-note").textContent = a.unavailable + " (asking again every 3 s)";
      await new Promise((resolve) => setTimeout(resolve, 3000));
      a = await api("/api/advice", {player, rollouts});
    }
  } catch (e) {
    $("advice").replaceChildren();
    $("advice-note").textContent = e.message;
    return;
  }
  if (a.unavailable) {
    $("advice").replaceChildren();
    $("advice-note").textContent = a.unavailable;
    return;
  }
  const head = el("tr", {}, ...["#", "plan", "in words", "EV", "EV loss", "win (model)"]
    .concat(a.rollouts ? ["win (rollouts) \u00b1 se", "95% CI"] : []).map((h) => el("th", {}, h)));
  const rows = a.plans.map((r, i) => {
    const cells = [el("td", {}, i + 1), el("td", {}, r.plan), el("td", {}, r.description),
      el("td", {class: "num"}, r.expected_score.toFixed(2)),
      el("td", {class: `num t-${r.tutor.replace(" ", "-")}`, title: r.tutor}, r.loss.toFixed(2)),
      el("td", {class: "num"}, r.win_model === null ? "\u2013" : pct(r.win_model) + "%")];
    if (a.rollouts) {
      cells.push(el("td", {class: "num"}, r.win_exact ? `${pct(r.win)}% exact`
        : `${pct(r.win)}% \u00b1 ${pct(r.win_se)}`));
      cells.push(el("td", {class: "num"}, `[${pct(r.win_ci95[0])}, ${pct(r.win_ci95[1])}]`));
    }
    return el("tr", {class: `t-${r.tutor.replace(" ", "-")}`}, ...cells);
  });
  $("advice").replaceChildren(head, ...rows);
  let note = `${view.players[player]}, ${a.passive ? "white sum (passive)" : "active"}; EV: exact ` +
    `expected final score, ${a.model}; ${a.rules}. Win (model): ${a.win_model}.`;
  if (a.rollouts) {
    note += ` Rollouts: ${a.rollouts.count} per choice, seed ${a.rollouts.seed}, played by ` +
      `${a.rollouts.players.join(", ")}.`;
  }
  $("advice-note").textContent = note;
});

const review = busyWhile(async () => {
  let r;
  try {
    r = await api("/api/review");
  } catch (e) {
    $("review").textContent = e.message;
    return;
  }
  if (r.unavailable) {  // no table for this sheet: the library's reason, with its rule id
    $("review").replaceChildren(el("p", {class: "note", id: "review-unavailable"}, r.unavailable));
    return;
  }
  const out = [el("p", {class: "note"}, `Each decision valued by ${r.model}` +
    (r.over ? "." : "; the game is not over yet."))];
  for (const rv of r.reviews) {
    out.push(el("h3", {}, `${rv.player}: ${rv.final_score} points`));
    out.push(el("p", {}, `${rv.decisions} decisions, ${rv.optimal_decisions} optimal; EV loss ` +
      `${rv.total_loss.toFixed(2)} in total, ${rv.mean_loss.toFixed(3)} per decision.`));
    const head = el("tr", {}, ...["turn", "role", "roll", "played", "better", "loss"]
      .map((h) => el("th", {}, h)));
    const rows = rv.all_decisions.filter((d) => d.loss > 1e-9).map((d) => el("tr", {}, el("td", {}, d.turn),
      el("td", {}, d.active ? "active" : "passive"), el("td", {}, d.roll),
      el("td", {}, d.chosen.plan), el("td", {}, d.best.plan),
      el("td", {class: `num t-${d.tutor.replace(" ", "-")}`}, d.loss.toFixed(2))));
    out.push(rows.length ? el("table", {class: "review-table"}, head, ...rows)
      : el("p", {}, "Every decision was optimal."));
  }
  $("review").replaceChildren(...out);
});

function download() {
  api("/api/record").then((rec) => {
    const blob = new Blob([JSON.stringify(rec, null, 1)], {type: "application/json"});
    const a = el("a", {href: URL.createObjectURL(blob), download: "qwixx-game.json"});
    document.body.append(a);
    a.click();
    a.remove();
  }, (e) => say(e.message));
}

function wire() {
  $("new-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const players = Number($("players").value);
    const names = $("names").value.trim();
    const body = {players, layout: $("layout").value, ruleset: {
      action2_after_game_end: $("rule-a2").checked, die_removal: $("rule-die-removal").value,
      end_check: $("rule-end-check").value, simultaneous_close: $("rule-simultaneous").checked}};
    if (names) body.names = names.split(",").map((s) => s.trim());
    step("/api/new", body).then(() => $("review").replaceChildren());
  });
  $("roll-form").addEventListener("submit", (e) => {
    e.preventDefault();
    step("/api/roll", {roll: $("roll-input").value.trim()}).then((ok) => {
      if (ok) $("roll-input").value = "";
    });
  });
  $("random-roll").addEventListener("click", () => step("/api/roll", {roll: null}));
  $("done").addEventListener("click", () => step("/api/done"));
  $("skip").addEventListener("click", () => step("/api/skip"));
  $("undo").addEventListener("click", () => step("/api/undo"));
  $("advice-btn").addEventListener("click", () => advise(false));
  $("rollouts-btn").addEventListener("click", () => advise(true));
  $("review-btn").addEventListener("click", review);
  $("save").addEventListener("click", async () => {
    try {
      const s = await api("/api/save", {});
      say(`Saved ${s.turns} turns to ${s.saved}: ` +
        (s.valid ? "the record validates clean." : s.violations.join("; ")), s.valid);
    } catch (e) { say(e.message); }
  });
  $("load").addEventListener("click", () => step("/api/load"));
  $("download").addEventListener("click", download);
  $("upload").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    let data;
    try { data = JSON.parse(await file.text()); } catch (err) { say(`not JSON: ${err.message}`); return; }
    step("/api/record", data);
    e.target.value = "";
  });
}

async function start() {
  wire();
  try {
    view = await api("/api/state");
    render();
    $("layout").value = view.layout.name;
    $("players").value = String(view.players.length);
  } catch (e) { say(e.message); }
  document.body.dataset.ready = "1";
  if (!busy) document.body.dataset.busy = "0";
}

start();
