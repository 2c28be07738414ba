'use strict';
// The club hub's page of every board: a tile per board, its mini board
// drawn by the board's own board.js, kept up to date by the hub's event
// stream (GET /api/live: "board" events with a board's view, "message"
// events with every stored message). A click opens the board's full
// display (/board/NAME). Plain browser JavaScript, no build step.
(function () {
  const { SEATS, el, seatClass, formatClock } = window.boardd;
  const $ = (id) => document.getElementById(id);
  const tiles = new Map(); // board name -> tile
  const hub = { last: 0, retry: 1000, messages: 0 };

  // The seats listed beside a small board, in the order of play.
  const ORDER = [0, 1, 2, 3];
  const STATUS = {
    playing: 'playing', finished: 'finished', offline: 'offline', 'set-up': 'set-up', idle: 'no game yet',
    paused: 'paused: disk', sensor_fault: 'sensor fault',
  };

  function makeTile(name) {
    const a = el('a', 'tile');
    a.href = '/board/' + encodeURIComponent(name);
    a.dataset.board = name;
    a.title = name + ': the full live display';
    const mini = el('div', 'mini');
    const root = el('div', 'board');
    mini.append(root);
    const info = el('div', 'tile-info');
    const t = {
      a, name, board: new window.boardd.Board(root), view: null,
      name_: el('div', 'tile-name', name), badge: el('span', 'badge'), event: el('div', 'tile-event'),
      turn: el('div', 'tile-turn'), last: el('div', 'tile-last'), team: el('div', 'tile-team'), seats: el('ol', 'seats'),
    };
    const head = el('div', 'tile-head');
    head.append(t.name_, t.badge);
    info.append(head, t.turn, t.last, t.event, t.team, t.seats);
    a.append(mini, info);
    // Keep the tiles in the boards' order.
    const names = [...tiles.keys(), name].sort();
    const next = names[names.indexOf(name) + 1];
    $('tiles').insertBefore(a, next ? tiles.get(next).a : null);
    tiles.set(name, t);
    $('empty').hidden = true;
    fit();
    return t;
  }

  // eventLine is "Club night · round 3", from the game's tags.
  function eventLine(tags) {
    tags = tags || {};
    return [tags.Event, tags.Round && 'round ' + tags.Round].filter(Boolean).join(' · ');
  }

  function render(v) {
    const t = tiles.get(v.board) || makeTile(v.board);
    t.view = v;
    const st = v.state || {};
    t.a.dataset.status = v.status;
    t.a.dataset.seq = v.seq;
    t.badge.className = 'badge s-' + v.status;
    t.badge.textContent = STATUS[v.status] || v.status;
    t.event.textContent = eventLine(st.tags);
    if ((st.squares || []).length) t.board.render(st);
    // Whose turn, or how the game ended.
    t.turn.textContent = '';
    if (st.status === 'over' && st.result) {
      const w = st.result.winners || [];
      t.turn.textContent = (w.length ? w.join(' & ') + (w.length > 1 ? ' win' : ' wins') : 'No winner') + (st.result.pgn4 ? ' (' + st.result.pgn4 + ')' : '');
    } else if (st.game && st.turn) {
      const seat = (st.seats || []).find((s) => s.seat === st.turn);
      t.turn.append(el('span', 'dot ' + seatClass(st.turn)), ((seat && seat.player) || st.turn) + ' to move');
      t.turn.title = st.turn + ' to move';
    }
    t.last.textContent = '';
    if (v.last_move) t.last.append(el('span', 'lbl', 'move ' + v.moves), v.last_move);
    // Teams: who plays with whom.
    const seats = st.seats || [];
    const who = (i) => (seats[i] && seats[i].player) || SEATS[i];
    t.team.textContent = /teams|partner|double/i.test(st.variant || '') ? who(0) + ' & ' + who(2) + ' vs ' + who(1) + ' & ' + who(3) : '';
    renderSeats(t);
  }

  // renderSeats lists the seats beside a board too small for its cards.
  function renderSeats(t) {
    const st = (t.view && t.view.state) || {};
    const seats = st.seats || [];
    const scored = /ffa/i.test(st.variant || '') || seats.some((s) => s.points);
    if (t.seats.children.length !== seats.length) {
      t.seats.textContent = '';
      for (const s of ORDER.map((i) => seats[i]).filter(Boolean)) {
        const li = el('li', seatClass(s.seat));
        li.append(el('span', 'dot'), el('span', 'nm'), el('span', 'pt'), el('span', 'ck'));
        t.seats.append(li);
      }
    }
    ORDER.map((i) => seats[i]).filter(Boolean).forEach((s, i) => {
      const li = t.seats.children[i];
      li.children[1].textContent = s.player || s.seat;
      li.children[2].textContent = scored ? s.points + ' pts' : '';
      li.classList.toggle('turn', st.status !== 'over' && st.turn === s.seat);
      li.classList.toggle('out', s.status !== 'playing' && s.status !== 'walking');
    });
    tickSeats(t);
  }

  function tickSeats(t) {
    const st = (t.view && t.view.state) || {};
    const elapsed = performance.now() - t.board.stateAt;
    ORDER.map((i) => (st.seats || [])[i]).filter(Boolean).forEach((s, i) => {
      const ck = t.seats.children[i] && t.seats.children[i].children[3];
      if (ck) ck.textContent = s.clock_ms < 0 ? '' : formatClock(s.running ? s.clock_ms - elapsed : s.clock_ms);
    });
  }

  // fit picks the columns that give the boards the most room in the
  // window, so every tile shows without scrolling (not in the phone's
  // list, which scrolls).
  function fit() {
    const main = $('tiles');
    const n = tiles.size;
    if (!n) return;
    main.classList.remove('list');
    if (getComputedStyle(main).display !== 'grid') { // a phone: the list
      for (const t of tiles.values()) t.a.classList.add('small');
      return;
    }
    const W = main.clientWidth - 16, H = main.clientHeight - 16, gap = 8, pad = 14, side = 150, low = 190;
    let best = null;
    for (let cols = 1; cols <= n; cols++) {
      const rows = Math.ceil(n / cols);
      const w = (W - gap * (cols - 1)) / cols, h = (H - gap * (rows - 1)) / rows;
      const bs = Math.floor(Math.min(h - pad, w - pad - side - 8));
      if (h >= low && bs >= 100 && (!best || bs > best.bs)) best = { cols, rows, bs };
    }
    if (!best) { // too many boards for the window: a list, scrolling
      main.classList.add('list');
      for (const t of tiles.values()) t.a.classList.add('small');
      return;
    }
    main.style.setProperty('--cols', String(best.cols));
    main.style.setProperty('--rows', String(best.rows));
    main.style.setProperty('--tile-bs', best.bs + 'px');
    for (const t of tiles.values()) t.a.classList.toggle('small', best.bs < 230);
  }

  function setConn(text, cls) {
    const c = $('conn');
    c.textContent = text;
    c.className = 'conn ' + cls;
  }

  function connect() {
    const es = new EventSource('/api/live' + (hub.last ? '?after=' + hub.last : ''));
    es.addEventListener('open', () => { setConn('live', 'ok'); hub.retry = 1000; });
    es.addEventListener('board', (e) => render(JSON.parse(e.data)));
    es.addEventListener('message', (e) => {
      hub.last = Number(e.lastEventId) || hub.last;
      hub.messages++;
      document.body.dataset.last = String(hub.last);
    });
    es.addEventListener('reset', () => { hub.last = 0; });
    es.addEventListener('error', () => {
      // Come back after the last message had, ourselves (the browser
      // gives up on a refused stream).
      es.close();
      setConn('reconnecting…', 'bad');
      window.boardd.loginAgain();
      setTimeout(connect, hub.retry);
      hub.retry = Math.min(hub.retry * 2, 15000);
    });
  }

  function setup() {
    window.addEventListener('resize', fit);
    setInterval(() => {
      for (const t of tiles.values()) {
        t.board.tick();
        tickSeats(t);
      }
    }, 200);
    fetch('/api/boards').then((r) => r.json()).then((list) => { if (!list.length && !tiles.size) $('empty').hidden = false; }).catch(() => {});
    connect();
  }

  setup();
})();
