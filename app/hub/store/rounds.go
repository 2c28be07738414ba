package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"
	"time"
)

// Seat is where a player sits in a round: Table from 1 and Seat (Red,
// Blue, Yellow, Green), or Table 0 and no Seat for a bye.
type Seat struct {
	Player int64  `json:"player"`
	Unit   int64  `json:"unit"`
	Table  int    `json:"table"`
	Seat   string `json:"seat,omitempty"`
}

// RoundTable is a table of a round: the board it plays on, whether its
// new_game was sent, and the game it linked to.
type RoundTable struct {
	Table int    `json:"table"`
	Board string `json:"board"`
	// PushedAt is when its new_game was last sent (nil: not yet);
	// PushSeq the board's last seq the hub held then; PushError the
	// board's or the broker's refusal, if any.
	PushedAt  *time.Time `json:"pushed_at,omitempty"`
	PushSeq   uint64     `json:"push_seq,omitempty"`
	PushError string     `json:"push_error,omitempty"`
	// Game is the game of the board that is this table's (see LinkGame);
	// "" until the board started it.
	Game string `json:"game,omitempty"`
}

// Round is a paired round of an event.
type Round struct {
	ID     int64        `json:"id"`
	Number int          `json:"number"`
	Seats  []Seat       `json:"seats"`
	Tables []RoundTable `json:"tables"`
}

// Pushed tells whether any table of the round was sent to its board.
func (r Round) Pushed() bool {
	for _, t := range r.Tables {
		if t.PushedAt != nil {
			return true
		}
	}
	return false
}

// SaveRound stores round number of an event with its seats and tables
// (boards[i] is table i+1's board), replacing a pairing of that round
// not yet pushed. It returns the round's id.
func (s *Store) SaveRound(ctx context.Context, eventID int64, number int, seats []Seat, boards []string) (int64, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	var id int64
	err = tx.QueryRowContext(ctx, `SELECT id FROM rounds WHERE event_id = $1 AND number = $2`, eventID, number).Scan(&id)
	switch {
	case err == sql.ErrNoRows:
		if err := tx.QueryRowContext(ctx, `INSERT INTO rounds (event_id, number) VALUES ($1, $2) RETURNING id`, eventID, number).Scan(&id); err != nil {
			return 0, fmt.Errorf("store %s: round %d: %w", s.where, number, err)
		}
	case err != nil:
		return 0, err
	default:
		var pushed int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM round_tables WHERE round_id = $1 AND pushed_at IS NOT NULL`, id).Scan(&pushed); err != nil {
			return 0, err
		}
		if pushed > 0 {
			return 0, fmt.Errorf("round %d was pushed to the boards: it cannot be paired again (correct its results instead)", number)
		}
		for _, q := range []string{`DELETE FROM round_seats WHERE round_id = $1`, `DELETE FROM round_tables WHERE round_id = $1`} {
			if _, err := tx.ExecContext(ctx, q, id); err != nil {
				return 0, err
			}
		}
	}
	for _, st := range seats {
		if _, err := tx.ExecContext(ctx, `INSERT INTO round_seats (round_id, player_id, unit, table_no, seat) VALUES ($1, $2, $3, $4, $5)`,
			id, st.Player, st.Unit, st.Table, st.Seat); err != nil {
			return 0, fmt.Errorf("store %s: seat of player %d: %w", s.where, st.Player, err)
		}
	}
	for i, b := range boards {
		if _, err := tx.ExecContext(ctx, `INSERT INTO round_tables (round_id, table_no, board) VALUES ($1, $2, $3)`, id, i+1, b); err != nil {
			return 0, err
		}
	}
	return id, tx.Commit()
}

// Rounds lists an event's rounds in order, each table with the game
// linked to it (LinkGame).
func (s *Store) Rounds(ctx context.Context, eventID int64, eventName string) ([]Round, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, number FROM rounds WHERE event_id = $1 ORDER BY number`, eventID)
	if err != nil {
		return nil, fmt.Errorf("store %s: rounds of event %d: %w", s.where, eventID, err)
	}
	var out []Round
	for rows.Next() {
		var r Round
		if err := rows.Scan(&r.ID, &r.Number); err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for i := range out {
		r := &out[i]
		seats, err := s.db.QueryContext(ctx, `SELECT player_id, unit, table_no, seat FROM round_seats WHERE round_id = $1 ORDER BY table_no, player_id`, r.ID)
		if err != nil {
			return nil, err
		}
		for seats.Next() {
			var st Seat
			if err := seats.Scan(&st.Player, &st.Unit, &st.Table, &st.Seat); err != nil {
				seats.Close()
				return nil, err
			}
			r.Seats = append(r.Seats, st)
		}
		seats.Close()
		tables, err := s.db.QueryContext(ctx, `SELECT table_no, board, pushed_at, push_seq, push_error FROM round_tables WHERE round_id = $1 ORDER BY table_no`, r.ID)
		if err != nil {
			return nil, err
		}
		for tables.Next() {
			var t RoundTable
			var at sql.NullString
			var seq int64
			if err := tables.Scan(&t.Table, &t.Board, &at, &seq, &t.PushError); err != nil {
				tables.Close()
				return nil, err
			}
			if at.Valid {
				when, _ := time.Parse(timeText, at.String)
				t.PushedAt = &when
			}
			t.PushSeq = uint64(seq)
			r.Tables = append(r.Tables, t)
		}
		tables.Close()
		for j := range r.Tables {
			t := &r.Tables[j]
			if t.PushedAt == nil {
				continue
			}
			if t.Game, err = s.LinkGame(ctx, r.ID, t.Board, t.PushSeq, eventName, r.Number); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// MarkPushed records that table's new_game is being sent to its board
// now: the board's last seq the hub holds is kept, so only a game the
// board starts after it can be the table's. Call it before sending.
func (s *Store) MarkPushed(ctx context.Context, roundID int64, table int) error {
	_, err := s.db.ExecContext(ctx, `UPDATE round_tables SET pushed_at = $3, push_error = '',
			push_seq = COALESCE((SELECT b.last_seq FROM boards b WHERE b.board = round_tables.board), 0)
		WHERE round_id = $1 AND table_no = $2`, roundID, table, ts(time.Now()))
	return err
}

// PushFailed keeps why a table's new_game did not reach its board.
func (s *Store) PushFailed(ctx context.Context, roundID int64, table int, why string) error {
	_, err := s.db.ExecContext(ctx, `UPDATE round_tables SET push_error = $3 WHERE round_id = $1 AND table_no = $2`, roundID, table, why)
	return err
}

// LinkGame finds the game of a pushed table: the last game the board
// started after the push (its game_start's seq past pushSeq) whose tags
// name the event (Event) and the round (Round), as the pushed new_game
// set them. A new_game delivered twice, or the round pushed again,
// makes a later game: the last one is the table's. The game is marked as
// the round's (games.round_id). "" when the board has not started it.
func (s *Store) LinkGame(ctx context.Context, roundID int64, board string, pushSeq uint64, event string, round int) (string, error) {
	var game string
	var linked sql.NullInt64
	err := s.db.QueryRowContext(ctx, `SELECT g.game, g.round_id FROM games g
		JOIN game_tags e ON e.board = g.board AND e.game = g.game AND e.name = 'Event'
		JOIN game_tags r ON r.board = g.board AND r.game = g.game AND r.name = 'Round'
		WHERE g.board = $1 AND g.start_seq > $2 AND e.value = $3 AND r.value = $4
		ORDER BY g.start_seq DESC LIMIT 1`, board, int64(pushSeq), event, strconv.Itoa(round)).Scan(&game, &linked)
	if err == sql.ErrNoRows {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("store %s: game of round %d on %s: %w", s.where, round, board, err)
	}
	if !linked.Valid || linked.Int64 != roundID {
		if _, err := s.db.ExecContext(ctx, `UPDATE games SET round_id = $3 WHERE board = $1 AND game = $2`, board, game, roundID); err != nil {
			return "", err
		}
	}
	return game, nil
}

// Correction is a director's change of a game's result.
type Correction struct {
	ID     int64     `json:"id"`
	MadeAt time.Time `json:"made_at"`
	MadeBy string    `json:"made_by"`
	Old    *Result   `json:"old"`
	New    Result    `json:"new"`
	Note   string    `json:"note"`
}

// Correct replaces a game's result by r, keeping the note and the result
// it replaces (the board's, or the last correction's); the board's own
// result stays in results and messages.
func (s *Store) Correct(ctx context.Context, board, game string, r Result, by, note string) error {
	if _, ok, err := s.Game(ctx, board, game); err != nil {
		return err
	} else if !ok {
		return fmt.Errorf("game %s of board %s: %w", game, board, ErrNotFound)
	}
	old, _, err := s.Result(ctx, board, game)
	if err != nil {
		return err
	}
	oldJSON, _ := json.Marshal(old)
	newJSON, err := json.Marshal(r)
	if err != nil {
		return err
	}
	_, err = s.db.ExecContext(ctx, `INSERT INTO corrections (board, game, made_at, made_by, old_result, new_result, note)
		VALUES ($1, $2, $3, $4, $5, $6, $7)`, board, game, ts(time.Now()), by, string(oldJSON), string(newJSON), note)
	if err != nil {
		return fmt.Errorf("store %s: correct %s/%s: %w", s.where, board, game, err)
	}
	return nil
}

// Corrections lists a game's corrections, oldest first.
func (s *Store) Corrections(ctx context.Context, board, game string) ([]Correction, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, made_at, made_by, old_result, new_result, note FROM corrections
		WHERE board = $1 AND game = $2 ORDER BY id`, board, game)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Correction
	for rows.Next() {
		var c Correction
		var at, o, n string
		if err := rows.Scan(&c.ID, &at, &c.MadeBy, &o, &n, &c.Note); err != nil {
			return nil, err
		}
		c.MadeAt, _ = time.Parse(timeText, at)
		json.Unmarshal([]byte(o), &c.Old)
		if err := json.Unmarshal([]byte(n), &c.New); err != nil {
			return nil, fmt.Errorf("correction %d of %s/%s: %w", c.ID, board, game, err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// Result returns a game's result as it stands: the last correction's,
// else the board's; nil while the game has none. corrected says which.
func (s *Store) Result(ctx context.Context, board, game string) (r *Result, corrected bool, err error) {
	cs, err := s.Corrections(ctx, board, game)
	if err != nil {
		return nil, false, err
	}
	if len(cs) > 0 {
		c := cs[len(cs)-1].New
		return &c, true, nil
	}
	g, ok, err := s.Game(ctx, board, game)
	if err != nil || !ok {
		return nil, false, err
	}
	return g.Result, false, nil
}

// GameMessages returns a game's messages as the board published them, in order.
func (s *Store) GameMessages(ctx context.Context, board, game string) ([]Message, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT seq, kind, at, body, COALESCE(n, 0) FROM messages WHERE board = $1 AND game = $2 ORDER BY seq`, board, game)
	if err != nil {
		return nil, fmt.Errorf("store %s: messages of %s/%s: %w", s.where, board, game, err)
	}
	defer rows.Close()
	var out []Message
	for rows.Next() {
		m := Message{Board: board, Game: game}
		var seq, n int64
		var at, body string
		if err := rows.Scan(&seq, &m.Kind, &at, &body, &n); err != nil {
			return nil, err
		}
		m.Seq, m.Body, m.N = uint64(seq), []byte(body), uint64(n)
		m.Time, _ = time.Parse(timeText, at)
		out = append(out, m)
	}
	return out, rows.Err()
}
