'use strict';
// boardd live display. Draws the four-player board (board.js) from the
// server's event stream (GET /api/events) and, after a login, sends
// commands (POST /api/cmd/<name>). The routes are under the page body's
// data-api (default /api). ?view=FILE opens that finished game in the
// viewer. Plain browser JavaScript, no build step.
(function () {
  const { SEATS, FILL, TEXT, el, seatIndex, seatClass, botLevels } = window.boardd;
  const API = document.body.dataset.api || '/api'; // where the routes are: the club hub serves a board under /api/boards/NAME
  const LOG_KEEP = 60;

  const $ = (id) => document.getElementById(id);
  const params = new URLSearchParams(location.search);
  const app = {
    state: null,
    lastSeq: 0, // the last message seen: the stream resumes after it
    authed: false,
    promo: null, // the promotion_choice message still open
    pick: null, // first square clicked for a remote move
    retry: 1000,
    movesKey: '',
    namesGame: null,
    view: null, // the finished game being looked at: {file, rep, i}
    live: null, // the live state that came while looking back
    games: [], // the archive's list
    sound: false, // cues on this device
    audio: null, // the AudioContext, made on the first switch-on
    cueAfter: Infinity, // no cues for the backlog a stream starts with: only messages after its first state
  };

  // ---- drawing --------------------------------------------------------

  // The board itself (board.js); the seat at the bottom comes from ?seat=.
  const board = new window.boardd.Board($('board'), {
    rot: Math.max(0, seatIndex(params.get('seat'))),
    onSquare: (name) => pickSquare(name),
    onLayout: (rot) => { $('rotate-seat').textContent = SEATS[rot]; },
  });

  function renderState(st) {
    if (st.seq < app.lastSeq) app.lastSeq = st.seq; // the board's numbering restarted
    app.state = st;
    board.render(st);
    renderBanner(st);
    renderMoves(st);
    renderControls(st);
  }

  function describeResult(r) {
    const w = r.winners || [];
    let text = w.length ? w.join(' & ') + (w.length > 1 ? ' win' : ' wins') : 'No winner';
    if (r.reason) text += ' — ' + r.reason;
    if (r.pgn4) text += ' (' + r.pgn4 + ')';
    return text;
  }

  // eventLine is "Club night · round 3", from the game's tags.
  function eventLine(tags) {
    tags = tags || {};
    return [tags.Event, tags.Round && 'round ' + tags.Round].filter(Boolean).join(' · ');
  }

  function renderBanner(st) {
    const b = $('banner');
    b.textContent = '';
    if (app.view) return renderViewBanner(b);
    $('event').textContent = eventLine(st.tags);
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
    if (st.sensor_fault) b.append(el('div', 'note check sensor-fault', 'Sensor fault: ' + st.sensor_fault));
    if (st.status === 'setup' && st.setup) b.append(el('div', 'note', setupNote(st.setup)));
    const checked = (st.checks || []).map((sq) => SEATS.find((s) => seatClass(s) === seatClass((st.pieces || {})[sq]))).filter(Boolean);
    if (checked.length && st.status !== 'over') b.append(el('div', 'note check', 'Check: ' + checked.join(' & ')));
    if (st.remote) {
      const lvl = botLevels(st.tags)[st.remote.seat];
      b.append(el('div', 'note', lvl
        ? st.remote.seat + "'s bot (level " + lvl + ') plays ' + st.remote.move + ': make the move on the board.'
        : st.remote.seat + ' plays ' + st.remote.move + ' from afar: make the move on the board.'));
    }
    const an = st.announcement;
    if (an) {
      b.append(el('div', 'note announce', an.accepted
        ? an.seat + "'s " + an.move + ' into check was accepted: make it on the board.'
        : an.seat + ' announces ' + an.move + ' into check: ' + (an.reply_by || 'the partner') + ' replies.'));
    }
    if (st.relieve) b.append(el('div', 'note announce', st.turn + " must take " + st.relieve + "'s king out of check."));
    if (st.draw_offers && st.draw_offers.length) b.append(el('div', 'note', 'Draw offered by ' + st.draw_offers.join(', ') + ': the others accept or decline.'));
    if (app.promo && st.status !== 'over') b.append(el('div', 'note', 'Promotion: the default piece was played; it can still be changed.'));
    b.append(el('div', 'event-line', eventLine(st.tags)));
    b.append(el('div', 'sub', [st.variant, st.tags && st.tags.TimeControl && st.tags.TimeControl !== '-' && st.tags.TimeControl, st.game && 'game ' + st.game].filter(Boolean).join(' · ')));
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
      cell.append(...breakable(m.move));
      if (i === moves.length - 1) cell.classList.add('latest');
      prev = col;
    });
    const scroll = table.parentElement;
    scroll.scrollTop = scroll.scrollHeight;
  }

  // breakable returns a move's text as nodes with a line-break
  // opportunity after the square the piece left ("Qh14x" "Ba10+",
  // "Rn11-" "k11"), so a narrow column wraps it there, not mid-square.
  function breakable(move) {
    const m = /^(.*?\d[-x])(.+)$/.exec(move);
    if (!m) return [document.createTextNode(move)];
    return [document.createTextNode(m[1]), document.createElement('wbr'), document.createTextNode(m[2])];
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
    cueFor(m);
    if (app.state && !app.view) {
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
    const es = new EventSource(API + '/events' + (app.lastSeq ? '?from=' + (app.lastSeq + 1) : ''));
    es.addEventListener('open', () => { setConn('live', 'ok'); app.retry = 1000; app.cueAfter = Infinity; });
    es.addEventListener('state', (e) => onState(JSON.parse(e.data)));
    es.addEventListener('lights', (e) => board.renderLights(JSON.parse(e.data)));
    es.addEventListener('message', (e) => onMessage(JSON.parse(e.data)));
    es.addEventListener('gap', (e) => {
      const g = JSON.parse(e.data);
      addLog('messages from ' + g.from + ' were missed: ' + g.error, 'gap');
    });
    es.addEventListener('error', () => {
      // Reconnect ourselves so the new stream starts after the last message.
      es.close();
      setConn('reconnecting…', 'bad');
      window.boardd.loginAgain();
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
      const { status, data } = await post(API + '/cmd/' + name, payload);
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
    const bots = botLevels(st.tags);
    for (const s of st.seats || []) {
      const cb = document.querySelector('[data-remote="' + s.seat + '"]');
      if (cb && document.activeElement !== cb) cb.checked = !!s.remote;
      if (cb) cb.nextSibling.textContent = ' ' + s.seat + (bots[s.seat] ? ' (bot ' + bots[s.seat] + ')' : '');
    }
    const ms = $('move-seat');
    if (document.activeElement !== ms && !ms.dataset.touched) ms.value = st.turn;
    // Blocking double chess: announce a move into check, reply, claim
    // stalemate. The seat follows the game: the partner while a reply is
    // awaited, else the seat to move.
    $('protocol-row').hidden = st.variant !== 'blocking-double';
    $('army-row').hidden = st.variant !== 'chess4-m2';
    // FFA's claim win: offered while two players are left, for the one
    // ahead on points (the referee checks the lead of more than 20).
    const left = (st.seats || []).filter((s) => s.status === 'playing');
    $('claim-row').hidden = st.variant !== 'ffa' || st.status !== 'playing' || left.length !== 2;
    const cs = $('claim-seat');
    if (left.length === 2 && document.activeElement !== cs) cs.value = left[0].points >= left[1].points ? left[0].seat : left[1].seat;
    const ps = $('proto-seat');
    const an = st.announcement;
    if (document.activeElement !== ps) ps.value = an && !an.accepted && an.reply_by ? an.reply_by : st.turn;
    if (st.game !== app.namesGame && !app.view) { // a new game: show its names
      app.namesGame = st.game;
      for (const s of st.seats || []) {
        const input = $('name-' + s.seat);
        if (input && document.activeElement !== input) input.value = s.player || '';
      }
      const tags = st.tags || {};
      if (document.activeElement !== $('tag-event')) $('tag-event').value = tags.Event || '';
      if (document.activeElement !== $('tag-round')) $('tag-round').value = tags.Round || '';
    }
  }

  // pickSquare lets a logged-in user click two squares to fill the remote
  // move box ("h2" then "h4" gives "h2-h4").
  function pickSquare(name) {
    if (!app.authed) return;
    const prev = app.pick && board.cells.get(app.pick);
    if (prev) prev.classList.remove('picked');
    if (!app.pick || app.pick === name) {
      app.pick = app.pick === name ? null : name;
      if (app.pick) board.cells.get(name).classList.add('picked');
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

  // The join view: the QR code of the address phones on the club's network
  // open, the same one the terminal prints at start. The daemon answers
  // 404 when it listens on this machine only: then there is no Join button.
  async function setupJoin() {
    const show = (on) => {
      $('join-box').hidden = !on;
      setParam('join', on ? '1' : '');
    };
    $('join-close').addEventListener('click', () => show(false));
    let info;
    try {
      const res = await fetch(API + '/join');
      if (!res.ok) return;
      info = await res.json();
    } catch (e) {
      return; // no join view; the page works without it
    }
    $('join-qr').src = API + '/join.png';
    $('join-qr').title = info.url;
    const urls = $('join-urls');
    urls.textContent = '';
    for (const u of info.urls) {
      const a = el('a', '', u);
      a.href = u;
      urls.append(a);
    }
    $('join-open').hidden = false;
    $('join-open').addEventListener('click', () => show($('join-box').hidden));
    const j = params.get('join');
    if (j === '1' || j === 'true') show(true);
  }

  function setup() {
    const seatOptions = (select) => {
      for (const s of SEATS) select.append(new Option(s, s));
    };
    seatOptions($('move-seat'));
    seatOptions($('resign-seat'));
    seatOptions($('claim-seat'));
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
      board.rotate((board.rot + 1) % 4);
      setParam('seat', board.rot ? SEATS[board.rot] : '');
    });
    const leds = $('show-leds');
    const store = (key, value) => { // localStorage may be missing (private windows)
      try {
        if (value === undefined) return localStorage.getItem(key);
        localStorage.setItem(key, value);
      } catch (e) { /* not remembered, no harm */ }
      return null;
    };
    // a read-only copy (the club hub's) has no lights to show
    const copy = document.body.dataset.copy === 'true';
    leds.checked = !copy && (params.get('leds') === '1' || store('boardd.leds') === '1');
    const showLeds = () => {
      document.body.classList.toggle('leds', leds.checked);
      if (!copy) store('boardd.leds', leds.checked ? '1' : '0');
    };
    leds.addEventListener('change', showLeds);
    showLeds();
    $('spectate').addEventListener('click', () => setSpectator(true, true));
    $('leave-spectator').addEventListener('click', () => setSpectator(false));
    document.addEventListener('keydown', (e) => {
      if (app.view && viewKey(e)) return;
      if (e.key === 'Escape' && document.body.classList.contains('spectator')) setSpectator(false);
    });
    const sp = params.get('spectator');
    if (sp === '1' || sp === 'true') setSpectator(true, false);
    setupJoin();

    $('login-open').addEventListener('click', async () => {
      if (app.authed) {
        await post(API + '/logout');
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
        const { data } = await post(API + '/login', { password: $('password').value });
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
    armed($('claim-win'), () => command('claim_win', { seat: $('claim-seat').value }));
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
    $('set-names').addEventListener('click', () => {
      const tags = names();
      tags.Event = $('tag-event').value.trim();
      tags.Round = $('tag-round').value.trim();
      command('tags', { tags });
    });
    setupClub(store);

    setInterval(() => board.tick(), 100);
    if (document.body.dataset.canLogin === 'true') $('login-open').hidden = false;
    fetch(API + '/me', { credentials: 'same-origin' })
      .then((r) => r.json())
      .then((me) => setAuthed(!!me.authenticated))
      .catch(() => {});
    connect();
    const look = params.get('view'); // a finished game to look at (the club hub's list links here)
    if (look) openGame(look);
  }

  // ---- the live state, or the game looked back at -----------------------

  function onState(st) {
    if (app.cueAfter === Infinity) app.cueAfter = st.seq; // a stream's first state: its backlog goes up to here
    if (app.view) {
      app.live = st; // shown again when the viewer closes
      return;
    }
    renderState(st);
  }

  // ---- the new-game dialog ------------------------------------------------

  // timeControl writes the dialog's clock as the new_game command takes it
  // (chess.com's form: "10+5", "1+15D", "-" for none), or undefined for the
  // board's configured control; it throws with a message for bad input.
  function timeControl() {
    const kind = $('ng-kind').value;
    if (kind === 'config') return undefined;
    if (kind === 'none') return '-';
    const base = Number($('ng-base').value), extra = Number($('ng-extra').value || 0);
    if (!(base > 0)) throw new Error('the time control needs more than 0 minutes each (or choose "no clocks")');
    if (!Number.isInteger(extra) || extra < 0) throw new Error('the seconds a move must be a whole number, 0 or more');
    return base + '+' + extra + (kind === 'delay' ? 'D' : '');
  }

  // gameRunning says whether the live game is under way: not over, and a
  // turn played. A new game ends such a game unfinished (the referee files
  // it with its players and event, result "*"), so the dialog asks first.
  function gameRunning(st) {
    return !!st && st.status !== 'over' && (st.moves || []).length > 0;
  }

  // showRunning shows or hides the dialog's question about the game under
  // way; true when it is shown.
  function showRunning() {
    const st = app.live || app.state;
    const on = gameRunning(st);
    const box = $('ng-running');
    if (on && box.hidden) $('ng-abandon').checked = false; // asked afresh
    box.hidden = !on;
    if (on) {
      const who = (st.seats || []).map((s) => s.player).filter(Boolean).join(', ');
      const n = st.moves.length;
      $('ng-running-text').textContent = 'The game in progress' + (who ? ' (' + who + ')' : '') +
        (eventLine(st.tags) ? ', ' + eventLine(st.tags) : '') + ', is not over: ' + n + (n === 1 ? ' turn' : ' turns') +
        ' played. A new game ends it; it is kept in the finished games as unfinished (*).';
    }
    return on;
  }

  function openNewGame() {
    const st = app.live || app.state || {};
    const tags = st.tags || {};
    const variant = $('ng-variant');
    if (st.variant && ![...variant.options].some((o) => o.value === st.variant)) variant.append(new Option(st.variant, st.variant));
    if (st.variant) variant.value = st.variant;
    $('ng-event').value = tags.Event || '';
    // The next round of the same event, when the rounds are numbered.
    $('ng-round').value = /^\d+$/.test(tags.Round || '') ? String(Number(tags.Round) + 1) : (tags.Round || '');
    const tc = /^([\d.]+)\+(\d+)(D?)$/.exec(tags.TimeControl || '');
    if (tc) {
      $('ng-base').value = tc[1];
      $('ng-extra').value = tc[2];
      $('ng-kind').value = tc[3] ? 'delay' : 'inc';
    } else if (tags.TimeControl === '-') {
      $('ng-kind').value = 'none';
    }
    const bots = botLevels(tags);
    for (const s of st.seats || []) {
      const name = $('ng-name-' + s.seat), remote = $('ng-remote-' + s.seat), bot = $('ng-bot-' + s.seat);
      if (name) name.value = s.player || '';
      if (bot) bot.value = bots[s.seat] || '';
      if (remote) remote.checked = !!s.remote && !bots[s.seat];
    }
    $('ng-error').textContent = '';
    $('ng-running').hidden = true;
    showRunning();
    $('new-game-dialog').showModal();
    $('ng-variant').focus();
  }

  async function startNewGame() {
    const err = $('ng-error');
    err.textContent = '';
    if (showRunning() && !$('ng-abandon').checked) {
      err.textContent = 'The game in progress is not over: tick "End it unfinished" to start a new one, or Cancel.';
      $('ng-abandon').focus();
      return;
    }
    const payload = { variant: $('ng-variant').value };
    try {
      const tc = timeControl();
      if (tc !== undefined) payload.time_control = tc;
    } catch (e) {
      err.textContent = e.message;
      return;
    }
    const start = $('ng-start').value.trim();
    if (start) payload.start = start;
    const tags = {};
    for (const s of SEATS) {
      const v = $('ng-name-' + s).value.trim();
      if (v) tags[s] = v;
    }
    const bots = SEATS.filter((s) => $('ng-bot-' + s).value);
    if (bots.length) {
      tags.Bots = bots.map((s) => s + ':' + $('ng-bot-' + s).value).join(',');
      tags.Remote = bots.join(',');
      for (const s of bots) if (!tags[s]) tags[s] = 'boardd bot ' + $('ng-bot-' + s).value;
    }
    const ev = $('ng-event').value.trim(), round = $('ng-round').value.trim();
    if (ev) tags.Event = ev;
    if (round) tags.Round = round;
    if (Object.keys(tags).length) payload.tags = tags;
    $('ng-start-game').disabled = true;
    try {
      const { status, data } = await post(API + '/cmd/new_game', payload);
      if (status === 401) setAuthed(false);
      if (!data.ok) {
        err.textContent = data.error || 'new game: failed (' + status + ')';
        return;
      }
      // A new game starts with every seat on the board; the ticked ones
      // are played from elsewhere.
      for (const s of SEATS) {
        if ($('ng-remote-' + s).checked && !$('ng-bot-' + s).value && !(await command('remote', { seat: s, on: true }))) {
          err.textContent = 'the game started, but ' + s + ' could not be made remote: ' + $('cmd-status').textContent;
          return;
        }
      }
      $('new-game-dialog').close();
      showStatus('✓ new game started', 'ok');
    } catch (e) {
      err.textContent = 'new game: ' + e.message;
    } finally {
      $('ng-start-game').disabled = false;
    }
  }

  // ---- the finished games and the viewer ------------------------------------

  async function openGames() {
    const box = $('games-box');
    box.hidden = false;
    $('games-empty').hidden = true;
    try {
      const res = await fetch(API + '/games', { credentials: 'same-origin' });
      const data = await res.json();
      if (!res.ok) throw new Error(data.error || res.statusText);
      app.games = data;
    } catch (e) {
      app.games = [];
      $('games-empty').textContent = 'The games could not be listed: ' + e.message;
      $('games-empty').hidden = false;
      return;
    }
    const sel = $('games-event'), keep = sel.value;
    while (sel.options.length > 1) sel.remove(1);
    for (const ev of [...new Set(app.games.map((g) => g.event).filter(Boolean))]) sel.append(new Option(ev, ev));
    sel.value = [...sel.options].some((o) => o.value === keep) ? keep : '';
    renderGames();
    box.scrollIntoView({ block: 'nearest' });
  }

  function renderGames() {
    const ev = $('games-event').value;
    const list = app.games.filter((g) => !ev || g.event === ev);
    const exp = $('games-export');
    exp.href = API + '/export' + (ev ? '?event=' + encodeURIComponent(ev) : '');
    exp.textContent = ev ? 'Download ' + ev + ' (PGN4)' : 'Download all (PGN4)';
    exp.classList.toggle('off', list.length === 0);
    $('games-empty').textContent = 'No finished games yet.';
    $('games-empty').hidden = list.length > 0;
    const table = $('games');
    table.textContent = '';
    if (!list.length) return;
    const head = table.createTHead().insertRow();
    for (const [cls, h] of [['game', 'Game'], ['players', 'Players'], ['result', 'Result'], ['act', '']]) head.append(el('th', cls, h));
    const body = table.createTBody();
    for (const g of list) {
      const row = body.insertRow();
      row.dataset.file = g.file;
      const game = el('td', 'game');
      game.append(el('span', 'date', g.date), el('span', 'ev', [g.event, g.round && 'r' + g.round].filter(Boolean).join(' ')));
      row.append(game);
      const players = el('td', 'players');
      for (const s of SEATS) {
        if (!g.players[s]) continue;
        const p = el('span');
        p.append(el('span', 'dot ' + seatClass(s)), g.players[s]);
        players.append(p);
      }
      // "*": the game ended unfinished (a new game started over it).
      const result = el('td', 'result', g.result === '*' ? 'unfinished' : g.result);
      result.title = g.result;
      row.append(players, result);
      const act = el('td', 'act');
      const view = el('button', 'view', 'View');
      view.type = 'button';
      view.addEventListener('click', () => openGame(g.file));
      const dl = el('a', 'button', 'PGN4');
      dl.href = API + '/games/' + encodeURIComponent(g.file) + '?download=1';
      dl.setAttribute('download', g.file);
      act.append(view, dl);
      row.append(act);
    }
  }

  async function openGame(file) {
    let rep;
    try {
      const res = await fetch(API + '/games/' + encodeURIComponent(file) + '/replay', { credentials: 'same-origin' });
      rep = await res.json();
      if (!res.ok) throw new Error(rep.error || res.statusText);
    } catch (e) {
      $('games-empty').textContent = e.message;
      $('games-empty').hidden = false;
      return;
    }
    if (!app.view) app.live = app.state;
    app.view = { file, rep, i: 0 };
    document.body.classList.add('viewing');
    $('games-box').hidden = true;
    $('viewer-box').hidden = false;
    $('view-download').href = API + '/games/' + encodeURIComponent(file) + '?download=1';
    $('view-download').setAttribute('download', file);
    const t = rep.tags || {};
    $('viewer-title').textContent = [t.Date, eventLine(t)].filter(Boolean).join(' — ') || file;
    showPly();
  }

  // viewState is the state of the live display for the position looked at.
  function viewState() {
    const { rep, i } = app.view, p = rep.plies[i];
    const over = i === rep.plies.length - 1 && rep.tags.Result && rep.tags.Result !== '*';
    return {
      seq: app.lastSeq, game: 'view ' + app.view.file, variant: rep.variant, status: over ? 'over' : 'playing',
      turn: p.turn, squares: rep.squares, walls: rep.walls, pieces: p.pieces, last_move: p.last_move,
      checks: p.checks, tags: rep.tags,
      seats: SEATS.map((s, k) => ({ seat: s, player: rep.tags[s] || '', points: p.points[k], status: p.status[k], clock_ms: p.clock_ms[k], running: false, remote: false })),
      moves: rep.plies.slice(1, i + 1).map((x) => ({ seat: x.seat, move: x.move })),
    };
  }

  function showPly() {
    const v = app.view, n = v.rep.plies.length - 1;
    v.i = Math.max(0, Math.min(n, v.i));
    renderState(viewState());
    $('view-pos').textContent = 'move ' + v.i + ' of ' + n;
    $('view-prev').disabled = $('view-first').disabled = v.i === 0;
    $('view-next').disabled = $('view-last').disabled = v.i === n;
  }

  function renderViewBanner(b) {
    const { rep, i } = app.view, p = rep.plies[i], n = rep.plies.length - 1;
    b.className = 'banner viewing';
    const line = el('div', 'main');
    if (i === 0) line.textContent = 'The start';
    else line.append(el('span', 'dot ' + seatClass(p.seat)), p.seat + ': ' + p.move);
    b.append(line);
    if (i === n) b.append(el('div', 'note', 'Result: ' + (rep.tags.Result || '*') + (rep.tags.Termination ? ' — ' + rep.tags.Termination : '')));
    b.append(el('div', 'event-line', eventLine(rep.tags)));
    b.append(el('div', 'sub', 'Looking back (← → to step, Esc for the live game) · ' + rep.variant));
  }

  function step(to) {
    if (!app.view) return;
    app.view.i = to(app.view.i, app.view.rep.plies.length - 1);
    showPly();
  }

  // viewKey steps through the game with the keyboard; true if it took the key.
  function viewKey(e) {
    const t = e.target;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA')) return false;
    const keys = {
      ArrowLeft: (i) => i - 1, ArrowRight: (i) => i + 1, ArrowUp: (i) => i - 4, ArrowDown: (i) => i + 4,
      Home: () => 0, End: (i, n) => n,
    };
    if (keys[e.key]) {
      e.preventDefault();
      step(keys[e.key]);
      return true;
    }
    if (e.key === 'Escape') {
      closeViewer();
      return true;
    }
    return false;
  }

  function closeViewer() {
    if (!app.view) return;
    app.view = null;
    document.body.classList.remove('viewing');
    $('viewer-box').hidden = true;
    app.movesKey = '';
    const st = app.live || app.state;
    app.live = null;
    if (st) renderState(st);
  }

  // ---- sound ------------------------------------------------------------

  // CUES are short tone sequences: [frequency Hz, seconds, wave].
  const CUES = {
    move: [[660, 0.07, 'sine']],
    check: [[880, 0.09, 'triangle'], [1175, 0.12, 'triangle']],
    illegal: [[196, 0.28, 'square']],
    flag: [[1320, 0.06, 'square'], [0, 0.05], [1320, 0.06, 'square'], [0, 0.05], [1320, 0.06, 'square']],
    over: [[784, 0.14, 'sine'], [659, 0.14, 'sine'], [523, 0.3, 'sine']],
  };
  const CUE_OF = {
    move: 'move', promotion_changed: 'move', illegal: 'illegal', out_of_turn: 'illegal', ambiguous: 'illegal',
    timeout: 'flag', game_over: 'over',
  };

  function cueFor(m) {
    let cue = CUE_OF[m.kind];
    if (cue === 'move' && m.checks && m.checks.length) cue = 'check';
    if (!cue || !app.sound || app.view || m.seq <= app.cueAfter) return;
    play(cue);
  }

  function play(cue) {
    const cues = document.body.dataset.cues ? document.body.dataset.cues.split(',') : [];
    document.body.dataset.cues = cues.concat(cue).slice(-20).join(','); // for tests and the curious
    const ctx = app.audio;
    if (!ctx) return;
    if (ctx.state === 'suspended') ctx.resume().catch(() => {});
    let t = ctx.currentTime + 0.01;
    for (const [freq, dur, wave] of CUES[cue]) {
      if (freq) {
        const o = ctx.createOscillator(), g = ctx.createGain();
        o.type = wave;
        o.frequency.value = freq;
        g.gain.setValueAtTime(0.0001, t);
        g.gain.exponentialRampToValueAtTime(0.25, t + 0.01);
        g.gain.exponentialRampToValueAtTime(0.0001, t + dur);
        o.connect(g).connect(ctx.destination);
        o.start(t);
        o.stop(t + dur + 0.02);
      }
      t += dur;
    }
  }

  function setupClub(store) {
    // The dialog's seats: a name and "remote" for each.
    for (const s of SEATS) {
      const row = el('div', 'ng-seat ' + seatClass(s));
      const name = el('input');
      name.type = 'text';
      name.id = 'ng-name-' + s;
      name.placeholder = s + ' player';
      name.maxLength = 200;
      name.setAttribute('aria-label', s + ' player');
      const remote = el('label', 'remote');
      const cb = el('input');
      cb.type = 'checkbox';
      cb.id = 'ng-remote-' + s;
      remote.append(cb, 'remote');
      // Who plays the seat: a person, or the board's bot at a level
      // (the game's Bots tag; a bot seat is a remote seat whose move the
      // board lights for a person to make).
      const bot = el('select', 'bot');
      bot.id = 'ng-bot-' + s;
      bot.setAttribute('aria-label', s + ': person or bot');
      bot.append(new Option('person', ''));
      for (let n = 1; n <= 5; n++) bot.append(new Option('bot ' + n, String(n)));
      row.append(el('span', 'dot ' + seatClass(s)), name, remote, bot);
      $('ng-players').append(row);
    }
    $('new-game-open').addEventListener('click', openNewGame);
    $('ng-cancel').addEventListener('click', () => $('new-game-dialog').close());
    $('ng-form').addEventListener('submit', (e) => { e.preventDefault(); startNewGame(); });
    const kind = $('ng-kind');
    const clockInputs = () => { $('ng-base').disabled = $('ng-extra').disabled = kind.value === 'none' || kind.value === 'config'; };
    kind.addEventListener('change', clockInputs);
    clockInputs();

    $('games-open').addEventListener('click', () => ($('games-box').hidden ? openGames() : ($('games-box').hidden = true)));
    $('games-close').addEventListener('click', () => { $('games-box').hidden = true; });
    $('games-event').addEventListener('change', renderGames);
    $('view-first').addEventListener('click', () => step(() => 0));
    $('view-prev').addEventListener('click', () => step((i) => i - 1));
    $('view-next').addEventListener('click', () => step((i) => i + 1));
    $('view-last').addEventListener('click', () => step((i, n) => n));
    $('view-close').addEventListener('click', closeViewer);

    // Sound is off until switched on, per device (an AudioContext needs a
    // click to start anyway).
    const sound = $('sound');
    const setSound = (on) => {
      app.sound = on;
      sound.checked = on;
      store('boardd.sound', on ? '1' : '0');
      if (on && !app.audio && (window.AudioContext || window.webkitAudioContext)) {
        app.audio = new (window.AudioContext || window.webkitAudioContext)();
      }
      if (on && app.audio && app.audio.state === 'suspended') app.audio.resume().catch(() => {});
    };
    sound.addEventListener('change', () => {
      setSound(sound.checked);
      if (sound.checked) play('move'); // so one hears it works
    });
    if (store('boardd.sound') === '1') {
      setSound(true); // resumes on the first click anywhere
      document.addEventListener('click', () => { if (app.audio && app.audio.state === 'suspended') app.audio.resume().catch(() => {}); }, { once: true });
    }
  }

  setup();
})();
