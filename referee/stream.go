package referee

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"boardd/internal/printable"
	"boardd/referee/clock"
	"boardd/referee/gametags"
)

// This file holds the board's public interface: the messages every
// consumer (MQTT, the web display, the archive) receives, the snapshot of
// the board they can ask for, and the commands they may send. They are
// plain JSON so a display in any language can use them; docs/mqtt.md
// documents them with examples and docs/schema/*.json has their schemas.

// Message kinds (Message.Kind).
const (
	MsgGameStart        = "game_start"        // a new game began (Variant, Start, Tags)
	MsgMove             = "move"              // a move was played (Seat, Move, Clocks)
	MsgPromotionChanged = "promotion_changed" // the last move's promotion piece was changed (Seat, Move)
	MsgPromotionChoice  = "promotion_choice"  // a promotion with a choice: the default was played (Candidates)
	MsgMoveRevised      = "move_revised"      // a move read before is replaced: the rook's part of a castle the king has now completed, or one reading of several the moves since decided (after takeback messages for those moves; they follow as move messages) (Seat, Move: the move played, Candidates: the move replaced)
	MsgIllegal          = "illegal"           // no legal move explains the board: correction mode
	MsgOutOfTurn        = "out_of_turn"       // a legal move, by the wrong seat (Seat)
	MsgAmbiguous        = "ambiguous"         // several moves explain the board (Candidates)
	MsgCorrected        = "corrected"         // the board matches the game again
	MsgTakeback         = "takeback"          // the last turn was undone
	MsgTakebackAsked    = "takeback_asked"    // the board was put back; confirm with takeback_confirm
	MsgResign           = "resign"            // a seat resigned (Seat, Move is "R")
	MsgTimeout          = "timeout"           // a seat's flag fell (Seat)
	MsgGameOver         = "game_over"         // the game ended (Result)
	MsgTags             = "tags"              // player names or event data changed (Tags)
	MsgRemoteMove       = "remote_move"       // a remote seat's move waits to be executed on the board (Seat, Move)
	MsgClock            = "clock"             // the clocks were started or paused (Clocks)
	MsgSensorFault      = "sensor_fault"      // a switch misbehaves (Square, Text), or no switch can be read (no Square; State.SensorFault)
	MsgSensorOK         = "sensor_ok"         // the switches read well again after a sensor_fault without a square
	MsgDrawOffer        = "draw_offer"        // a seat offers or accepts a draw (Seat; Candidates: the seats still to agree)
	MsgDrawDeclined     = "draw_declined"     // a seat declined the draw on offer, or a move let it lapse (Seat)
	MsgDrawAgreed       = "draw_agreed"       // a draw was agreed (Seats); game_over follows unless only one game of a double game ended
	MsgWinClaimed       = "win_claimed"       // FFA: with two left, the seat leading by more than 20 points claimed the win (Seat, Points); game_over follows
	MsgSetup            = "setup"             // a guided set-up of the current position from an empty board began
	// Blocking double chess: moving into check by announcement.
	MsgAnnounce         = "announce"          // a seat announced a move into check (Seat, Move, Coord, Note); its partner replies
	MsgReply            = "reply"             // the partner replied to the announcement (Seat, Reply, Move: the announced move, Note)
	MsgStalemateClaimed = "stalemate_claimed" // a stalemated seat declined to move into check: its game is drawn (Seat, Note)
	// Chess4 Method 2: the army a player keeps after eliminating a second opponent.
	MsgArmyKept = "army_kept" // Seat keeps Army's army, the other turns static (Seat, Army, Note)
)

// Message is one entry of the board's ordered event stream. Seq rises by
// one per message for the board's whole life (across games and restarts),
// so a consumer that saw Seq n and then n+2 knows it missed one and can
// replay from n+1. A Seq is never reused; after its stream file was
// damaged or lost the board may skip numbers (LiveConfig.SeqFloor).
type Message struct {
	Seq   uint64    `json:"seq"`
	Time  time.Time `json:"time"`
	Board string    `json:"board"`
	Game  string    `json:"game"`
	Kind  string    `json:"kind"`
	// Seat is the seat the message is about (who moved, resigned, flagged,
	// moved out of turn, or whose remote move waits).
	Seat string `json:"seat,omitempty"`
	// Move is the PGN4 token of the move ("h2-h4", "Nj1xBi3+", "O-O").
	Move string `json:"move,omitempty"`
	// Coord is the same move in coordinates, unambiguous for machines:
	// "h2-h4", "e10-e11=N"; castling as the king's squares.
	Coord string `json:"coord,omitempty"`
	// Candidates are the moves that fit the board (ambiguous, promotion),
	// or the seats a draw offer still waits for (draw_offer).
	Candidates []string `json:"candidates,omitempty"`
	// Seats are the seats that agreed a draw (draw_agreed).
	Seats []string `json:"seats,omitempty"`
	// Reply is the partner's answer to an announced move into check
	// (reply): unwise, accept, another or impossible.
	Reply string `json:"reply,omitempty"`
	// Army is the eliminated seat whose army Seat keeps (army_kept).
	Army string `json:"army,omitempty"`
	// Note is the rules' record of an announcement, reply, claimed
	// stalemate or kept army, as PGN4 comments write it ("Green announces
	// n7-n6", "Yellow replies I Accept", "Green claims stalemate", "Blue
	// keeps Yellow's army"); the game journal replays it
	// (rules.Game.ApplyNote).
	Note string `json:"note,omitempty"`
	// Square is the square a sensor fault is on.
	Square string `json:"square,omitempty"`
	// Variant and Start (a start array's name or a FEN4) of a new game.
	Variant string `json:"variant,omitempty"`
	Start   string `json:"start,omitempty"`
	// Tags are PGN4 headers (Event, Round, Red, Blue, Yellow, Green, …).
	Tags map[string]string `json:"tags,omitempty"`
	// Clocks are the four clocks' remaining milliseconds (Red, Blue,
	// Yellow, Green) after the event, when the game has clocks.
	Clocks []int64 `json:"clocks,omitempty"`
	// Points are the four seats' points after a move, resignation or
	// time-out (FFA and other scoring variants; zeros otherwise).
	Points []int `json:"points,omitempty"`
	// Checks are the seats whose king is in check after a move.
	Checks []string `json:"checks,omitempty"`
	// Out are the seats eliminated by this turn, in order.
	Out []string `json:"out,omitempty"`
	// Result of a finished game.
	Result *ResultInfo `json:"result,omitempty"`
	// FEN4 is the position after the event.
	FEN4 string `json:"fen4,omitempty"`
	// Text says what happened, for people.
	Text string `json:"text"`
}

// MaxSeq is the highest Seq a board ever numbers a message with: the
// largest integer a JavaScript display reads exactly (2^53-1), more than
// a board can use in centuries. A larger number read back from a file
// (the stream, its reservation, a journal, the MQTT mirror's position)
// is damage, never a real message: it is left out with a warning, so
// numbering cannot run over.
const MaxSeq = 1<<53 - 1

// MaxMessageBytes bounds one message of the stream as JSON: what the MQTT
// mirror publishes in one packet (the embedded broker takes 1 MiB,
// others as much or more), and so what a stream line and a journal entry
// hold. The board's inputs are bounded well below it (commands by
// MaxCommandBytes, tags by referee/gametags); Bounded is the last line.
const MaxMessageBytes = 64 << 10

// Bounded returns m as it is when its JSON fits in MaxMessageBytes;
// otherwise without its tags, candidates and seats, its texts clipped,
// and at the last without its position and start. cut says what was left
// out ("" when m fits).
func (m Message) Bounded() (out Message, cut string) {
	size := func(m Message) int {
		data, _ := json.Marshal(m)
		return len(data)
	}
	n := size(m)
	if n <= MaxMessageBytes {
		return m, ""
	}
	var what []string
	steps := []struct {
		name string
		do   func(*Message) bool
	}{
		{"its tags", func(m *Message) bool { t := m.Tags != nil; m.Tags = nil; return t }},
		{"its candidates and seats", func(m *Message) bool {
			c := m.Candidates != nil || m.Seats != nil
			m.Candidates, m.Seats = nil, nil
			return c
		}},
		{"the end of its text and note", func(m *Message) bool {
			c := len(m.Text) > 1000 || len(m.Note) > 1000
			m.Text, m.Note = clipBytes(m.Text, 1000), clipBytes(m.Note, 1000)
			return c
		}},
		{"its position and start", func(m *Message) bool {
			c := m.FEN4 != "" || m.Start != ""
			m.FEN4, m.Start = "", ""
			return c
		}},
	}
	for _, st := range steps {
		if st.do(&m) {
			what = append(what, st.name)
		}
		if size(m) <= MaxMessageBytes {
			break
		}
	}
	return m, fmt.Sprintf("message %d (%s) of %d bytes is over the limit of %d: left out %s", m.Seq, clip(m.Kind), n, MaxMessageBytes, strings.Join(what, ", "))
}

// clipBytes cuts s to at most n bytes of whole UTF-8 characters.
func clipBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for len(s) > 0 && !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s + "…"
}

// ResultInfo is how a game ended.
type ResultInfo struct {
	Reason  string   `json:"reason"`
	Winners []string `json:"winners"`
	// Points are the final scores in seat order (FFA; zero otherwise).
	Points []int `json:"points"`
	// PGN4 is the result tag ("1-0", "0-1", "1/2-1/2", or FFA's scores).
	PGN4 string `json:"pgn4"`
}

// State is a snapshot of the board: everything a display needs to draw it
// from scratch. Seq is the last message it includes.
type State struct {
	Board   string `json:"board"`
	Game    string `json:"game"`
	Seq     uint64 `json:"seq"`
	Variant string `json:"variant"`
	// Status is "playing", "correction" (the board differs from the game:
	// Wrong and Missing say how), "setup" (a guided set-up of the current
	// position: Setup says which piece goes where), "takeback_asked", or
	// "over"; "paused" while the board cannot write to its disk (Message
	// says why): it takes no moves until a write succeeds.
	Status string `json:"status"`
	// Message says why the board is paused ("storage full: the game is
	// paused, nothing is lost"); empty otherwise.
	Message string `json:"message,omitempty"`
	// SensorFault says why the board cannot read its switches (a broken
	// 74HC165 chain: which chip and wire to check) while it cannot: moves
	// are not seen, the clocks are stopped, the LEDs show every square in
	// the fault colour. Empty while the switches read well.
	SensorFault string `json:"sensor_fault,omitempty"`
	FEN4        string `json:"fen4"`
	Turn        string `json:"turn"`
	// Squares are the squares of the board (160 on the cross, 256 on
	// Russian Fortress Chess's 16×16).
	Squares []string `json:"squares"`
	// Walls are the board's barriers, each a pair of squares a step
	// between which is walled off (Russian Fortress Chess's fortresses);
	// absent on a board without walls.
	Walls [][2]string `json:"walls,omitempty"`
	// Pieces maps a square to its piece: seat letter and kind, "rK",
	// "bQ", "yN", "gP"; a dead (grey) piece is "xR".
	Pieces    map[string]string `json:"pieces"`
	Seats     []SeatState       `json:"seats"`
	Moves     []MoveInfo        `json:"moves"`
	LastMove  []string          `json:"last_move,omitempty"` // from, to
	Checks    []string          `json:"checks,omitempty"`    // kings in check
	Occupancy []string          `json:"occupancy"`           // squares the switches report occupied
	Wrong     []string          `json:"wrong,omitempty"`     // occupied but should be empty
	Missing   []string          `json:"missing,omitempty"`   // empty but should be occupied
	// Lifted is the square of a piece of the side to move that is in the
	// air, Destinations where it may go.
	Lifted       string            `json:"lifted,omitempty"`
	Destinations []string          `json:"destinations,omitempty"`
	Tags         map[string]string `json:"tags"`
	Result       *ResultInfo       `json:"result,omitempty"`
	// Remote is a remote seat's move waiting to be executed on the board.
	Remote *MoveInfo `json:"remote,omitempty"`
	// DrawOffers are the seats that have offered or accepted a draw since
	// the last move (the variant must have draws by agreement).
	DrawOffers []string `json:"draw_offers,omitempty"`
	// Setup is the guided set-up's next step while Status is "setup".
	Setup *SetupInfo `json:"setup,omitempty"`
	// Announcement is a move into check announced and not yet played
	// (blocking-double): waiting for the partner's reply, or accepted
	// and waiting to be made on the board.
	Announcement *AnnouncementInfo `json:"announcement,omitempty"`
	// Relieve is the seat whose king the seat to move must take out of
	// check (its partner moved into check after "I Accept").
	Relieve string `json:"relieve,omitempty"`
}

// AnnouncementInfo is a move into check announced by Seat (blocking
// double chess). Until Accepted, ReplyBy must reply (the reply command);
// once accepted, the move is the announcer's only move and is lit on the
// board until it is made.
type AnnouncementInfo struct {
	Seat     string `json:"seat"`
	Move     string `json:"move"`  // PGN4 token, "Kn7-n6"
	Coord    string `json:"coord"` // "n7-n6"
	Accepted bool   `json:"accepted"`
	ReplyBy  string `json:"reply_by,omitempty"` // the partner who must reply (until Accepted)
}

// SetupInfo is the next step of a guided set-up: clear the board, then
// put Piece ("rN": seat letter and kind) on Square. Done of Total pieces
// stand.
type SetupInfo struct {
	Clearing bool   `json:"clearing"`
	Square   string `json:"square,omitempty"`
	Piece    string `json:"piece,omitempty"`
	Done     int    `json:"done"`
	Total    int    `json:"total"`
}

// SeatState is one seat of the snapshot.
type SeatState struct {
	Seat   string `json:"seat"`   // Red, Blue, Yellow, Green
	Player string `json:"player"` // from the tags, or ""
	Points int    `json:"points"`
	Status string `json:"status"` // playing, checkmated, resigned, …
	// ClockMS is the remaining time in milliseconds (-1: no clocks), and
	// Running tells whether it is counting down now.
	ClockMS int64 `json:"clock_ms"`
	Running bool  `json:"running"`
	Remote  bool  `json:"remote"` // played from elsewhere (cmd/move)
}

// MoveInfo is one turn of the move list.
type MoveInfo struct {
	Seat string `json:"seat"`
	Move string `json:"move"`
}

// Lights is the current LED frame, for displays that mirror the board's
// lights: only lit squares, as "#rrggbb".
type Lights struct {
	Seq     uint64            `json:"seq"`
	Squares map[string]string `json:"squares"`
}

// Command names (the last part of the MQTT topic .../cmd/<name>, or the
// web display's POST /api/cmd/<name>).
const (
	CmdNewGame         = "new_game"         // Variant, Start, Tags (players as Red/Blue/Yellow/Green), TimeControl
	CmdTags            = "tags"             // Tags to set (names, event, round)
	CmdResign          = "resign"           // Seat
	CmdPromote         = "promote"          // Piece: Q, R, B, N (or another the variant offers)
	CmdTakebackConfirm = "takeback_confirm" // confirm a takeback the board asked about
	CmdMove            = "move"             // Seat, Move: a remote seat's move, executed on the board by a human
	CmdRemote          = "remote"           // Seat, On: make a seat remote or local again
	CmdClock           = "clock"            // Action: start or pause
	CmdReplay          = "replay"           // From: resend messages from this sequence number
	CmdState           = "state"            // republish the retained state
	CmdDrawOffer       = "draw_offer"       // Seat: offer a draw, or accept the one on offer
	CmdDrawDecline     = "draw_decline"     // Seat: decline the draw on offer
	CmdSetup           = "setup"            // set the current position up again from an empty board
	CmdAnnounce        = "announce"         // Seat, Move: announce a move into check (blocking-double)
	CmdReply           = "reply"            // Seat, Reply: the partner answers the announcement (unwise, accept, another, impossible)
	CmdClaimStalemate  = "claim_stalemate"  // Seat: a stalemated seat that could move into check takes the draw instead
	CmdClaimWin        = "claim_win"        // Seat: FFA, two left, the seat leading by more than 20 points ends the game as its winner
	CmdKeepArmy        = "keep_army"        // Seat, Army: chess4-m2, the player who eliminated a second opponent keeps that army (until the next move)
)

var commandFields = map[string][]string{
	CmdNewGame:         {"variant", "start", "tags", "time_control"},
	CmdTags:            {"tags"},
	CmdResign:          {"seat"},
	CmdPromote:         {"piece"},
	CmdTakebackConfirm: nil,
	CmdMove:            {"seat", "move"},
	CmdRemote:          {"seat", "on"},
	CmdClock:           {"action"},
	CmdReplay:          {"from"},
	CmdState:           nil,
	CmdDrawOffer:       {"seat"},
	CmdDrawDecline:     {"seat"},
	CmdSetup:           nil,
	CmdAnnounce:        {"seat", "move"},
	CmdReply:           {"seat", "reply"},
	CmdClaimStalemate:  {"seat"},
	CmdClaimWin:        {"seat"},
	CmdKeepArmy:        {"seat", "army"},
}

// Commands lists the command names, sorted.
func Commands() []string {
	return []string{CmdAnnounce, CmdClaimStalemate, CmdClaimWin, CmdClock, CmdDrawDecline, CmdDrawOffer, CmdKeepArmy, CmdMove, CmdNewGame, CmdPromote, CmdRemote, CmdReplay, CmdReply, CmdResign, CmdSetup, CmdState, CmdTags, CmdTakebackConfirm}
}

// Command is a request to change or resend the game. Its payload is a
// JSON object with the fields its name takes (see Commands) and an
// optional ID echoed in the reply.
type Command struct {
	Name    string            `json:"-"`
	ID      string            `json:"id,omitempty"`
	Variant string            `json:"variant,omitempty"`
	Start   string            `json:"start,omitempty"`
	Tags    map[string]string `json:"tags,omitempty"`
	Seat    string            `json:"seat,omitempty"`
	Piece   string            `json:"piece,omitempty"`
	Move    string            `json:"move,omitempty"`
	On      *bool             `json:"on,omitempty"`
	Action  string            `json:"action,omitempty"`
	From    *uint64           `json:"from,omitempty"`
	Reply   string            `json:"reply,omitempty"`
	Army    string            `json:"army,omitempty"`
	// TimeControl is a new game's clocks as chess.com writes them
	// ("10+5": minutes + increment seconds, "1+15D": a delay; "-": no
	// clocks); empty keeps the board's configured control.
	TimeControl string `json:"time_control,omitempty"`
}

// Reply answers a command: OK, or an error that says what was wrong.
type Reply struct {
	ID    string `json:"id,omitempty"`
	OK    bool   `json:"ok"`
	Error string `json:"error,omitempty"`
	// Seq is the last message the command caused (0 if none).
	Seq uint64 `json:"seq,omitempty"`
}

// MaxCommandBytes bounds a command payload.
const MaxCommandBytes = 16 << 10

// ParseCommand reads the command name with its JSON payload (an empty
// payload is {}). It checks the shape only: unknown names, unknown or
// misplaced fields, keys given twice, wrong types, oversize payloads,
// trailing data and control characters or line separators in any text
// (internal/printable) are errors that say what is expected. Whether the command makes sense for
// the game now is the referee's to say.
func ParseCommand(name string, payload []byte) (Command, error) {
	fields, ok := commandFields[name]
	if !ok {
		return Command{}, fmt.Errorf("unknown command %q: want one of %s", clip(name), strings.Join(Commands(), ", "))
	}
	if len(payload) > MaxCommandBytes {
		return Command{}, fmt.Errorf("%s: payload of %d bytes is over the limit of %d", name, len(payload), MaxCommandBytes)
	}
	if !utf8.Valid(payload) {
		return Command{}, fmt.Errorf("%s: payload is not UTF-8 JSON", name)
	}
	c := Command{Name: name}
	if len(bytes.TrimSpace(payload)) == 0 {
		payload = []byte("{}")
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(payload, &raw); err != nil {
		return Command{}, fmt.Errorf("%s: payload must be a JSON object: %v", name, err)
	}
	if key := duplicateKey(payload); key != "" {
		return Command{}, fmt.Errorf("%s: key %s appears twice: give each field once", name, clip(key))
	}
	allowed := map[string]bool{"id": true}
	for _, f := range fields {
		allowed[f] = true
	}
	for k := range raw {
		if !allowed[k] {
			want := "no fields"
			if len(fields) > 0 {
				want = "fields " + strings.Join(fields, ", ")
			}
			return Command{}, fmt.Errorf("%s: unknown field %q (it takes %s, and id)", name, clip(k), want)
		}
	}
	dec := json.NewDecoder(bytes.NewReader(payload))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return Command{}, fmt.Errorf("%s: %v", name, err)
	}
	c.Name = name
	if len(c.ID) > 64 {
		return Command{}, fmt.Errorf("%s: id longer than 64 characters", name)
	}
	for _, f := range [...]struct{ field, v string }{{"id", c.ID}, {"variant", c.Variant}, {"start", c.Start}, {"seat", c.Seat},
		{"piece", c.Piece}, {"move", c.Move}, {"action", c.Action}, {"reply", c.Reply}, {"army", c.Army}} {
		if err := printable.Check(f.v); err != nil {
			return Command{}, fmt.Errorf("%s: %s %w", name, f.field, err)
		}
	}
	if len(c.Tags) > gametags.Max {
		return Command{}, fmt.Errorf("%s: %d tags: a game has at most %d", name, len(c.Tags), gametags.Max)
	}
	for _, k := range slices.Sorted(maps.Keys(c.Tags)) {
		if err := gametags.Check(k, c.Tags[k]); err != nil {
			return Command{}, fmt.Errorf("%s: %w", name, err)
		}
	}
	need := func(ok bool, what string) error {
		if !ok {
			return fmt.Errorf("%s: needs %s", name, what)
		}
		return nil
	}
	var err error
	switch name {
	case CmdNewGame:
		if _, _, e := clock.Parse(c.TimeControl); e != nil {
			err = fmt.Errorf("%s: %w", name, e)
		} else if e := gametags.CheckStart(c.Tags); e != nil {
			err = fmt.Errorf("%s: %w", name, e)
		}
	case CmdTags:
		err = need(len(c.Tags) > 0, `"tags", for example {"tags":{"Red":"Ann"}}`)
	case CmdResign, CmdDrawOffer, CmdDrawDecline, CmdClaimStalemate, CmdClaimWin:
		err = need(c.Seat != "", `"seat" (Red, Blue, Yellow or Green)`)
	case CmdPromote:
		err = need(c.Piece != "", `"piece" (Q, R, B or N)`)
	case CmdMove, CmdAnnounce:
		if err = need(c.Seat != "", `"seat"`); err == nil {
			err = need(c.Move != "", `"move", a PGN4 move such as "h2-h4"`)
		}
	case CmdReply:
		if err = need(c.Seat != "", `"seat"`); err == nil {
			err = need(c.Reply != "", `"reply": "unwise", "accept", "another" or "impossible"`)
		}
	case CmdKeepArmy:
		if err = need(c.Seat != "", `"seat", the player who chooses`); err == nil {
			err = need(c.Army != "", `"army", the eliminated seat whose army he keeps (Red, Blue, Yellow or Green)`)
		}
	case CmdRemote:
		if err = need(c.Seat != "", `"seat"`); err == nil {
			err = need(c.On != nil, `"on" (true or false)`)
		}
	case CmdClock:
		err = need(c.Action == "start" || c.Action == "pause", `"action": "start" or "pause"`)
	case CmdReplay:
		err = need(c.From != nil, `"from", a sequence number`)
	}
	return c, err
}

// duplicateKey answers the first key that appears twice in one object of
// a JSON document (as a path: "tags.Red"), or "". encoding/json keeps the
// last of two, so {"seat":"Purple","seat":"Blue"} would act on Blue.
func duplicateKey(doc []byte) string {
	type frame struct {
		keys map[string]bool // nil in an array
		path string          // "" at the top, "tags." inside tags
		key  string          // the last key read
		val  bool            // a key was read: its value comes next
	}
	dec := json.NewDecoder(bytes.NewReader(doc))
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return "" // the end, or a syntax error json.Unmarshal reports
		}
		var top *frame
		if n := len(stack); n > 0 {
			top = stack[n-1]
		}
		if top != nil && top.keys != nil && !top.val {
			if d, ok := tok.(json.Delim); ok && d == '}' {
				stack = stack[:len(stack)-1]
				continue
			}
			key, _ := tok.(string)
			if top.keys[key] {
				return printable.Escape(top.path + key)
			}
			top.keys[key], top.key, top.val = true, key, true
			continue
		}
		inner := ""
		if top != nil {
			inner = top.path
			if top.keys != nil {
				inner += top.key + "."
			}
			top.val = false
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{keys: map[string]bool{}, path: inner})
		case json.Delim('['):
			stack = append(stack, &frame{path: inner})
		case json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
	}
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// Board is what the consumers of a live board (MQTT, the web display, the
// archive) see of it. Live implements it; tests may fake it.
type Board interface {
	// Subscribe returns the kept messages with Seq >= from (from 0: none,
	// only new ones), then delivers every later message on live, in
	// order. If the consumer falls behind far enough to fill live's
	// buffer, live is closed: subscribe again from the last Seq seen + 1
	// (Resume does). from older than the oldest kept message is a
	// *NotKeptError that names the oldest. cancel ends the subscription.
	Subscribe(from uint64) (backlog []Message, live <-chan Message, cancel func(), err error)
	// State is the current snapshot.
	State() State
	// Lights is the current LED frame.
	Lights() Lights
	// Changed returns a channel that receives (coalesced) whenever the
	// state or the lights may have changed, including between messages
	// (a lifted piece lights its destinations); cancel ends it.
	Changed() (signal <-chan struct{}, cancel func())
	// Do carries out a command and answers it. Authorisation is the
	// caller's job: Do trusts whoever calls it.
	Do(ctx context.Context, c Command) Reply
}
