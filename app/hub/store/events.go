package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Event is a tournament: its players, rounds and boards.
type Event struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	// Kind is ffa or teams (hub/event); Variant is the games' variant
	// (ffa, teams, …), TimeControl as new_game takes it ("10+5", "-").
	Kind        string `json:"kind"`
	Variant     string `json:"variant"`
	TimeControl string `json:"time_control"`
	// Rounds is how many rounds the event plays.
	Rounds int `json:"rounds"`
	// Boards are the boards it plays on: table 1 of a round on the first.
	Boards    []string  `json:"boards"`
	Seed      uint64    `json:"seed"`
	CreatedAt time.Time `json:"created_at"`
}

// ErrNotFound is returned for an event, round or game the store does not have.
var ErrNotFound = errors.New("not found")

// ErrExists is returned for an event name already taken.
var ErrExists = errors.New("already exists")

// isUnique tells whether err is a unique constraint's refusal, on either engine.
func isUnique(err error) bool {
	if err == nil {
		return false
	}
	m := err.Error()
	return strings.Contains(m, "UNIQUE constraint") || strings.Contains(m, "SQLSTATE 23505")
}

// CreateEvent stores a new event and returns its id.
func (s *Store) CreateEvent(ctx context.Context, e Event) (int64, error) {
	var id int64
	err := s.db.QueryRowContext(ctx, `INSERT INTO events (name, kind, variant, time_control, rounds, boards, seed, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
		e.Name, e.Kind, e.Variant, e.TimeControl, e.Rounds, strings.Join(e.Boards, ","), int64(e.Seed), ts(time.Now())).Scan(&id)
	if isUnique(err) {
		return 0, fmt.Errorf("event %q: %w: give it another name (a date in it will do)", e.Name, ErrExists)
	}
	if err != nil {
		return 0, fmt.Errorf("store %s: new event: %w", s.where, err)
	}
	return id, nil
}

// UpdateEvent changes an event's name, variant, time control, rounds and
// boards (its kind and seed stay).
func (s *Store) UpdateEvent(ctx context.Context, e Event) error {
	res, err := s.db.ExecContext(ctx, `UPDATE events SET name = $2, variant = $3, time_control = $4, rounds = $5, boards = $6 WHERE id = $1`,
		e.ID, e.Name, e.Variant, e.TimeControl, e.Rounds, strings.Join(e.Boards, ","))
	if isUnique(err) {
		return fmt.Errorf("event %q: %w: give it another name", e.Name, ErrExists)
	}
	if err != nil {
		return fmt.Errorf("store %s: event %d: %w", s.where, e.ID, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("event %d: %w", e.ID, ErrNotFound)
	}
	return nil
}

const eventCols = `id, name, kind, variant, time_control, rounds, boards, seed, created_at`

func scanEvent(sc interface{ Scan(...any) error }) (Event, error) {
	var e Event
	var boards, created string
	var seed int64
	if err := sc.Scan(&e.ID, &e.Name, &e.Kind, &e.Variant, &e.TimeControl, &e.Rounds, &boards, &seed, &created); err != nil {
		return e, err
	}
	e.Seed = uint64(seed)
	e.Boards = []string{}
	if boards != "" {
		e.Boards = strings.Split(boards, ",")
	}
	e.CreatedAt, _ = time.Parse(timeText, created)
	return e, nil
}

// Events lists the events, newest first.
func (s *Store) Events(ctx context.Context) ([]Event, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+eventCols+` FROM events ORDER BY id DESC`)
	if err != nil {
		return nil, fmt.Errorf("store %s: events: %w", s.where, err)
	}
	defer rows.Close()
	out := []Event{}
	for rows.Next() {
		e, err := scanEvent(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// Event returns one event (ErrNotFound when there is none with the id).
func (s *Store) Event(ctx context.Context, id int64) (Event, error) {
	e, err := scanEvent(s.db.QueryRowContext(ctx, `SELECT `+eventCols+` FROM events WHERE id = $1`, id))
	if err == sql.ErrNoRows {
		return e, fmt.Errorf("event %d: %w", id, ErrNotFound)
	}
	return e, err
}

// Entrant is a player of an event.
type Entrant struct {
	Player int64  `json:"player"`
	Name   string `json:"name"`
	// Unit is what pairing places: the player's own id in FFA, the
	// team's first player's in Teams.
	Unit  int64 `json:"unit"`
	Entry int   `json:"entry"`
}

// SetEntrants makes units (each one player, or the two of a team, by
// name) the event's players, in that order: players are found by name
// or added. A player who already sat in a paired round cannot be taken
// out (the error names them).
func (s *Store) SetEntrants(ctx context.Context, eventID int64, units [][]string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM events WHERE id = $1`, eventID).Scan(&n); err != nil {
		return err
	} else if n == 0 {
		return fmt.Errorf("event %d: %w", eventID, ErrNotFound)
	}
	now := ts(time.Now())
	keep := map[int64]bool{}
	type row struct {
		player, unit int64
		entry        int
	}
	var rows []row
	for i, u := range units {
		var unit int64
		for j, name := range u {
			if _, err := tx.ExecContext(ctx, `INSERT INTO players (name, created_at) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, name, now); err != nil {
				return fmt.Errorf("player %s: %w", name, err)
			}
			var id int64
			if err := tx.QueryRowContext(ctx, `SELECT id FROM players WHERE name = $1`, name).Scan(&id); err != nil {
				return err
			}
			if j == 0 {
				unit = id
			}
			keep[id] = true
			rows = append(rows, row{id, unit, i + 1})
		}
	}
	// Players taken out must not have sat in a round.
	cur, err := tx.QueryContext(ctx, `SELECT DISTINCT p.id, p.name FROM round_seats rs JOIN rounds r ON r.id = rs.round_id
		JOIN players p ON p.id = rs.player_id WHERE r.event_id = $1 ORDER BY p.name`, eventID)
	if err != nil {
		return err
	}
	var gone []string
	for cur.Next() {
		var id int64
		var name string
		if err := cur.Scan(&id, &name); err != nil {
			cur.Close()
			return err
		}
		if !keep[id] {
			gone = append(gone, name)
		}
	}
	cur.Close()
	if len(gone) > 0 {
		return fmt.Errorf("%s already played in a round of the event: a player who played stays (add players, do not take them out)", strings.Join(gone, ", "))
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM event_players WHERE event_id = $1`, eventID); err != nil {
		return err
	}
	for _, r := range rows {
		if _, err := tx.ExecContext(ctx, `INSERT INTO event_players (event_id, player_id, entry_no, unit) VALUES ($1, $2, $3, $4)`,
			eventID, r.player, r.entry, r.unit); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// Entrants lists an event's players in entry order (a team's two
// together, its first player first).
func (s *Store) Entrants(ctx context.Context, eventID int64) ([]Entrant, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT p.id, p.name, ep.unit, ep.entry_no FROM event_players ep JOIN players p ON p.id = ep.player_id
		WHERE ep.event_id = $1 ORDER BY ep.entry_no, CASE WHEN ep.unit = p.id THEN 0 ELSE 1 END`, eventID)
	if err != nil {
		return nil, fmt.Errorf("store %s: players of event %d: %w", s.where, eventID, err)
	}
	defer rows.Close()
	out := []Entrant{}
	for rows.Next() {
		var e Entrant
		if err := rows.Scan(&e.Player, &e.Name, &e.Unit, &e.Entry); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// Player returns a player's name (ErrNotFound when there is none).
func (s *Store) Player(ctx context.Context, id int64) (string, error) {
	var name string
	err := s.db.QueryRowContext(ctx, `SELECT name FROM players WHERE id = $1`, id).Scan(&name)
	if err == sql.ErrNoRows {
		return "", fmt.Errorf("player %d: %w", id, ErrNotFound)
	}
	return name, err
}
