'use strict';
// boardd's board drawing: the four-player board (or any board of the
// variants: the cross, 16×16), its pieces, the marks (last move, checks,
// set-up), and the seat cards in the cut corners with names, clocks,
// points and status. The board's own page (app.js) and the club hub's
// page of all boards draw every board with it. Plain browser JavaScript,
// no build step: it defines window.boardd.
(function () {
  const SEATS = ['Red', 'Blue', 'Yellow', 'Green']; // clockwise from the bottom
  const FILES = 'abcdefghijklmnop';
  // A piece is a filled glyph tinted with its seat's colour under an
  // outline glyph in black. U+FE0E asks for text, not emoji, presentation.
  const FILL = { K: '\u265A', Q: '\u265B', R: '\u265C', B: '\u265D', N: '\u265E', P: '\u265F', D: '\u265B' };
  const LINE = { K: '\u2654', Q: '\u2655', R: '\u2656', B: '\u2657', N: '\u2658', P: '\u2659', D: '\u2655' };
  const TEXT = '\uFE0E';

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

  function coords(sq) {
    return { x: FILES.indexOf(sq[0]), y: parseInt(sq.slice(1), 10) - 1 };
  }

  // botLevels reads the game's Bots tag ("Green:3,Blue:5"; a seat without
  // a level plays level 3, as the board reads it): seat -> level.
  function botLevels(tags) {
    const bots = {};
    for (const part of ((tags || {}).Bots || '').split(',')) {
      const [seat, lvl] = part.split(':');
      const i = seatIndex((seat || '').trim());
      if (i >= 0) bots[SEATS[i]] = (lvl || '').trim() || '3';
    }
    return bots;
  }

  function formatClock(ms) {
    ms = Math.max(0, ms);
    if (ms < 10000) return (ms / 1000).toFixed(1);
    const t = Math.ceil(ms / 1000), h = Math.floor(t / 3600), m = Math.floor(t / 60) % 60, s = t % 60;
    const ss = String(s).padStart(2, '0');
    return h ? h + ':' + String(m).padStart(2, '0') + ':' + ss : m + ':' + ss;
  }

  // Board draws one board into root (an element with the class "board"):
  // render(state) with a referee.State, renderLights(lights), tick() to
  // count a running clock down. opts: rot (the seat index at the bottom),
  // onSquare(name) (a square clicked), onLayout(rot) (after a rotation).
  class Board {
    constructor(root, opts) {
      opts = opts || {};
      this.root = root;
      this.rot = opts.rot || 0;
      this.onSquare = opts.onSquare || null;
      this.onLayout = opts.onLayout || null;
      this.cells = new Map(); // square name -> element
      this.cards = []; // seat cards by seat index
      this.n = 14; // the board's side: 14 (the cross) or 16 (Russian Fortress Chess)
      this.cut = true; // the corners are cut away (the cross): the seat cards sit there
      this.walls = []; // barriers: pairs of squares
      this.state = null;
      this.stateAt = 0; // performance.now() when the state arrived, for the clocks
      this.lights = null;
    }

    // view maps board coordinates to a display column and row (row 0 at
    // the top) with seat rot at the bottom.
    view(x, y, rot) {
      const M = this.n - 1;
      let col = x, up = y;
      if (rot === 1) { col = M - y; up = x; }         // Blue (file a) at the bottom
      if (rot === 2) { col = M - x; up = M - y; }     // Yellow
      if (rot === 3) { col = y; up = M - x; }         // Green (file n)
      return { col, row: M - up };
    }

    // cardAreas are the seat cards' grid areas by position (bottom, left,
    // top, right): the cut corners of the cross, or two rows above and
    // two below a board without cut corners (16×16).
    cardAreas() {
      const n = this.n;
      if (this.cut) {
        const d = (n - 8) / 2, far = n - d + 1;
        return [`${far} / ${far} / ${n + 1} / ${n + 1}`, `${far} / 1 / ${n + 1} / ${d + 1}`, `1 / 1 / ${d + 1} / ${d + 1}`, `1 / ${far} / ${d + 1} / ${n + 1}`];
      }
      const h = n / 2 + 1;
      return [`${n + 3} / ${h} / ${n + 5} / ${n + 1}`, `${n + 3} / 1 / ${n + 5} / ${h}`, `1 / 1 / 3 / ${h}`, `1 / ${h} / 3 / ${n + 1}`];
    }

    build(squares, walls) {
      const board = this.root;
      board.textContent = '';
      this.cells.clear();
      this.n = 0;
      for (const name of squares) {
        const { x, y } = coords(name);
        this.n = Math.max(this.n, x + 1, y + 1);
      }
      this.n = this.n || 14;
      this.cut = squares.length > 0 && !squares.includes('a1');
      this.walls = walls || [];
      board.style.setProperty('--n', String(this.n));
      board.style.setProperty('--rows', String(this.cut ? this.n : this.n + 4));
      board.classList.toggle('uncut', !this.cut);
      board.dataset.n = String(this.n);
      for (const name of squares) {
        const { x, y } = coords(name);
        // chess.com: "the 'n1' square on the bottom right should be a light
        // square"; a1 (where a full board would have it) is dark.
        const c = el('div', 'sq ' + ((x + y) % 2 === 1 ? 'light' : 'dark'));
        c.dataset.square = name;
        // children: LED tint, piece, bottom label, left label, walls
        c.append(el('div', 'led'), el('span', 'pc'), el('span', 'coord cb'), el('span', 'coord cl'), el('div', 'wall'));
        if (this.onSquare) c.addEventListener('click', () => this.onSquare(name));
        board.append(c);
        this.cells.set(name, c);
      }
      this.cards = SEATS.map((seat) => {
        const card = el('div', 'card ' + seatClass(seat));
        card.dataset.seat = seat;
        card.append(el('div', 'name', seat), el('div', 'clock'), el('div', 'info'), el('div', 'status'));
        board.append(card);
        return card;
      });
      this.layout();
    }

    // layout places squares, coordinates, walls and seat cards for the
    // rotation.
    layout() {
      const top = this.cut ? 0 : 2; // rows above the board for the cards
      const pos = new Map();
      const lowest = new Map(), leftmost = new Map(); // per display column / row
      for (const [name, c] of this.cells) {
        const { x, y } = coords(name);
        const p = this.view(x, y, this.rot);
        pos.set(name, p);
        c.style.gridColumn = String(p.col + 1);
        c.style.gridRow = String(p.row + 1 + top);
        lowest.set(p.col, Math.max(lowest.get(p.col) ?? -1, p.row));
        leftmost.set(p.row, Math.min(leftmost.get(p.row) ?? this.n, p.col));
      }
      for (const [name, c] of this.cells) {
        const { col, row } = pos.get(name);
        const file = name[0], rank = name.slice(1), turned = this.rot % 2 === 1;
        c.children[2].textContent = row === lowest.get(col) ? (turned ? rank : file) : '';
        c.children[3].textContent = col === leftmost.get(row) ? (turned ? file : rank) : '';
        c.children[4].className = 'wall';
      }
      // A wall between two squares side by side is drawn on both squares'
      // shared edge; a diagonal barrier needs no line of its own.
      for (const [a, b] of this.walls) {
        const pa = pos.get(a), pb = pos.get(b);
        if (!pa || !pb) continue;
        const dc = pb.col - pa.col, dr = pb.row - pa.row;
        if (Math.abs(dc) + Math.abs(dr) !== 1) continue;
        const side = (d, c) => (c ? (d > 0 ? 'r' : 'l') : (d > 0 ? 'b' : 't'));
        this.cells.get(a).children[4].classList.add('w' + side(dc || dr, dc !== 0));
        this.cells.get(b).children[4].classList.add('w' + side(-(dc || dr), dc !== 0));
      }
      const areas = this.cardAreas();
      this.cards.forEach((card, s) => { card.style.gridArea = areas[(s - this.rot + 4) % 4]; });
      if (this.onLayout) this.onLayout(this.rot);
    }

    // rotate puts seat index rot at the bottom.
    rotate(rot) {
      this.rot = rot;
      this.layout();
    }

    drawPiece(c, p) {
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

    // render draws a referee.State: the squares (built afresh when the
    // board changed), pieces, marks and seat cards.
    render(st) {
      const fresh = !this.state || (this.state.squares || []).join() !== (st.squares || []).join() ||
        JSON.stringify(this.state.walls || []) !== JSON.stringify(st.walls || []);
      this.state = st;
      this.stateAt = performance.now();
      if (fresh) {
        this.build(st.squares || [], st.walls);
        if (this.lights) this.renderLights(this.lights);
      }
      const pieces = st.pieces || {};
      const marks = {
        last: st.last_move, check: st.checks, wrong: st.wrong, missing: st.missing,
        dest: st.destinations, lifted: st.lifted ? [st.lifted] : [],
      };
      for (const k in marks) marks[k] = new Set(marks[k] || []);
      for (const [name, c] of this.cells) {
        const p = pieces[name] || '';
        if ((c.dataset.piece || '') !== p) this.drawPiece(c, p);
        for (const k in marks) c.classList.toggle(k, marks[k].has(name));
      }
      const board = this.root;
      board.dataset.seq = st.seq;
      board.dataset.turn = st.turn;
      board.dataset.status = st.status;
      this.renderSeats(st);
    }

    renderLights(li) {
      this.lights = li;
      const lit = li.squares || {};
      for (const [name, c] of this.cells) {
        c.children[0].style.backgroundColor = lit[name] || '';
        c.classList.toggle('lit', !!lit[name]);
      }
    }

    renderSeats(st) {
      const seats = st.seats || [];
      const scored = /ffa/i.test(st.variant || '') || seats.some((s) => s.points);
      const bots = botLevels(st.tags);
      for (const s of seats) {
        const card = this.cards[seatIndex(s.seat)];
        if (!card) continue;
        card.children[0].textContent = s.player || s.seat;
        card.children[0].title = s.player ? s.player + ' (' + s.seat + ')' : s.seat;
        card.classList.toggle('turn', st.status !== 'over' && st.turn === s.seat);
        card.classList.toggle('out', s.status !== 'playing' && s.status !== 'walking');
        const info = [];
        if (scored) info.push(s.points + (s.points === 1 ? ' pt' : ' pts'));
        // A bot seat is a remote seat whose moves the board's bot chooses.
        if (bots[s.seat]) info.push('bot ' + bots[s.seat]);
        else if (s.remote) info.push('remote');
        card.classList.toggle('bot', !!bots[s.seat]);
        card.dataset.kind = bots[s.seat] ? 'bot' : s.remote ? 'remote' : 'board';
        card.children[2].textContent = info.join(' · ');
        card.children[2].title = bots[s.seat] ? "played by the board's bot at level " + bots[s.seat] + ' (a person makes its moves on the board)' : '';
        card.children[3].textContent = s.status && s.status !== 'playing' ? s.status : '';
      }
      this.tick();
    }

    // tick counts the running clock down between state updates.
    tick() {
      const st = this.state;
      if (!st) return;
      const elapsed = performance.now() - this.stateAt;
      for (const s of st.seats || []) {
        const card = this.cards[seatIndex(s.seat)];
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
  }

  // loginAgain reloads the page when a broken event stream was the end of
  // its login (a club hub with --viewers-login sends a page without one to
  // its login page): the page asks for itself without following
  // redirects. Elsewhere the page answers and nothing happens.
  function loginAgain() {
    fetch(location.href, { method: 'HEAD', redirect: 'manual', credentials: 'same-origin' })
      .then((r) => { if (r.type === 'opaqueredirect') location.reload(); })
      .catch(() => {});
  }

  window.boardd = { SEATS, FILES, FILL, LINE, TEXT, el, seatIndex, seatClass, botLevels, formatClock, Board, loginAgain };
})();
