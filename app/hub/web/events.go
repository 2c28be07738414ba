package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"boardd/app/catalog"
	"boardd/app/hub/event"
	"boardd/app/hub/store"
	"boardd/internal/printable"
	"boardd/referee"
	"boardd/referee/clock"
	"boardd/referee/gametags"
	"boardd/rules"
	"boardd/sync/mqtt"
)

// EventsConfig is what the events' routes need from the hub.
type EventsConfig struct {
	Store *store.Store
	Log   *slog.Logger
	// Password is the tournament director's password; "" leaves the
	// events read-only.
	Password string
	// Command sends a command to a board over MQTT and returns the
	// board's reply (hub/server). nil: rounds cannot be pushed.
	Command func(ctx context.Context, board string, c referee.Command) referee.Reply
	// ViewersLogin makes every reading route need a login: a viewer's
	// (ViewersPassword) or the director's (viewers.go).
	ViewersLogin bool
	// ViewersPassword is the viewers' password with ViewersLogin ("": only
	// the director's password logs in).
	ViewersPassword string
	// Now is the clock of the sessions and the throttle (default time.Now).
	Now func() time.Time
}

// WithEvents serves the events (the API under /api/events and
// /api/director, the pages under /events) and hands every other request
// to next.
func WithEvents(next http.Handler, cfg EventsConfig) http.Handler {
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	e := &events{cfg: cfg, s: cfg.Store, log: cfg.Log, d: newDirector(cfg.Password, cfg.Now)}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/director/me", e.d.handleMe)
	mux.HandleFunc("POST /api/director/login", e.d.handleLogin)
	mux.HandleFunc("POST /api/director/logout", e.d.handleLogout)
	mux.HandleFunc("GET /api/events", e.list)
	mux.HandleFunc("POST /api/events", e.d.only(e.create))
	mux.HandleFunc("GET /api/events/{id}", e.show)
	mux.HandleFunc("PUT /api/events/{id}", e.d.only(e.edit))
	mux.HandleFunc("PUT /api/events/{id}/players", e.d.only(e.setPlayers))
	mux.HandleFunc("POST /api/events/{id}/rounds/{n}/pair", e.d.only(e.pair))
	mux.HandleFunc("POST /api/events/{id}/rounds/{n}/push", e.d.only(e.push))
	mux.HandleFunc("POST /api/events/{id}/rounds/{n}/tables/{t}/result", e.d.only(e.correct))
	mux.HandleFunc("GET /api/events/{id}/standings", e.standings)
	mux.HandleFunc("GET /api/events/{id}/standings.csv", e.standingsCSV)
	mux.HandleFunc("GET /api/events/{id}/players/{pid}", e.player)
	mux.HandleFunc("GET /api/events/{id}/pgn4", e.eventPGN4)
	mux.HandleFunc("GET /api/events/{id}/rounds/{n}/pgn4", e.roundPGN4)
	e.pages(mux)
	mux.Handle("/", next)
	if !cfg.ViewersLogin {
		return mux
	}
	v := newViewers(cfg.ViewersPassword, e.d)
	mux.HandleFunc("GET /login", staticPage("login.html"))
	mux.HandleFunc("GET /api/viewer/me", v.handleMe)
	mux.HandleFunc("POST /api/viewer/login", v.handleLogin)
	mux.HandleFunc("POST /api/viewer/logout", v.handleLogout)
	return v.guard(mux)
}

type events struct {
	cfg EventsConfig
	s   *store.Store
	log *slog.Logger
	d   *director
}

// fail answers a store error: 404 for what is not there, 409 for a
// name taken, 503 (logged) for the database.
func (e *events) fail(w http.ResponseWriter, err error) {
	switch {
	case errors.Is(err, store.ErrNotFound):
		eventError(w, http.StatusNotFound, err.Error())
	case errors.Is(err, store.ErrExists):
		eventError(w, http.StatusConflict, err.Error())
	default:
		e.log.Error("hub events: database", "error", err)
		eventError(w, http.StatusServiceUnavailable, "the hub cannot read or write its database: see its log")
	}
}

// eventForm is an event as the director sends it.
type eventForm struct {
	Name        string   `json:"name"`
	Kind        string   `json:"kind"`
	Variant     string   `json:"variant"`
	TimeControl string   `json:"time_control"`
	Rounds      int      `json:"rounds"`
	Boards      []string `json:"boards"`
}

// check checks the form and fills its defaults (the kind's variant).
func (f *eventForm) check() error {
	f.Name = strings.TrimSpace(f.Name)
	if f.Name == "" || len(f.Name) > 100 {
		return errors.New("an event needs a name of 1 to 100 characters")
	}
	if err := gametags.Check("Event", f.Name); err != nil {
		return fmt.Errorf("event name: %w", err)
	}
	if err := event.CheckKind(f.Kind); err != nil {
		return err
	}
	if f.Variant == "" {
		f.Variant = f.Kind
	}
	v, err := catalog.Variant(f.Variant, "")
	if err != nil {
		return fmt.Errorf("variant: %w", err)
	}
	if want := map[string]rules.Mode{event.FFA: rules.FFA, event.Teams: rules.Teams}[f.Kind]; v.Mode != want {
		return fmt.Errorf("variant %s: a %s event plays a variant of the %s kind (%s)", f.Variant, f.Kind, f.Kind, f.Kind)
	}
	if f.TimeControl != "" {
		if _, _, err := clock.Parse(f.TimeControl); err != nil {
			return fmt.Errorf("time control: %w", err)
		}
	}
	if f.Rounds < 1 || f.Rounds > event.MaxRounds {
		return fmt.Errorf("rounds: %d; want 1 to %d", f.Rounds, event.MaxRounds)
	}
	if len(f.Boards) > event.MaxUnits/4 {
		return fmt.Errorf("%d boards: at most %d", len(f.Boards), event.MaxUnits/4)
	}
	seen := map[string]bool{}
	for i, b := range f.Boards {
		b = strings.TrimSpace(b)
		if err := mqtt.CheckID("board", b); err != nil {
			return fmt.Errorf("%w: give the boards' names as they joined the hub", err)
		}
		if strings.Contains(b, ",") {
			return fmt.Errorf("board %q: a board's name has no comma", b)
		}
		if seen[b] {
			return fmt.Errorf("board %s twice", b)
		}
		seen[b] = true
		f.Boards[i] = b
	}
	return nil
}

func decodeEvent(w http.ResponseWriter, r *http.Request, v any) error {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 64<<10))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("the request's JSON: %w", err)
	}
	return nil
}

func eventPathID(r *http.Request, name string) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue(name), 10, 64)
	if err != nil || id < 1 {
		return 0, fmt.Errorf("%s %q: want a number from 1", name, r.PathValue(name))
	}
	return id, nil
}

func (e *events) list(w http.ResponseWriter, r *http.Request) {
	evs, err := e.s.Events(r.Context())
	if err != nil {
		e.fail(w, err)
		return
	}
	eventJSON(w, http.StatusOK, evs)
}

func (e *events) create(w http.ResponseWriter, r *http.Request) {
	var f eventForm
	if err := decodeEvent(w, r, &f); err != nil {
		eventError(w, http.StatusBadRequest, err.Error())
		return
	}
	if err := f.check(); err != nil {
		eventError(w, http.StatusBadRequest, err.Error())
		return
	}
	ev := store.Event{Name: f.Name, Kind: f.Kind, Variant: f.Variant, TimeControl: f.TimeControl, Rounds: f.Rounds, Boards: f.Boards,
		Seed: rand.Uint64() >> 1}
	id, err := e.s.CreateEvent(r.Context(), ev)
	if err != nil {
		e.fail(w, err)
		return
	}
	e.log.Info("hub events: event created", "event", id, "name", f.Name)
	if ev, err = e.s.Event(r.Context(), id); err != nil {
		e.fail(w, err)
		return
	}
	eventJSON(w, http.StatusCreated, ev)
}

func (e *events) edit(w http.ResponseWriter, r *http.Request) {
	id, err := eventPathID(r, "id")
	if err != nil {
		eventError(w, http.StatusBadRequest, err.Error())
		return
	}
	ev, err := e.s.Event(r.Context(), id)
	if err != nil {
		e.fail(w, err)
		return
	}
	f := eventForm{Kind: ev.Kind}
	if err := decodeEvent(w, r, &f); err != nil {
		eventError(w, http.StatusBadRequest, err.Error())
		return
	}
	if f.Kind != ev.Kind {
		eventError(w, http.StatusBadRequest, "an event's kind cannot change: make a new event")
		return
	}
	if err := f.check(); err != nil {
		eventError(w, http.StatusBadRequest, err.Error())
		return
	}
	ev.Name, ev.Variant, ev.TimeControl, ev.Rounds, ev.Boards = f.Name, f.Variant, f.TimeControl, f.Rounds, f.Boards
	if err := e.s.UpdateEvent(r.Context(), ev); err != nil {
		e.fail(w, err)
		return
	}
	eventJSON(w, http.StatusOK, ev)
}

// setPlayers takes the players as pasted: a JSON {"text": "…"} or the
// text itself (text/plain), one player (FFA) or team (Teams) a line.
func (e *events) setPlayers(w http.ResponseWriter, r *http.Request) {
	id, err := eventPathID(r, "id")
	if err != nil {
		eventError(w, http.StatusBadRequest, err.Error())
		return
	}
	ev, err := e.s.Event(r.Context(), id)
	if err != nil {
		e.fail(w, err)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 64<<10))
	if err != nil {
		eventError(w, http.StatusRequestEntityTooLarge, "the players' list is over 64 KiB")
		return
	}
	text := string(body)
	if strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		var req struct {
			Text string `json:"text"`
		}
		if err := json.Unmarshal(body, &req); err != nil {
			eventError(w, http.StatusBadRequest, `want {"text": "one player a line"} or the text itself as text/plain`)
			return
		}
		text = req.Text
	}
	units, err := event.Entrants(ev.Kind, text)
	if err != nil {
		eventError(w, http.StatusBadRequest, err.Error())
		return
	}
	if err := e.s.SetEntrants(r.Context(), id, units); err != nil {
		if strings.Contains(err.Error(), "already played") {
			eventError(w, http.StatusConflict, err.Error())
			return
		}
		e.fail(w, err)
		return
	}
	e.show(w, r)
}

// eventState is an event read whole: what every page and computation of it
// starts from.
type eventState struct {
	ev      store.Event
	players []store.Entrant
	names   map[int64]string // player → name
	units   []event.Unit
	unitN   map[int64]string // unit → name (a team's is its players')
	rounds  []store.Round
	results map[string]*gameResult // board/game → result
}

// gameResult is a linked game's status and result as it stands.
type gameResult struct {
	Status    string        `json:"status"` // playing or over
	Reason    string        `json:"reason,omitempty"`
	Result    *event.Result `json:"result,omitempty"` // nil: none that counts
	Corrected bool          `json:"corrected,omitempty"`
	Note      string        `json:"note,omitempty"`
}

func (e *events) load(ctx context.Context, id int64) (*eventState, error) {
	ev, err := e.s.Event(ctx, id)
	if err != nil {
		return nil, err
	}
	st := &eventState{ev: ev, names: map[int64]string{}, unitN: map[int64]string{}, results: map[string]*gameResult{}}
	if st.players, err = e.s.Entrants(ctx, id); err != nil {
		return nil, err
	}
	idx := map[int64]int{}
	for _, p := range st.players {
		st.names[p.Player] = p.Name
		i, ok := idx[p.Unit]
		if !ok {
			i = len(st.units)
			idx[p.Unit] = i
			st.units = append(st.units, event.Unit{ID: p.Unit})
		}
		st.units[i].Members = append(st.units[i].Members, p.Player)
	}
	for _, u := range st.units {
		var ns []string
		for _, m := range u.Members {
			ns = append(ns, st.names[m])
		}
		st.unitN[u.ID] = event.TeamName(ns)
	}
	if st.rounds, err = e.s.Rounds(ctx, id, ev.Name); err != nil {
		return nil, err
	}
	for _, rd := range st.rounds {
		for _, t := range rd.Tables {
			if t.Game == "" {
				continue
			}
			g, ok, err := e.s.Game(ctx, t.Board, t.Game)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
			res, corrected, err := e.s.Result(ctx, t.Board, t.Game)
			if err != nil {
				return nil, err
			}
			gr := &gameResult{Status: g.Status, Corrected: corrected}
			if res != nil {
				gr.Reason = res.Reason
				if resultCounts(res) {
					gr.Result = &event.Result{Winners: res.Winners, Points: res.Points}
				}
			}
			if corrected {
				if cs, err := e.s.Corrections(ctx, t.Board, t.Game); err == nil && len(cs) > 0 {
					gr.Note = cs[len(cs)-1].Note
				}
			}
			st.results[t.Board+"/"+t.Game] = gr
		}
	}
	return st, nil
}

// counts tells whether a result counts in the standings: a game
// abandoned for a new one (PGN4 result "*") does not, until corrected.
func resultCounts(r *store.Result) bool {
	return r.Reason != "abandoned" && r.PGN4 != "*"
}

// pairing is a stored round as hub/event reads it.
func (st *eventState) pairing(rd store.Round) event.Pairing {
	var p event.Pairing
	tables := map[int]*event.Table{}
	var order []int
	for _, s := range rd.Seats {
		if s.Table == 0 {
			if !slices.Contains(p.Byes, s.Unit) {
				p.Byes = append(p.Byes, s.Unit)
			}
			continue
		}
		t := tables[s.Table]
		if t == nil {
			t = &event.Table{}
			tables[s.Table] = t
			order = append(order, s.Table)
		}
		if c := slices.Index(event.Colours[:], s.Seat); c >= 0 {
			t.Seats[c] = s.Player
		}
	}
	slices.Sort(order)
	unitOf := map[int64]int64{}
	for _, s := range rd.Seats {
		unitOf[s.Player] = s.Unit
	}
	for _, n := range order {
		t := tables[n]
		for _, pl := range t.Seats { // units in seat order: in Teams the Red side first
			if u := unitOf[pl]; pl != 0 && !slices.Contains(t.Units, u) {
				t.Units = append(t.Units, u)
			}
		}
		p.Tables = append(p.Tables, *t)
	}
	return p
}

// games are the event's games as the standings count them (rounds
// before upTo, or all with upTo 0), with its byes.
func (st *eventState) games(upTo int) ([]event.Game, []event.Bye) {
	var gs []event.Game
	var byes []event.Bye
	for _, rd := range st.rounds {
		if upTo > 0 && rd.Number >= upTo {
			break
		}
		p := st.pairing(rd)
		for i, t := range p.Tables {
			g := event.Game{Round: rd.Number, Table: t}
			if i < len(rd.Tables) && rd.Tables[i].Game != "" {
				if gr := st.results[rd.Tables[i].Board+"/"+rd.Tables[i].Game]; gr != nil {
					g.Result = gr.Result
				}
			}
			gs = append(gs, g)
		}
		for _, u := range p.Byes {
			byes = append(byes, event.Bye{Round: rd.Number, Unit: u})
		}
	}
	return gs, byes
}

func (st *eventState) standings(upTo int) []event.Standing {
	gs, byes := st.games(upTo)
	return event.Standings(st.ev.Kind, st.units, st.unitN, gs, byes)
}

// The JSON of an event's page.
type (
	eventView struct {
		Event     store.Event      `json:"event"`
		Units     []unitView       `json:"units"`
		Rounds    []roundView      `json:"rounds"`
		Standings []event.Standing `json:"standings"`
		Director  bool             `json:"director"`
	}
	unitView struct {
		Unit    int64        `json:"unit"`
		Name    string       `json:"name"`
		Players []playerView `json:"players"`
	}
	playerView struct {
		Player int64  `json:"player"`
		Name   string `json:"name"`
	}
	roundView struct {
		Number int         `json:"number"`
		Pushed bool        `json:"pushed"`
		Tables []tableView `json:"tables"`
		Byes   []unitView  `json:"byes"`
	}
	tableView struct {
		Table     int         `json:"table"`
		Board     string      `json:"board"`
		Seats     []seatView  `json:"seats"`
		PushedAt  *time.Time  `json:"pushed_at,omitempty"`
		PushError string      `json:"push_error,omitempty"`
		Game      string      `json:"game,omitempty"`
		Result    *gameResult `json:"result,omitempty"`
		Units     []int64     `json:"units"`
	}
	seatView struct {
		Seat   string `json:"seat"`
		Player int64  `json:"player"`
		Name   string `json:"name"`
	}
)

func (st *eventState) view(director bool) eventView {
	v := eventView{Event: st.ev, Units: []unitView{}, Rounds: []roundView{}, Standings: st.standings(0), Director: director}
	for _, u := range st.units {
		v.Units = append(v.Units, st.unitView(u.ID))
	}
	for _, rd := range st.rounds {
		p := st.pairing(rd)
		rv := roundView{Number: rd.Number, Pushed: rd.Pushed(), Tables: []tableView{}, Byes: []unitView{}}
		for i, t := range p.Tables {
			tv := tableView{Table: i + 1, Units: t.Units}
			for c, pl := range t.Seats {
				tv.Seats = append(tv.Seats, seatView{Seat: event.Colours[c], Player: pl, Name: st.names[pl]})
			}
			if i < len(rd.Tables) {
				rt := rd.Tables[i]
				tv.Board, tv.PushedAt, tv.PushError, tv.Game = rt.Board, rt.PushedAt, rt.PushError, rt.Game
				if rt.Game != "" {
					tv.Result = st.results[rt.Board+"/"+rt.Game]
				}
			}
			rv.Tables = append(rv.Tables, tv)
		}
		for _, u := range p.Byes {
			rv.Byes = append(rv.Byes, st.unitView(u))
		}
		v.Rounds = append(v.Rounds, rv)
	}
	return v
}

func (st *eventState) unitView(u int64) unitView {
	uv := unitView{Unit: u, Name: st.unitN[u]}
	for _, x := range st.units {
		if x.ID == u {
			for _, m := range x.Members {
				uv.Players = append(uv.Players, playerView{m, st.names[m]})
			}
		}
	}
	return uv
}

// loadReq reads the event the request names, answering the error itself.
func (e *events) loadReq(w http.ResponseWriter, r *http.Request) *eventState {
	id, err := eventPathID(r, "id")
	if err != nil {
		eventError(w, http.StatusBadRequest, err.Error())
		return nil
	}
	st, err := e.load(r.Context(), id)
	if err != nil {
		e.fail(w, err)
		return nil
	}
	return st
}

func (e *events) show(w http.ResponseWriter, r *http.Request) {
	if st := e.loadReq(w, r); st != nil {
		eventJSON(w, http.StatusOK, st.view(e.d.authed(r)))
	}
}

func (e *events) standings(w http.ResponseWriter, r *http.Request) {
	if st := e.loadReq(w, r); st != nil {
		eventJSON(w, http.StatusOK, st.standings(0))
	}
}

func (e *events) standingsCSV(w http.ResponseWriter, r *http.Request) {
	st := e.loadReq(w, r)
	if st == nil {
		return
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s-standings.csv"`, fileSlug(st.ev.Name)))
	event.WriteCSV(w, st.ev.Kind, st.standings(0))
}

// roundReq reads the event and the round number the request names.
func (e *events) roundReq(w http.ResponseWriter, r *http.Request) (*eventState, int) {
	st := e.loadReq(w, r)
	if st == nil {
		return nil, 0
	}
	n, err := eventPathID(r, "n")
	if err != nil {
		eventError(w, http.StatusBadRequest, err.Error())
		return nil, 0
	}
	return st, int(n)
}

func (e *events) pair(w http.ResponseWriter, r *http.Request) {
	st, n := e.roundReq(w, r)
	if st == nil {
		return
	}
	last := len(st.rounds)
	switch {
	case n > st.ev.Rounds:
		eventError(w, http.StatusBadRequest, fmt.Sprintf("round %d: the event has %d rounds (edit the event for more)", n, st.ev.Rounds))
		return
	case n > last+1:
		eventError(w, http.StatusConflict, fmt.Sprintf("round %d: pair round %d first", n, last+1))
		return
	case n < last:
		eventError(w, http.StatusConflict, fmt.Sprintf("round %d: round %d is paired after it; only the last round can be paired again", n, last))
		return
	case n == last && st.rounds[last-1].Pushed():
		eventError(w, http.StatusConflict, fmt.Sprintf("round %d was pushed to the boards: it cannot be paired again (correct its results instead)", n))
		return
	}
	if len(st.units) == 0 {
		eventError(w, http.StatusConflict, "the event has no players yet: PUT /api/events/{id}/players")
		return
	}
	h := event.NewHistory()
	for _, rd := range st.rounds {
		if rd.Number < n {
			h.Add(st.pairing(rd))
		}
	}
	scores := map[int64]float64{}
	for _, s := range st.standings(n) {
		scores[s.Unit] = float64(s.Points + s.MatchPoints)
	}
	p, err := event.Pair(st.ev.Kind, st.units, h, scores, st.ev.Seed+uint64(n))
	if err != nil {
		eventError(w, http.StatusConflict, err.Error())
		return
	}
	if len(p.Tables) > len(st.ev.Boards) {
		eventError(w, http.StatusConflict, fmt.Sprintf("round %d needs %d boards and the event has %d: add boards to the event (PUT /api/events/%d)", n, len(p.Tables), len(st.ev.Boards), st.ev.ID))
		return
	}
	unitOf := map[int64]int64{}
	for _, u := range st.units {
		for _, m := range u.Members {
			unitOf[m] = u.ID
		}
	}
	var seats []store.Seat
	for i, t := range p.Tables {
		for c, pl := range t.Seats {
			seats = append(seats, store.Seat{Player: pl, Unit: unitOf[pl], Table: i + 1, Seat: event.Colours[c]})
		}
	}
	for _, u := range p.Byes {
		for _, x := range st.units {
			if x.ID == u {
				for _, m := range x.Members {
					seats = append(seats, store.Seat{Player: m, Unit: u})
				}
			}
		}
	}
	if _, err := e.s.SaveRound(r.Context(), st.ev.ID, n, seats, st.ev.Boards[:len(p.Tables)]); err != nil {
		e.fail(w, err)
		return
	}
	e.log.Info("hub events: round paired", "event", st.ev.ID, "round", n, "tables", len(p.Tables), "byes", len(p.Byes))
	e.show(w, r)
}

// pushReply is the answer of a push: per table, what the board said.
type pushReply struct {
	Table int    `json:"table"`
	Board string `json:"board"`
	OK    bool   `json:"ok"`
	Error string `json:"error,omitempty"`
}

// push sends each table of the round its board's new_game: the
// variant, the time control, the four names as Red, Blue, Yellow and
// Green, the event and the round as tags. A board in the middle of a
// game with moves is left alone unless {"force": true} (its game would
// be abandoned); boards that refuse or do not answer are reported and
// can be pushed again.
func (e *events) push(w http.ResponseWriter, r *http.Request) {
	if e.cfg.Command == nil {
		eventError(w, http.StatusServiceUnavailable, "this hub cannot send commands to the boards")
		return
	}
	st, n := e.roundReq(w, r)
	if st == nil {
		return
	}
	if n > len(st.rounds) {
		eventError(w, http.StatusConflict, fmt.Sprintf("round %d is not paired yet: POST …/rounds/%d/pair first", n, n))
		return
	}
	var req struct {
		Force  bool  `json:"force"`
		Tables []int `json:"tables"` // only these tables (default all)
	}
	if r.ContentLength != 0 {
		if err := decodeEvent(w, r, &req); err != nil {
			eventError(w, http.StatusBadRequest, err.Error())
			return
		}
	}
	rd := st.rounds[n-1]
	p := st.pairing(rd)
	if !req.Force {
		boards, err := e.s.Boards(r.Context())
		if err != nil {
			e.fail(w, err)
			return
		}
		var busy []string
		for _, b := range boards {
			for _, t := range rd.Tables {
				if t.Board == b.Board && b.Status == "playing" && b.Moves > 0 && (len(req.Tables) == 0 || slices.Contains(req.Tables, t.Table)) {
					busy = append(busy, fmt.Sprintf("%s (%d moves played)", b.Board, b.Moves))
				}
			}
		}
		if len(busy) > 0 {
			eventError(w, http.StatusConflict, "a game is in progress on "+strings.Join(busy, ", ")+": finish it, or push with {\"force\": true} to abandon it")
			return
		}
	}
	// Each push is recorded before its command goes out (so the game
	// it starts is after the recorded seq); the boards are asked at
	// once, each given 15 s to answer.
	type job struct {
		rt  store.RoundTable
		cmd referee.Command
	}
	var jobs []job
	for i, t := range p.Tables {
		rt := rd.Tables[i]
		if len(req.Tables) > 0 && !slices.Contains(req.Tables, rt.Table) {
			continue
		}
		tags := map[string]string{"Event": st.ev.Name, "Round": strconv.Itoa(n)}
		for c, pl := range t.Seats {
			tags[event.Colours[c]] = st.names[pl]
		}
		if err := e.s.MarkPushed(r.Context(), rd.ID, rt.Table); err != nil {
			e.fail(w, err)
			return
		}
		jobs = append(jobs, job{rt, referee.Command{Name: "new_game", Variant: st.ev.Variant, TimeControl: st.ev.TimeControl, Tags: tags}})
	}
	out := make([]pushReply, len(jobs))
	var wg sync.WaitGroup
	for i, j := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(r.Context(), 15*time.Second)
			defer cancel()
			rep := e.cfg.Command(ctx, j.rt.Board, j.cmd)
			out[i] = pushReply{Table: j.rt.Table, Board: j.rt.Board, OK: rep.OK, Error: rep.Error}
			if !rep.OK && out[i].Error == "" {
				out[i].Error = "the board did not answer"
			}
		}()
	}
	wg.Wait()
	for _, pr := range out {
		if !pr.OK {
			e.s.PushFailed(r.Context(), rd.ID, pr.Table, pr.Error)
		}
		e.log.Info("hub events: new_game pushed", "event", st.ev.ID, "round", n, "board", pr.Board, "ok", pr.OK, "error", pr.Error)
	}
	code := http.StatusOK
	for _, pr := range out {
		if !pr.OK {
			code = http.StatusBadGateway
		}
	}
	eventJSON(w, code, out)
}

// correct replaces a table's result: {"winners": [...], "points": [...],
// "note": "why"}; the note is required and kept with the result replaced.
func (e *events) correct(w http.ResponseWriter, r *http.Request) {
	st, n := e.roundReq(w, r)
	if st == nil {
		return
	}
	t, err := eventPathID(r, "t")
	if err != nil || n > len(st.rounds) || int(t) > len(st.rounds[n-1].Tables) {
		eventError(w, http.StatusNotFound, fmt.Sprintf("round %d has no table %s", n, r.PathValue("t")))
		return
	}
	rt := st.rounds[n-1].Tables[t-1]
	if rt.Game == "" {
		eventError(w, http.StatusConflict, fmt.Sprintf("table %d of round %d has no game on %s yet: push the round and play it first", t, n, rt.Board))
		return
	}
	var req struct {
		Winners []string `json:"winners"`
		Points  []int    `json:"points"`
		Note    string   `json:"note"`
	}
	if err := decodeEvent(w, r, &req); err != nil {
		eventError(w, http.StatusBadRequest, err.Error())
		return
	}
	req.Note = strings.TrimSpace(req.Note)
	if req.Note == "" || len(req.Note) > 500 {
		eventError(w, http.StatusBadRequest, "a correction needs a note of 1 to 500 characters saying why")
		return
	}
	if err := printable.Check(req.Note); err != nil {
		eventError(w, http.StatusBadRequest, "the note "+err.Error())
		return
	}
	for _, s := range req.Winners {
		if !slices.Contains(event.Colours[:], s) {
			eventError(w, http.StatusBadRequest, fmt.Sprintf("winner %q: want seats (Red, Blue, Yellow, Green)", s))
			return
		}
	}
	if req.Points != nil && len(req.Points) != 4 {
		eventError(w, http.StatusBadRequest, "points: four numbers, Red, Blue, Yellow, Green")
		return
	}
	if st.ev.Kind == event.FFA && req.Points == nil {
		eventError(w, http.StatusBadRequest, "an FFA result needs the four points (Red, Blue, Yellow, Green)")
		return
	}
	by := "director from " + r.RemoteAddr
	if err := e.s.Correct(r.Context(), rt.Board, rt.Game, store.Result{Reason: "corrected", Winners: req.Winners, Points: req.Points}, by, req.Note); err != nil {
		e.fail(w, err)
		return
	}
	e.log.Info("hub events: result corrected", "event", st.ev.ID, "round", n, "table", t, "board", rt.Board, "game", rt.Game, "note", req.Note)
	e.show(w, r)
}

// playerGame is a game on a player's page.
type playerGame struct {
	Round  int         `json:"round"`
	Table  int         `json:"table"`
	Board  string      `json:"board"`
	Seat   string      `json:"seat"`
	Game   string      `json:"game,omitempty"`
	Result *gameResult `json:"result,omitempty"`
	Points *int        `json:"points,omitempty"` // the player's game points (FFA)
	Place  int         `json:"place,omitempty"`  // FFA: 1 to 4 by points
	Score  string      `json:"score,omitempty"`  // Teams: win, draw or loss
	Seats  []seatView  `json:"seats"`
	Bye    bool        `json:"bye,omitempty"`
}

func (e *events) player(w http.ResponseWriter, r *http.Request) {
	st := e.loadReq(w, r)
	if st == nil {
		return
	}
	pid, err := eventPathID(r, "pid")
	if err != nil || st.names[pid] == "" {
		eventError(w, http.StatusNotFound, fmt.Sprintf("event %d has no player %s", st.ev.ID, r.PathValue("pid")))
		return
	}
	var unit int64
	for _, u := range st.units {
		if slices.Contains(u.Members, pid) {
			unit = u.ID
		}
	}
	out := struct {
		Player   int64           `json:"player"`
		Name     string          `json:"name"`
		Event    store.Event     `json:"event"`
		Standing *event.Standing `json:"standing,omitempty"`
		Games    []playerGame    `json:"games"`
	}{Player: pid, Name: st.names[pid], Event: st.ev, Games: []playerGame{}}
	for _, s := range st.standings(0) {
		if s.Unit == unit {
			out.Standing = &s
		}
	}
	for _, rd := range st.rounds {
		p := st.pairing(rd)
		if slices.Contains(p.Byes, unit) {
			out.Games = append(out.Games, playerGame{Round: rd.Number, Bye: true})
		}
		for i, t := range p.Tables {
			c := slices.Index(t.Seats[:], pid)
			if c < 0 {
				continue
			}
			g := playerGame{Round: rd.Number, Table: i + 1, Seat: event.Colours[c]}
			for k, pl := range t.Seats {
				g.Seats = append(g.Seats, seatView{Seat: event.Colours[k], Player: pl, Name: st.names[pl]})
			}
			if i < len(rd.Tables) {
				g.Board, g.Game = rd.Tables[i].Board, rd.Tables[i].Game
				g.Result = st.results[g.Board+"/"+g.Game]
			}
			if g.Result != nil && g.Result.Result != nil {
				res := g.Result.Result
				if st.ev.Kind == event.Teams {
					won := slices.ContainsFunc(res.Winners, func(s string) bool { return s == event.Colours[c] || s == event.Colours[(c+2)%4] })
					g.Score = map[bool]string{true: "win", false: "loss"}[won]
					if len(res.Winners) == 0 {
						g.Score = "draw"
					}
				} else if len(res.Points) == 4 {
					pts := res.Points[c]
					g.Points = &pts
					g.Place = 1
					for _, o := range res.Points {
						if o > pts {
							g.Place++
						}
					}
				}
			}
			out.Games = append(out.Games, g)
		}
	}
	eventJSON(w, http.StatusOK, out)
}

// fileSlug makes a name safe for a download's file name.
func fileSlug(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "-"):
			b.WriteByte('-')
		}
	}
	out := strings.Trim(b.String(), "-")
	if out == "" {
		return "event"
	}
	return out
}
