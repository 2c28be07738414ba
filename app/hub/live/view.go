package live

import (
	"strings"
	"time"

	"boardd/referee"
	"boardd/rules"
	"boardd/rules/square"
)

// Tile statuses (View.Status): what the page of all boards shows on a
// board's tile.
const (
	StatusIdle     = "idle"     // no game seen yet
	StatusPlaying  = "playing"  // a game under way
	StatusFinished = "finished" // the last game is over
	StatusSetup    = "set-up"   // the board guides a set-up
	StatusOffline  = "offline"  // the board's connection to the broker is gone
	StatusPaused   = "paused"   // the board cannot write to its disk
	StatusFault    = "sensor_fault"
)

// View is one board as the hub's page shows it: the board's display
// state, rebuilt from the messages the hub stored (never from anything it
// did not store), and its tile status.
type View struct {
	Board string `json:"board"`
	// Status is the tile's: idle, playing, finished, set-up, offline,
	// paused or sensor_fault.
	Status string `json:"status"`
	// Conn is the board's last MQTT status (online, offline, paused,
	// sensor_fault; "" before the hub heard one).
	Conn string `json:"conn"`
	// Moves counts the moves of the current game (taken-back ones not
	// counted); LastMove is the last of them in PGN4.
	Moves    int    `json:"moves"`
	LastMove string `json:"last_move"`
	// Seq is the last message of the board's stream the view includes.
	Seq uint64 `json:"seq"`
	// State is the board's display state, as referee.State (the fields a
	// stream of messages can tell: no occupancy, lifted piece or lights).
	State referee.State `json:"state"`
}

// board folds one board's stored messages into its View.
type board struct {
	name    string
	conn    string
	lookup  Lookup
	variant *rules.Variant
	st      referee.State
	coords  []string // the moves' coordinates, beside st.Moves (turns without one: "")
	setup   bool     // a guided set-up began and no move or correction ended it
	clocks  bool     // the clocks run (a move started them, no pause or end since)
	at      time.Time
	// stateAt is when the clocks in st were true (the hub's time).
	stateAt time.Time
}

func newBoard(name string, lookup Lookup) *board {
	b := &board{name: name, lookup: lookup}
	b.st = referee.State{Board: name, Status: "playing", Pieces: map[string]string{}, Squares: []string{}, Occupancy: []string{},
		Moves: []referee.MoveInfo{}, Tags: map[string]string{}}
	return b
}

// apply folds message m (the board's next stored one) into the view; now
// is the hub's time.
func (b *board) apply(m referee.Message, now time.Time) {
	b.st.Seq = m.Seq
	b.stateAt = now
	if m.Game != "" && m.Game != b.st.Game && m.Kind != referee.MsgGameStart {
		// A game whose start the hub never had (the board no longer kept
		// it): what the messages tell from here on.
		b.newGame(m.Game, b.st.Variant, nil)
	}
	switch m.Kind {
	case referee.MsgGameStart:
		b.newGame(m.Game, m.Variant, m.Tags)
	case referee.MsgTags:
		for k, v := range m.Tags {
			if v == "" {
				delete(b.st.Tags, k)
			} else {
				b.st.Tags[k] = v
			}
		}
	case referee.MsgMove:
		b.push(m.Seat, m.Move, m.Coord)
		b.clocks = len(m.Clocks) > 0
		b.setup, b.st.Remote, b.st.DrawOffers = false, nil, nil
		if b.st.Status != "over" {
			b.st.Status = "playing"
		}
	case referee.MsgPromotionChanged, referee.MsgMoveRevised:
		b.pop()
		b.push(m.Seat, m.Move, m.Coord)
	case referee.MsgTakeback:
		b.pop()
		b.setup = false
		b.st.Status = "playing"
	case referee.MsgResign, referee.MsgTimeout, referee.MsgWinClaimed:
		mv := m.Move
		if mv == "" {
			mv = map[string]string{referee.MsgResign: "R", referee.MsgTimeout: "T", referee.MsgWinClaimed: "claims the win"}[m.Kind]
		}
		b.push(m.Seat, mv, "")
	case referee.MsgGameOver:
		b.st.Result = m.Result
		b.st.Status = "over"
		b.clocks, b.setup, b.st.Remote = false, false, nil
	case referee.MsgSetup:
		b.setup = true
	case referee.MsgIllegal, referee.MsgOutOfTurn, referee.MsgAmbiguous:
		if b.st.Status != "over" {
			b.st.Status = "correction"
		}
	case referee.MsgCorrected:
		b.setup = false
		if b.st.Status != "over" {
			b.st.Status = "playing"
		}
	case referee.MsgTakebackAsked:
		b.st.Status = "takeback_asked"
	case referee.MsgRemoteMove:
		b.st.Remote = &referee.MoveInfo{Seat: m.Seat, Move: m.Move}
	case referee.MsgClock:
		b.clocks = strings.Contains(m.Text, "running")
	case referee.MsgSensorFault:
		if m.Square == "" {
			b.st.SensorFault = m.Text
		}
	case referee.MsgSensorOK:
		b.st.SensorFault = ""
	case referee.MsgDrawOffer:
		b.st.DrawOffers = append(b.st.DrawOffers, m.Seat)
	case referee.MsgDrawDeclined:
		b.st.DrawOffers = nil
	}
	if b.setup && b.st.Status != "over" {
		b.st.Status = "setup"
	} else if b.st.Status == "setup" {
		b.st.Status = "playing"
	}
	if len(m.Clocks) == rules.NumSeats {
		for i := range b.st.Seats {
			b.st.Seats[i].ClockMS = m.Clocks[i]
		}
	}
	if m.FEN4 != "" {
		b.position(m.FEN4)
	}
	for _, s := range m.Out {
		b.seat(s, "eliminated")
	}
	switch m.Kind {
	case referee.MsgResign:
		b.seat(m.Seat, "resigned")
	case referee.MsgTimeout:
		b.seat(m.Seat, "timed out")
	}
	for i := range b.st.Seats {
		s := &b.st.Seats[i]
		s.Player = b.st.Tags[s.Seat]
		s.Running = b.clocks && b.st.Status != "over" && s.ClockMS >= 0 && s.Seat == b.st.Turn
	}
}

// newGame starts the view of a game.
func (b *board) newGame(id, variant string, tags map[string]string) {
	b.st.Game, b.st.Variant = id, variant
	b.st.Status, b.st.Result, b.st.Remote, b.st.DrawOffers = "playing", nil, nil, nil
	b.st.Moves, b.coords, b.st.LastMove, b.st.Checks = []referee.MoveInfo{}, nil, nil, nil
	b.st.Tags = map[string]string{}
	for k, v := range tags {
		b.st.Tags[k] = v
	}
	b.setup, b.clocks = false, false
	b.st.Seats = nil
	for s := rules.Seat(0); s < rules.NumSeats; s++ {
		b.st.Seats = append(b.st.Seats, referee.SeatState{Seat: s.String(), Status: "playing", ClockMS: -1})
	}
	b.variant = nil
	if v, err := b.lookup(variant, ""); err == nil {
		b.variant = v
		b.st.Squares, b.st.Walls = []string{}, nil
		for _, q := range v.Geometry.Playable.Squares() {
			b.st.Squares = append(b.st.Squares, q.String())
		}
		for _, w := range v.Geometry.Barriers {
			b.st.Walls = append(b.st.Walls, [2]string{w.A.String(), w.B.String()})
		}
	}
}

func (b *board) push(seat, move, coord string) {
	b.st.Moves = append(b.st.Moves, referee.MoveInfo{Seat: seat, Move: move})
	b.coords = append(b.coords, coord)
	b.lastMove()
}

func (b *board) pop() {
	if n := len(b.st.Moves); n > 0 {
		b.st.Moves, b.coords = b.st.Moves[:n-1], b.coords[:n-1]
	}
	b.lastMove()
}

// lastMove lights the squares of the last turn that moved a piece.
func (b *board) lastMove() {
	b.st.LastMove = nil
	for i := len(b.coords) - 1; i >= 0; i-- {
		if from, to, ok := strings.Cut(b.coords[i], "-"); ok {
			to, _, _ = strings.Cut(to, "=")
			b.st.LastMove = []string{from, to}
			return
		}
	}
}

// position reads the pieces, the turn, points and checks from a FEN4.
func (b *board) position(fen string) {
	if b.variant == nil {
		return
	}
	p, err := rules.ParseFEN4(b.variant, fen)
	if err != nil {
		return
	}
	b.st.FEN4 = fen
	b.st.Turn = p.Turn().String()
	b.st.Pieces = map[string]string{}
	for _, q := range b.variant.Geometry.Playable.Squares() {
		if pc := p.At(q); pc.IsPiece() {
			b.st.Pieces[q.String()] = referee.PieceCode(pc)
		}
	}
	b.st.Checks = nil
	for i := range b.st.Seats {
		s := rules.Seat(i)
		b.st.Seats[i].Points = p.Points(s)
		out := p.Eliminated(s)
		if out && b.st.Seats[i].Status == "playing" {
			b.st.Seats[i].Status = "eliminated"
		} else if !out {
			b.st.Seats[i].Status = "playing"
		}
		if k := p.KingSquare(s); k != square.None && !out && p.InCheck(s) {
			b.st.Checks = append(b.st.Checks, k.String())
		}
	}
}

// seat sets a seat's status.
func (b *board) seat(name, status string) {
	for i := range b.st.Seats {
		if b.st.Seats[i].Seat == name {
			b.st.Seats[i].Status = status
		}
	}
}

// view is the board's View at now: a running clock counted down since
// the state was taken. full keeps the move list (the board's own
// display); without it the list is left out (the page of all boards).
func (b *board) view(now time.Time, full bool) View {
	v := View{Board: b.name, Conn: b.conn, Seq: b.st.Seq, State: b.st}
	v.State.Seats = append([]referee.SeatState(nil), b.st.Seats...)
	for i := range v.State.Seats {
		if s := &v.State.Seats[i]; s.Running {
			s.ClockMS = max(0, s.ClockMS-now.Sub(b.stateAt).Milliseconds())
		}
	}
	for i, mv := range b.st.Moves {
		if b.coords[i] != "" {
			v.Moves++
			v.LastMove = mv.Move
		}
	}
	if !full {
		v.State.Moves = nil
	}
	switch {
	case b.conn == "offline":
		v.Status = StatusOffline
	case b.conn == "paused":
		v.Status = StatusPaused
	case b.conn == "sensor_fault":
		v.Status = StatusFault
	case b.st.Game == "":
		v.Status = StatusIdle
	case b.st.Status == "over":
		v.Status = StatusFinished
	case b.st.Status == "setup":
		v.Status = StatusSetup
	default:
		v.Status = StatusPlaying
	}
	return v
}
