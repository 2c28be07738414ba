'use strict';
// boardd live display. Draws the four-player board from the server's event
// stream (GET /api/events) and, after a login, sends commands
// (POST /api/cmd/<name>). Plain browser JavaScript, no build step.
(function () {
  const SEATS = ['Red', 'Blue', 'Yellow', 'Green']; // clockwise from the bottom
  const FILES = 'abcdefghijklmnop';
  // A piece is a filled glyph tinted with its seat's colour under an
  // outline glyph in black. U+FE0E asks for text, not emoji, presentation.
  const FILL = { K: '\u265A', Q: '\u265B', R: '\u265C', B: '\u265D', N: '\u265E', P: '\u265F', D: '\u265B' };
  const LINE = { K: '\u2654', Q: '\u2655', R: '\u2656', B: '\u2657', N: '\u2658', P: '\u2659', D: '\u2655' };
  const TEXT = '\uFE0E';
  const LOG_KEEP = 60;

  const $ = (id) => document.getElementById(id);
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }
  function seatIndex(name) {
    return SEATS.findIndex((s) => s.toLowerCase() === String(name || '').toLowerCase());
  }
  const seatClass = (seat) => 'c-' + String(seat || 'x')[0].toLowerCase();

  const params = new URLSearchParams(location.search);
  const app = {
    state: null,
    lights: null,
    lastSeq: 0, // the last message seen: the stream resumes after it
    rot: Math.max(0, seatIndex(params.get('seat'))), // seat at the bottom
    authed: false,
    promo: null, // the promotion_choice message still open
    stateAt: 0, // performance.now() when the state arrived, for the clocks
    cells: new Map(), // square name -> element
    n: 14, // the board's side: 14 (the cross) or 16 (Russian Fortress Chess)
    cut: true, // the corners are cut away (the cross): the seat cards sit there
    walls: [], // barriers: pairs of squares

    cards: [], // seat cards by seat index
    pick: null, // first square clicked for a remote move
    retry: 1000,
    movesKey: '',
    namesGame: null,
  };

  // ---- geometry -------------------------------------------------------

  function coords(sq) {
    return { x: FILES.indexOf(sq[0]), y: parseInt(sq.slice(1), 10) - 1 };
  }
  // view maps board coordinates to a display column and row (row 0 at the
  // top) with seat rot at the bottom.
  function view(x, y, rot) {
    const M = app.n - 1;
    let col = x, up = y;
    if (rot === 1) { col = M - y; up = x; }         // Blue (file a) at the bottom
    if (rot === 2) { col = M - x; up = M - y; }     // Yellow
    if (rot === 3) { col = y; up = M - x; }         // Green (file n)
    return { col, row: M - up };
  }
  // cardAreas are the seat cards' grid areas by position (bottom, left,
  // top, right): the cut corners of the cross, or two rows above and two
  // below a board without cut corners (16×16).
  function cardAreas() {
    const n = app.n;
    if (app.cut) {
      const d = (n - 8) / 2, far = n - d + 1;
      return [`${far} / ${far} / ${n + 1} / ${n + 1}`, `${far} / 1 / ${n + 1} / ${d + 1}`, `1 / 1 / ${d + 1} / ${d + 1}`, `1 / ${far} / ${d + 1} / ${n + 1}`];
    }
    const h = n / 2 + 1;
    return [`${n + 3} / ${h} / ${n + 5} / ${n + 1}`, `${n + 3} / 1 / ${n + 5} / ${h}`, `1 / 1 / 3 / ${h}`, `1 / ${h} / 3 / ${n + 1}`];
  }

  // ---- drawing --------------------------------------------------------

  function buildBoard(squares, walls) {
    const board = $('board');
    board.textContent = '';
    app.cells.clear();
    app.n = 0;
    for (const name of squares) {
      const { x, y } = coords(name);
      app.n = Math.max(app.n, x + 1, y + 1);
    }
    app.n = app.n || 14;
    app.cut = squares.length > 0 && !squares.includes('a1');
    app.walls = walls || [];
    board.style.setProperty('--n', String(app.n));
    board.style.setProperty('--rows', String(app.cut ? app.n : app.n + 4));
    board.classList.toggle('uncut', !app.cut);
    board.dataset.n = String(app.n);
    for (const name of squares) {
      const { x, y } = coords(name);
      const c = el('div', 'sq ' + ((x + y) % 2 === 0 ? 'light' : 'dark'));
      c.dataset.square = name;
      // children: LED tint, piece, bottom label, left label, walls
      c.append(el('div', 'led'), el('span', 'pc'), el('span', 'coord cb'), el('span', 'coord cl'), el('div', 'wall'));
      c.addEventListener('click', () => pickSquare(name));
      board.append(c);
      app.cells.set(name, c);
    }
    app.cards = SEATS.map((seat) => {
      const card = el('div', 'card ' + seatClass(seat));
      card.dataset.seat = seat;
      card.append(el('div', 'name', seat), el('div', 'clock'), el('div', 'info'), el('div', 'status'));
      board.append(card);
      return card;
    });
    layout();
  }

  // layout places squares, coordinates, walls and seat cards for the
  // rotation.
  function layout() {
    const top = app.cut ? 0 : 2; // rows above the board for the cards
    const pos = new Map();
    const lowest = new Map(), leftmost = new Map(); // per display column / row
    for (const [name, c] of app.cells) {
      const { x, y } = coords(name);
      const p = view(x, y, app.rot);
      pos.set(name, p);
      c.style.gridColumn = String(p.col + 1);
      c.style.gridRow = String(p.row + 1 + top);
      lowest.set(p.col, Math.max(lowest.get(p.col) ?? -1, p.row));
      leftmost.set(p.row, Math.min(leftmost.get(p.row) ?? app.n, p.col));
    }
    for (const [name, c] of app.cells) {
      const { col, row } = pos.get(name);
      const file = name[0], rank = name.slice(1), turned = app.rot % 2 === 1;
      c.children[2].textContent = row === lowest.get(col) ? (turned ? rank : file) : '';
      c.children[3].textContent = col === leftmost.get(row) ? (turned ? file : rank) : '';
      c.children[4].className = 'wall';
    }
    // A wall between two squares side by side is drawn on both squares'
    // shared edge; a diagonal barrier needs no line of its own.
    for (const [a, b] of app.walls) {
      const pa = pos.get(a), pb = pos.get(b);
      if (!pa || !pb) continue;
      const dc = pb.col - pa.col, dr = pb.row - pa.row;
      if (Math.abs(dc) + Math.abs(dr) !== 1) continue;
      const side = (d, c) => (c ? (d > 0 ? 'r' : 'l') : (d > 0 ? 'b' : 't'));
      app.cells.get(a).children[4].classList.add('w' + side(dc || dr, dc !== 0));
      app.cells.get(b).children[4].classList.add('w' + side(-(dc || dr), dc !== 0));
    }
    const areas = cardAreas();
    app.cards.forEach((card, s) => { card.style.gridArea = areas[(s - app.rot + 4) % 4]; });
    $('rotate-seat').textContent = SEATS[app.rot];
  }

  function drawPiece(c, p) {
    const span = c.children[1];
    span.textContent = '';
    span.className = 'pc';
    if (!p) {
      delete c.dataset.piece;
      return;
    }
    c.dataset.piece = p;
    const kind = p.slice(1);
    span.classList.add(seatClass(p));
    if (FILL[kind]) {
      span.append(el('span', 'fill', FILL[kind] + TEXT), el('span', 'line', LINE[kind] + TEXT));
      if (kind === 'D') span.append(el('span', 'tag', '1')); // a one-point queen
    } else {
      span.append(el('span', 'letter', kind)); // a piece without a glyph
    }
  }

  function renderState(st) {
    const fresh = !app.state || (app.state.squares || []).join() !== (st.squares || []).join() ||
      JSON.stringify(app.state.walls || []) !== JSON.stringify(st.walls || []);
    if (st.seq < app.lastSeq) app.lastSeq = st.seq; // the board's numbering restarted
    app.state = st;
    app.stateAt = performance.now();
    if (fresh) {
      buildBoard(st.squares || [], st.walls);
      if (app.lights) renderLights(app.lights);
    }
    const pieces = st.pieces || {};
    const marks = {
      last: st.last_move, check: st.checks, wrong: st.wrong, missing: st.missing,
      dest: st.destinations, lifted: st.lifted ? [st.lifted] : [],
    };
    for (const k in marks) marks[k] = new Set(marks[k] || []);
    for (const [name, c] of app.cells) {
      const p = pieces[name] || '';
      if ((c.dataset.piece || '') !== p) drawPiece(c, p);
      for (const k in marks) c.classList.toggle(k, marks[k].has(name));
    }
    const board = $('board');
    board.dataset.seq = st.seq;
    board.dataset.turn = st.turn;
    board.dataset.status = st.status;
    renderSeats(st);
    renderBanner(st);
    renderMoves(st);
    renderControls(st);
  }

  function renderLights(li) {
    app.lights = li;
    const lit = li.squares || {};
    for (const [name, c] of app.cells) {
      c.children[0].style.backgroundColor = lit[name] || '';
      c.classList.toggle('lit', !!lit[name]);
    }
  }

  function renderSeats(st) {
    const seats = st.seats || [];
    const scored = /ffa/i.test(st.variant || '') || seats.some((s) => s.points);
    for (const s of seats) {
      const card = app.cards[seatIndex(s.seat)];
      if (!card) continue;
      card.children[0].textContent = s.player || s.seat;
      card.children[0].title = s.player ? s.player + ' (' + s.seat + ')' : s.seat;
      card.classList.toggle('turn', st.status !== 'over' && st.turn === s.seat);
      card.classList.toggle('out', s.status !== 'playing' && s.status !== 'walking');
      const info = [];
      if (scored) info.push(s.points + (s.points === 1 ? ' pt' : ' pts'));
      if (s.remote) info.push('remote');
      card.children[2].textContent = info.join(' · ');
      card.children[3].textContent = s.status && s.status !== 'playing' ? s.status : '';
    }
    tickClocks();
  }

  function formatClock(ms) {
    ms = Math.max(0, ms);
    if (ms < 10000) return (ms / 1000).toFixed(1);
    const t = Math.ceil(ms / 1000), h = Math.floor(t / 3600), m = Math.floor(t / 60) % 60, s = t % 60;
    const ss = String(s).padStart(2, '0');
    return h ? h + ':' + String(m).padStart(2, '0') + ':' + ss : m + ':' + ss;
  }

  // tickClocks counts the running clock down between state updates.
  function tickClocks() {
    const st = app.state;
    if (!st) return;
    const elapsed = performance.now() - app.stateAt;
    for (const s of st.seats || []) {
      const card = app.cards[seatIndex(s.seat)];
      if (!card) continue;
      const clock = card.children[1];
      if (s.clock_ms < 0) {
        clock.textContent = '';
        continue;
      }
      const ms = s.running ? s.clock_ms - elapsed : s.clock_ms;
      clock.textContent = formatClock(ms);
      clock.classList.toggle('running', s.running);
      clock.classList.toggle('low', ms < 20000);
    }
  }

  function describeResult(r) {
    const w = r.winners || [];
    let text = w.length ? w.join(' & ') + (w.length > 1 ? ' win' : ' wins') : 'No winner';
    if (r.reason) text += ' — ' + r.reason;
    if (r.pgn4) text += ' (' + r.pgn4 + ')';
    return text;
  }

  function renderBanner(st) {
    const b = $('banner');
    b.textContent = '';
    b.className = 'banner ' + (st.status || '');
    const line = el('div', 'main');
    if (st.status === 'over' && st.result) {
      line.textContent = 'Game over: ' + describeResult(st.result);
    } else {
      const seat = (st.seats || []).find((s) => s.seat === st.turn);
      line.append(el('span', 'dot ' + seatClass(st.turn)), st.turn + ' to move' + (seat && seat.player ? ' — ' + seat.player : ''));
    }
    b.append(line);
    const notes = {
      correction: 'The board differs from the game: empty the squares marked red, fill those marked amber.',
      takeback_asked: 'The board was put back: confirm the takeback or replay the move.',
    };
    if (notes[st.status]) b.append(el('div', 'note', notes[st.status]));
    if (st.status === 'paused') b.append(el('div', 'note check', st.message || 'The board cannot write to its disk: the game is paused.'));
    if (st.status === 'setup' && st.setup) b.append(el('div', 'note', setupNote(st.setup)));
    const checked = (st.checks || []).map((sq) => SEATS.find((s) => seatClass(s) === seatClass((st.pieces || {})[sq]))).filter(Boolean);
    if (checked.length && st.status !== 'over') b.append(el('div', 'note check', 'Check: ' + checked.join(' & ')));
    if (st.remote) b.append(el('div', 'note', st.remote.seat + ' plays ' + st.remote.move + ' from afar: make the move on the board.'));
    const an = st.announcement;
    if (an) {
      b.append(el('div', 'note announce', an.accepted
        ? an.seat + "'s " + an.move + ' into check was accepted: make it on the board.'
        : an.seat + ' announces ' + an.move + ' into check: ' + (an.reply_by || 'the partner') + ' replies.'));
    }
    if (st.relieve) b.append(el('div', 'note announce', st.turn + " must take " + st.relieve + "'s king out of check."));
    if (st.draw_offers && st.draw_offers.length) b.append(el('div', 'note', 'Draw offered by ' + st.draw_offers.join(', ') + ': the others accept or decline.'));
    if (app.promo && st.status !== 'over') b.append(el('div', 'note', 'Promotion: the default piece was played; it can still be changed.'));
    b.append(el('div', 'sub', [st.variant, st.game && 'game ' + st.game].filter(Boolean).join(' · ')));
  }

  // setupNote says the guided set-up's next step in words.
  function setupNote(s) {
    if (s.clearing) return 'Setting the position up again: take every piece off the board.';
    if (!s.square) return 'Setting the position up again: take off the pieces marked red.';
    const seat = { r: 'Red', b: 'Blue', y: 'Yellow', g: 'Green', x: 'grey' }[s.piece[0]] || '';
    const kind = { K: 'king', Q: 'queen', R: 'rook', B: 'bishop', N: 'knight', P: 'pawn' }[s.piece[1]] || s.piece[1];
    return 'Put the ' + seat + ' ' + kind + ' on ' + s.square + ' (' + s.done + ' of ' + s.total + ' stand).';
  }

  // renderMoves lays the move list out in rows of four, one column per seat;
  // a seat that is out leaves its cell empty.
  function renderMoves(st) {
    const moves = st.moves || [];
    const key = JSON.stringify(moves);
    if (key === app.movesKey) return;
    app.movesKey = key;
    const table = $('moves');
    table.textContent = '';
    const head = table.createTHead().insertRow();
    head.append(el('th', '', ''));
    for (const s of SEATS) head.append(el('th', seatClass(s), s));
    const body = table.createTBody();
    let row = null, prev = SEATS.length, n = 0;
    moves.forEach((m, i) => {
      const col = seatIndex(m.seat);
      if (col < 0) return;
      if (!row || col <= prev) {
        row = body.insertRow();
        row.append(el('td', 'num', String(++n)));
        for (let k = 0; k < SEATS.length; k++) row.append(el('td', 'mv ' + seatClass(SEATS[k])));
      }
      const cell = row.cells[col + 1];
      cell.textContent = m.move;
      if (i === moves.length - 1) cell.classList.add('latest');
      prev = col;
    });
    const scroll = table.parentElement;
    scroll.scrollTop = scroll.scrollHeight;
  }

  // ---- messages -------------------------------------------------------

  function onMessage(m) {
    if (m.seq <= app.lastSeq) return; // seen already (a resumed stream)
    app.lastSeq = m.seq;
    switch (m.kind) {
      case 'promotion_choice':
        app.promo = { msg: m, moved: false };
        break;
      case 'move': // the promotion move itself follows its promotion_choice
        if (app.promo && !app.promo.moved) app.promo.moved = true;
        else app.promo = null;
        break;
      case 'game_start': case 'takeback': case 'game_over':
        app.promo = null;
        break;
    }
    addLog(m.text || m.kind, m.kind, m.time, m.seat);
    if (app.state) {
      renderBanner(app.state);
      renderControls(app.state);
    }
  }

  function addLog(text, kind, time, seat) {
    const li = el('li', 'k-' + kind);
    const t = time ? new Date(time) : new Date();
    li.append(el('time', '', t.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' })));
    if (seat) li.append(el('span', 'dot ' + seatClass(seat)));
    li.append(document.createTextNode(text));
    const log = $('log');
    log.prepend(li); // newest first
    while (log.children.length > LOG_KEEP) log.lastChild.remove();
  }

  // ---- the event stream ---------------------------------------------------

  function setConn(text, cls) {
    const c = $('conn');
    c.textContent = text;
    c.className = 'conn ' + cls;
  }

  function connect() {
    const es = new EventSource('/api/events' + (app.lastSeq ? '?from=' + (app.lastSeq + 1) : ''));
    es.addEventListener('open', () => { setConn('live', 'ok'); app.retry = 1000; });
    es.addEventListener('state', (e) => renderState(JSON.parse(e.data)));
    es.addEventListener('lights', (e) => renderLights(JSON.parse(e.data)));
    es.addEventListener('message', (e) => onMessage(JSON.parse(e.data)));
    es.addEventListener('gap', (e) => {
      const g = JSON.parse(e.data);
      addLog('messages from ' + g.from + ' were missed: ' + g.error, 'gap');
    });
    es.addEventListener('error', () => {
      // Reconnect ourselves so the new stream starts after the last message.
      es.close();
      setConn('reconnecting…', 'bad');
      setTimeout(connect, app.retry);
      app.retry = Math.min(app.retry * 2, 15000);
    });
  }

  // ---- login and commands -------------------------------------------------

  async function post(path, body) {
    const res = await fetch(path, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', 'X-Boardd-Request': '1' },
      body: JSON.stringify(body || {}),
    });
    let data;
    try { data = await res.json(); } catch (e) { data = { error: res.status + ' ' + res.statusText }; }
    return { status: res.status, data };
  }

  function showStatus(text, cls) {
    const s = $('cmd-status');
    s.textContent = text;
    s.className = 'cmd-status controls-only ' + (cls || '');
  }

  // command sends one command and shows how it went.
  async function command(name, payload) {
    showStatus(name.replace('_', ' ') + '…', 'busy');
    try {
      const { status, data } = await post('/api/cmd/' + name, payload);
      if (status === 401) setAuthed(false);
      if (data.ok) showStatus('✓ ' + name.replace('_', ' ') + ': done', 'ok');
      else showStatus('✗ ' + (data.error || 'failed (' + status + ')'), 'err');
      return !!data.ok;
    } catch (e) {
      showStatus('✗ ' + name + ': ' + e.message, 'err');
      return false;
    }
  }

  function setAuthed(on) {
    app.authed = on;
    document.body.classList.toggle('authed', on);
    $('controls').hidden = !on;
    $('login').hidden = true;
    $('login-open').textContent = on ? 'Log out' : 'Log in';
    if (app.state) renderControls(app.state);
  }

  // armed makes a button need a second click within 3 s (no dialogs: they
  // are awkward on phones and TVs).
  function armed(button, action) {
    const label = button.textContent;
    let timer = null;
    button.addEventListener('click', () => {
      if (!timer) {
        button.textContent = 'Sure? ' + label;
        button.classList.add('armed');
        timer = setTimeout(() => { timer = null; button.textContent = label; button.classList.remove('armed'); }, 3000);
        return;
      }
      clearTimeout(timer);
      timer = null;
      button.textContent = label;
      button.classList.remove('armed');
      action();
    });
  }

  function names() {
    const tags = {};
    for (const s of SEATS) tags[s] = $('name-' + s).value.trim();
    return tags;
  }

  function renderControls(st) {
    $('takeback-box').hidden = !(app.authed && st.status === 'takeback_asked');
    const promo = app.authed && app.promo && st.status !== 'over';
    $('promo-box').hidden = !promo;
    if (promo) {
      const box = $('promo-buttons');
      const pieces = (app.promo.msg.candidates || []).map((c) => (/=([A-Z])/.exec(c) || [])[1]).filter(Boolean);
      const list = pieces.length ? pieces : ['Q', 'R', 'B', 'N'];
      if (box.dataset.list !== list.join()) {
        box.dataset.list = list.join();
        box.textContent = '';
        for (const p of list) {
          const b = el('button', 'promo', (FILL[p] ? FILL[p] + TEXT + ' ' : '') + p);
          b.type = 'button';
          b.addEventListener('click', () => command('promote', { piece: p }));
          box.append(b);
        }
      }
    }
    for (const s of st.seats || []) {
      const cb = document.querySelector('[data-remote="' + s.seat + '"]');
      if (cb && document.activeElement !== cb) cb.checked = !!s.remote;
    }
    const ms = $('move-seat');
    if (document.activeElement !== ms && !ms.dataset.touched) ms.value = st.turn;
    // Blocking double chess: announce a move into check, reply, claim
    // stalemate. The seat follows the game: the partner while a reply is
    // awaited, else the seat to move.
    $('protocol-row').hidden = st.variant !== 'blocking-double';
    $('army-row').hidden = st.variant !== 'chess4-m2';
    const ps = $('proto-seat');
    const an = st.announcement;
    if (document.activeElement !== ps) ps.value = an && !an.accepted && an.reply_by ? an.reply_by : st.turn;
    if (st.game !== app.namesGame) { // a new game: show its names
      app.namesGame = st.game;
      for (const s of st.seats || []) {
        const input = $('name-' + s.seat);
        if (input && document.activeElement !== input) input.value = s.player || '';
      }
      if (!$('variant').value) $('variant').value = st.variant || '';
    }
  }

  // pickSquare lets a logged-in user click two squares to fill the remote
  // move box ("h2" then "h4" gives "h2-h4").
  function pickSquare(name) {
    if (!app.authed) return;
    const prev = app.pick && app.cells.get(app.pick);
    if (prev) prev.classList.remove('picked');
    if (!app.pick || app.pick === name) {
      app.pick = app.pick === name ? null : name;
      if (app.pick) app.cells.get(name).classList.add('picked');
      return;
    }
    $('move-text').value = app.pick + '-' + name;
    app.pick = null;
  }

  // ---- views: rotation, spectator, LEDs -----------------------------------

  function setParam(key, value) {
    const p = new URLSearchParams(location.search);
    if (value) p.set(key, value); else p.delete(key);
    const q = p.toString();
    history.replaceState(null, '', location.pathname + (q ? '?' + q : ''));
  }

  function setSpectator(on, fullscreen) {
    document.body.classList.toggle('spectator', on);
    $('leave-spectator').hidden = !on;
    setParam('spectator', on ? '1' : '');
    const root = document.documentElement;
    if (on && fullscreen && root.requestFullscreen) root.requestFullscreen().catch(() => {});
    if (!on && document.fullscreenElement) document.exitFullscreen().catch(() => {});
  }

  function setup() {
    const seatOptions = (select) => {
      for (const s of SEATS) select.append(new Option(s, s));
    };
    seatOptions($('move-seat'));
    seatOptions($('resign-seat'));
    seatOptions($('draw-seat'));
    seatOptions($('army-seat'));
    seatOptions($('army-kept'));
    seatOptions($('proto-seat'));
    for (const s of SEATS) {
      const label = el('label', 'chk ' + seatClass(s));
      const cb = el('input');
      cb.type = 'checkbox';
      cb.dataset.remote = s;
      cb.addEventListener('change', () => command('remote', { seat: s, on: cb.checked }));
      label.append(cb, ' ' + s);
      $('remote-seats').append(label);
      const name = el('label', 'name-field ' + seatClass(s));
      const input = el('input');
      input.id = 'name-' + s;
      input.placeholder = s + ' player';
      input.maxLength = 200;
      name.append(el('span', 'dot ' + seatClass(s)), input);
      $('names').append(name);
    }

    $('rotate').addEventListener('click', () => {
      app.rot = (app.rot + 1) % 4;
      setParam('seat', app.rot ? SEATS[app.rot] : '');
      layout();
    });
    const leds = $('show-leds');
    const store = (key, value) => { // localStorage may be missing (private windows)
      try {
        if (value === undefined) return localStorage.getItem(key);
        localStorage.setItem(key, value);
      } catch (e) { /* not remembered, no harm */ }
      return null;
    };
    leds.checked = params.get('leds') === '1' || store('boardd.leds') === '1';
    const showLeds = () => {
      document.body.classList.toggle('leds', leds.checked);
      store('boardd.leds', leds.checked ? '1' : '0');
    };
    leds.addEventListener('change', showLeds);
    showLeds();
    $('spectate').addEventListener('click', () => setSpectator(true, true));
    $('leave-spectator').addEventListener('click', () => setSpectator(false));
    document.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && document.body.classList.contains('spectator')) setSpectator(false);
    });
    const sp = params.get('spectator');
    if (sp === '1' || sp === 'true') setSpectator(true, false);

    $('login-open').addEventListener('click', async () => {
      if (app.authed) {
        await post('/api/logout');
        setAuthed(false);
        return;
      }
      $('login').hidden = !$('login').hidden;
      if (!$('login').hidden) $('password').focus();
    });
    $('login-form').addEventListener('submit', async (e) => {
      e.preventDefault();
      $('login-error').textContent = '';
      $('login-submit').disabled = true;
      try {
        const { data } = await post('/api/login', { password: $('password').value });
        if (data.authenticated) {
          $('password').value = '';
          setAuthed(true);
        } else {
          $('login-error').textContent = data.error || 'login failed';
        }
      } catch (err) {
        $('login-error').textContent = 'login: ' + err.message;
      } finally {
        $('login-submit').disabled = false;
      }
    });

    for (const b of document.querySelectorAll('[data-clock]')) {
      b.addEventListener('click', () => command('clock', { action: b.dataset.clock }));
    }
    $('move-seat').addEventListener('change', () => { $('move-seat').dataset.touched = '1'; });
    const sendMove = async () => {
      const move = $('move-text').value.trim();
      if (!move) return showStatus('✗ type a move such as h2-h4 (or click two squares)', 'err');
      if (await command('move', { seat: $('move-seat').value, move })) {
        $('move-text').value = '';
        delete $('move-seat').dataset.touched;
      }
    };
    $('move-send').addEventListener('click', sendMove);
    $('move-text').addEventListener('keydown', (e) => { if (e.key === 'Enter') sendMove(); });
    $('takeback').addEventListener('click', () => command('takeback_confirm', {}));
    armed($('resign'), () => command('resign', { seat: $('resign-seat').value }));
    $('draw-offer').addEventListener('click', () => command('draw_offer', { seat: $('draw-seat').value }));
    $('draw-decline').addEventListener('click', () => command('draw_decline', { seat: $('draw-seat').value }));
    $('keep-army').addEventListener('click', () => command('keep_army', { seat: $('army-seat').value, army: $('army-kept').value }));
    const announce = async () => {
      const move = $('announce-text').value.trim();
      if (!move) return showStatus('✗ type the move announced into check, such as n7-n6', 'err');
      if (await command('announce', { seat: $('proto-seat').value, move })) $('announce-text').value = '';
    };
    $('announce').addEventListener('click', announce);
    $('announce-text').addEventListener('keydown', (e) => { if (e.key === 'Enter') announce(); });
    $('reply').addEventListener('click', () => command('reply', { seat: $('proto-seat').value, reply: $('reply-kind').value }));
    armed($('claim-stalemate'), () => command('claim_stalemate', { seat: $('proto-seat').value }));
    $('set-names').addEventListener('click', () => command('tags', { tags: names() }));
    armed($('new-game'), () => {
      const tags = {};
      for (const [k, v] of Object.entries(names())) if (v) tags[k] = v;
      const payload = { variant: $('variant').value.trim() };
      if (Object.keys(tags).length) payload.tags = tags;
      command('new_game', payload);
    });

    setInterval(tickClocks, 100);
    if (document.body.dataset.canLogin === 'true') $('login-open').hidden = false;
    fetch('/api/me', { credentials: 'same-origin' })
      .then((r) => r.json())
      .then((me) => setAuthed(!!me.authenticated))
      .catch(() => {});
    connect();
  }

  setup();
})();
