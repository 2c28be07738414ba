// The hub's events pages: the list of events, an event (players, rounds,
// standings, and for the director: players, pairing, pushing, results),
// a player's games. Everything comes from /api/events; text is put in
// with textContent only.
"use strict";

const main = document.getElementById("main");
let director = false;

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const k of kids) if (k != null) e.append(k instanceof Node ? k : String(k));
  return e;
}

function say(text, error) {
  const m = document.getElementById("message");
  m.textContent = text || "";
  m.className = error ? "error" : "";
}

async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (method !== "GET") opts.headers["X-Boardd-Request"] = "1";
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const r = await fetch(path, opts);
  const data = await r.json().catch(() => ({}));
  if (!r.ok) {
    const msg = Array.isArray(data) ? data.filter((t) => !t.ok).map((t) => `${t.board}: ${t.error}`).join("; ") : data.error;
    throw new Error(msg || `${method} ${path}: ${r.status}`);
  }
  return data;
}

function act(f) {
  return async (ev) => {
    if (ev) ev.preventDefault();
    try { say(""); await f(ev); } catch (e) { say(e.message, true); }
  };
}

async function me() {
  const m = await api("GET", "/api/director/me");
  director = m.director;
  document.getElementById("login").hidden = director || !m.can_login;
  document.getElementById("who").hidden = !director;
}

document.getElementById("login").addEventListener("submit", act(async () => {
  await api("POST", "/api/director/login", { password: document.getElementById("password").value });
  document.getElementById("password").value = "";
  await route();
}));
document.getElementById("logout").addEventListener("click", act(async () => {
  await api("POST", "/api/director/logout");
  await route();
}));

function table(head, rows) {
  return el("table", {}, el("thead", {}, el("tr", {}, ...head.map((h) => el("th", {}, h)))),
    el("tbody", {}, ...rows.map((r) => el("tr", {}, ...r.map((c) => el("td", {}, c))))));
}

async function listPage() {
  document.title = "Events · boardd hub";
  const evs = await api("GET", "/api/events");
  main.replaceChildren(el("h1", {}, "Events"),
    evs.length ? table(["Event", "Kind", "Rounds", "Boards"], evs.map((e) => [
      el("a", { href: `/events/${e.id}` }, e.name), e.kind, e.rounds, e.boards.join(", ")])) : el("p", {}, "No event yet."));
  if (!director) return;
  const f = el("form", { class: "director" }, el("h2", {}, "New event"),
    el("label", {}, "Name ", el("input", { name: "name", required: "" })),
    el("label", {}, "Kind ", el("select", { name: "kind" }, el("option", { value: "ffa" }, "FFA"), el("option", { value: "teams" }, "Teams"))),
    el("label", {}, "Time control ", el("input", { name: "time_control", placeholder: "10+5", size: 6 })),
    el("label", {}, "Rounds ", el("input", { name: "rounds", type: "number", min: 1, max: 30, value: 4 })),
    el("label", {}, "Boards ", el("input", { name: "boards", placeholder: "club-1, club-2" })),
    el("button", {}, "Create"));
  f.addEventListener("submit", act(async () => {
    const d = new FormData(f);
    const e = await api("POST", "/api/events", {
      name: d.get("name"), kind: d.get("kind"), time_control: d.get("time_control"),
      rounds: Number(d.get("rounds")), boards: splitList(d.get("boards")),
    });
    location.href = `/events/${e.id}`;
  }));
  main.append(f);
}

function splitList(s) { return String(s || "").split(",").map((x) => x.trim()).filter(Boolean); }

function seatCell(s, id) {
  return el("span", { class: s.seat }, `${s.seat}: `, el("a", { href: `/events/${id}/players/${s.player}` }, s.name));
}

function resultText(t, kind) {
  const r = t.result;
  if (!t.game) return t.pushed_at ? "pushed, waiting for the board" : "";
  if (!r) return "";
  if (!r.result) return r.status === "over" ? `over (${r.reason || "no result"})` : "playing";
  let s = kind === "teams"
    ? (r.result.winners && r.result.winners.length ? `won by ${r.result.winners.join(" and ")}` : "drawn")
    : (r.result.points || []).join(" / ");
  if (r.corrected) s += ` (corrected: ${r.note})`;
  return s;
}

async function eventPage(id) {
  const v = await api("GET", `/api/events/${id}`);
  const e = v.event;
  document.title = `${e.name} · boardd hub`;
  const kids = [el("h1", {}, e.name),
    el("p", {}, `${e.kind === "teams" ? "Teams" : "FFA"} · ${e.variant} · ${e.time_control || "board's clock"} · ${e.rounds} rounds · boards: ${e.boards.join(", ") || "none"} · `,
      el("a", { href: `/api/events/${id}/pgn4` }, "all games (PGN4)"), " · ",
      el("a", { href: `/api/events/${id}/standings.csv` }, "standings (CSV)"))];
  kids.push(el("h2", {}, "Standings"));
  if (e.kind === "teams") {
    kids.push(table(["#", "Team", "Match points", "W", "D", "L", "H2H", "SB", "Byes"], v.standings.map((s) => [
      s.rank + (s.shared ? "=" : ""), s.name, s.match_points, s.wins, s.draws, s.losses, s.head_to_head, s.sb, s.byes])));
  } else {
    kids.push(table(["#", "Player", "Points", "Firsts", "SB", "Games", "Byes"], v.standings.map((s) => [
      s.rank + (s.shared ? "=" : ""), el("a", { href: `/events/${id}/players/${s.unit}` }, s.name), s.points, s.firsts, s.sb, s.games, s.byes])));
  }
  for (const r of v.rounds.slice().reverse()) {
    kids.push(el("h2", {}, `Round ${r.number}`, " ", el("a", { href: `/api/events/${id}/rounds/${r.number}/pgn4` }, "(PGN4)")));
    kids.push(table(["Table", "Board", "Seats", "Result", ""], r.tables.map((t) => [
      t.table, t.board, el("span", {}, ...t.seats.flatMap((s) => [seatCell(s, id), el("br")])),
      el("span", {}, resultText(t, e.kind), t.push_error ? el("span", { class: "error" }, ` ${t.push_error}`) : null),
      director && t.game ? el("button", { type: "button", onclick: act(() => correct(id, e.kind, r.number, t)) }, "Correct") : "",
    ])));
    if (r.byes.length) kids.push(el("p", {}, "Bye: " + r.byes.map((b) => b.name).join(", ")));
    if (director) {
      const row = el("p", { class: "director" });
      if (!r.pushed) row.append(el("button", { type: "button", onclick: act(() => pair(id, r.number)) }, `Pair round ${r.number} again`), " ");
      row.append(el("button", { type: "button", onclick: act(() => push(id, r.number)) }, r.pushed ? `Push round ${r.number} again` : `Push round ${r.number} to the boards`));
      kids.push(row);
    }
  }
  if (director && v.rounds.length < e.rounds) {
    const n = v.rounds.length + 1;
    kids.push(el("p", { class: "director" }, el("button", { type: "button", onclick: act(() => pair(id, n)) }, `Pair round ${n}`)));
  }
  kids.push(el("h2", {}, e.kind === "teams" ? "Teams" : "Players"));
  kids.push(el("ol", {}, ...v.units.map((u) => el("li", {}, ...u.players.flatMap((p, i) => [i ? " & " : "", el("a", { href: `/events/${id}/players/${p.player}` }, p.name)])))));
  if (director) {
    const ta = el("textarea", { name: "players" });
    ta.value = v.units.map((u) => u.players.map((p) => p.name).join(" & ")).join("\n");
    const f = el("form", { class: "director" }, el("h3", {}, e.kind === "teams" ? "Teams: one a line, “Ann & Cy”" : "Players: one a line"), ta, el("button", {}, "Save players"));
    f.addEventListener("submit", act(async () => {
      await api("PUT", `/api/events/${id}/players`, { text: ta.value });
      await route();
      say("Players saved.");
    }));
    kids.push(f);
    const b = el("input", { value: e.boards.join(", ") });
    const rounds = el("input", { type: "number", min: 1, max: 30, value: e.rounds });
    const g = el("form", { class: "director" }, el("label", {}, "Boards ", b), el("label", {}, "Rounds ", rounds), el("button", {}, "Save"));
    g.addEventListener("submit", act(async () => {
      await api("PUT", `/api/events/${id}`, { name: e.name, kind: e.kind, variant: e.variant, time_control: e.time_control, rounds: Number(rounds.value), boards: splitList(b.value) });
      await route();
    }));
    kids.push(g);
  }
  main.replaceChildren(...kids);
}

async function pair(id, n) {
  await api("POST", `/api/events/${id}/rounds/${n}/pair`);
  await route();
  say(`Round ${n} paired.`);
}

async function push(id, n) {
  let res;
  try {
    res = await api("POST", `/api/events/${id}/rounds/${n}/push`, {});
  } catch (e) {
    if (!/in progress/.test(e.message) || !confirm(`${e.message}\n\nAbandon those games and push?`)) throw e;
    res = await api("POST", `/api/events/${id}/rounds/${n}/push`, { force: true });
  }
  await route();
  say(`Round ${n}: sent to ${res.map((t) => t.board).join(", ")}.`);
}

async function correct(id, kind, n, t) {
  const body = {};
  if (kind === "teams") {
    const w = prompt("Winners: Red Yellow, Blue Green, or empty for a draw", "");
    if (w === null) return;
    body.winners = w.split(/[\s,]+/).filter(Boolean);
  } else {
    const p = prompt("Points, Red Blue Yellow Green", ((t.result && t.result.result && t.result.result.points) || [0, 0, 0, 0]).join(" "));
    if (p === null) return;
    body.points = p.split(/[\s,]+/).filter(Boolean).map(Number);
    body.winners = [];
  }
  body.note = prompt("Why (kept with the correction)", "") || "";
  await api("POST", `/api/events/${id}/rounds/${n}/tables/${t.table}/result`, body);
  await route();
  say("Result corrected.");
}

async function playerPage(id, pid) {
  const v = await api("GET", `/api/events/${id}/players/${pid}`);
  document.title = `${v.name} · ${v.event.name}`;
  const s = v.standing;
  main.replaceChildren(el("h1", {}, v.name),
    el("p", {}, el("a", { href: `/events/${id}` }, v.event.name),
      s ? ` · place ${s.rank}${s.shared ? "=" : ""} · ${v.event.kind === "teams" ? `${s.match_points} match points` : `${s.points} points, ${s.firsts} firsts`}` : ""),
    table(["Round", "Board", "Seat", "Table", "Result"], v.games.map((g) => g.bye ? [g.round, "", "", "bye", ""] : [
      g.round, g.board, el("span", { class: g.seat }, g.seat),
      el("span", {}, ...g.seats.flatMap((x) => [seatCell(x, id), " "])),
      g.score || (g.points != null ? `${g.points} points, place ${g.place}` : (g.result ? g.result.status : "")),
    ])));
}

async function route() {
  try {
    await me();
    const p = location.pathname.split("/").filter(Boolean);
    if (p.length === 1) await listPage();
    else if (p.length === 2) await eventPage(p[1]);
    else if (p.length === 4 && p[2] === "players") await playerPage(p[1], p[3]);
  } catch (e) {
    say(e.message, true);
  }
}

route();
