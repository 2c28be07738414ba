'use strict';
// The club hub's stored games: search by player, event, date and board
// (GET /api/games), open one in the board's viewer (/board/NAME?view=ID:
// step through moves, clocks, points) or download its PGN4.
(function () {
  const { SEATS, el, seatClass } = window.boardd;
  const $ = (id) => document.getElementById(id);
  const FIELDS = ['player', 'event', 'date', 'board'];

  async function search() {
    const q = new URLSearchParams();
    for (const f of FIELDS) {
      const v = $('q-' + f).value.trim();
      if (v) q.set(f, v);
    }
    history.replaceState(null, '', location.pathname + (q.toString() ? '?' + q : ''));
    const note = $('games-note');
    let list;
    try {
      const res = await fetch('/api/games?' + q);
      list = await res.json();
      if (!res.ok) throw new Error(list.error || res.statusText);
    } catch (e) {
      note.textContent = 'The games could not be listed: ' + e.message;
      return;
    }
    note.textContent = list.length ? list.length + (list.length === 1 ? ' game' : ' games') + (list.length === 500 ? ' (the newest 500: narrow the search)' : '') : 'No stored game matches.';
    const table = $('hub-games');
    table.textContent = '';
    if (!list.length) return;
    const head = table.createTHead().insertRow();
    for (const h of ['Date', 'Board', 'Event', 'Players', 'Result', 'Moves', '']) head.append(el('th', '', h));
    const body = table.createTBody();
    for (const g of list) {
      const row = body.insertRow();
      row.dataset.id = g.id;
      row.append(el('td', 'g-date', g.started.replace('T', ' ').slice(0, 16)), el('td', 'g-board', g.board),
        el('td', 'g-event', [g.event, g.round && 'round ' + g.round].filter(Boolean).join(' · ')));
      const players = el('td', 'g-players');
      for (const s of SEATS) {
        if (!g.players[s]) continue;
        const p = el('span');
        p.append(el('span', 'dot ' + seatClass(s)), g.players[s]);
        players.append(p);
      }
      const result = el('td', 'g-result', g.status === 'over' || g.corrected ? (g.result === '*' ? 'unfinished' : g.result) + (g.reason && !g.corrected ? ' (' + g.reason + ')' : '') : 'playing');
      if (g.corrected) {
        // the director's correction, as the PGN4 download has it; the board's own result in the tooltip
        result.append(' ', el('span', 'badge corrected', 'corrected'));
        result.title = 'corrected by the tournament director: ' + g.correction_note + ' (the board had: ' + (g.board_result || 'no result') + (g.reason ? ', ' + g.reason : '') + ')';
      }
      row.append(players, result, el('td', 'g-moves', String(g.moves)));
      const act = el('td', 'g-act');
      const view = el('a', 'button view', 'View');
      view.href = '/board/' + encodeURIComponent(g.board) + '?view=' + encodeURIComponent(g.id);
      const dl = el('a', 'button', 'PGN4');
      dl.href = '/api/games/' + encodeURIComponent(g.id) + '.pgn4?download=1';
      dl.setAttribute('download', '');
      act.append(view, dl);
      row.append(act);
    }
  }

  const params = new URLSearchParams(location.search);
  for (const f of FIELDS) $('q-' + f).value = params.get(f) || '';
  $('search').addEventListener('submit', (e) => { e.preventDefault(); search(); });
  search();
})();
