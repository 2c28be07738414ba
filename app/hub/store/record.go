package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Message is one message of a board's stream as the store keeps it.
type Message struct {
	Board string
	Seq   uint64
	Game  string // the game it belongs to ("" before the board's first game)
	Kind  string
	Time  time.Time // the board's time
	Body  []byte    // the message as the board published it (JSON)
	// N numbers the store's messages in the order of their commits, from
	// 1 without a hole, the same on every hub of one database (set by the
	// store; 0 when a query does not read it).
	N uint64
}

// Turn is a turn of a game: a move, a resignation, a time-out or a claim.
type Turn struct {
	Kind   string // move, resign, timeout, claim
	Seat   string
	Move   string  // PGN4 token ("h2-h4", "R")
	Coord  string  // coordinates ("h2-h4")
	Clocks []int64 // ms left, Red, Blue, Yellow, Green; nil without clocks
	Points []int   // Red, Blue, Yellow, Green; nil when not given
	FEN4   string  // the position after it
}

// Result is how a game ended.
type Result struct {
	Reason  string
	Winners []string
	Points  []int
	PGN4    string
}

// Tx is the transaction of one message: its effects on the games.
type Tx struct {
	ctx context.Context
	tx  *sql.Tx
	m   Message
}

// maxSeq bounds a seq: database integers are signed 64 bits.
const maxSeq = 1<<63 - 1

// Record stores message m and, in the same transaction, its effect on the
// games (apply, which may be nil). It reports false, changing nothing,
// when the store already holds m's seq for m's board. The board's
// last seq rises to m.Seq. When apply or the commit fails nothing of m
// is stored.
func (s *Store) Record(ctx context.Context, m Message, apply func(*Tx) error) (bool, error) {
	_, stored, err := s.RecordN(ctx, m, apply)
	return stored, err
}

// RecordN is Record, and returns the message's number n in the order of
// the database's commits (Message.N): the one it was given, or the one
// the store held it with already.
func (s *Store) RecordN(ctx context.Context, m Message, apply func(*Tx) error) (n uint64, stored bool, err error) {
	if m.Board == "" || m.Seq == 0 || m.Seq > maxSeq {
		return 0, false, fmt.Errorf("store: message seq %d of board %q: want a board and a seq from 1", m.Seq, m.Board)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, false, fmt.Errorf("store %s: %w", s.where, err)
	}
	defer tx.Rollback()
	now := ts(time.Now())
	if err := touchBoard(ctx, tx, m.Board, now); err != nil {
		return 0, false, err
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO messages (board, seq, game, kind, at, body) VALUES ($1, $2, $3, $4, $5, $6)
		ON CONFLICT (board, seq) DO NOTHING`, m.Board, int64(m.Seq), m.Game, m.Kind, ts(m.Time), string(m.Body))
	if err != nil {
		return 0, false, fmt.Errorf("store message %d of %s: %w", m.Seq, m.Board, err)
	}
	var num sql.NullInt64
	if rows, err := res.RowsAffected(); err != nil {
		return 0, false, err
	} else if rows == 0 {
		// Held already (by another hub, or before): a no-op.
		if err := tx.QueryRowContext(ctx, `SELECT n FROM messages WHERE board = $1 AND seq = $2`, m.Board, int64(m.Seq)).Scan(&num); err != nil {
			return 0, false, fmt.Errorf("store message %d of %s: its number: %w", m.Seq, m.Board, err)
		}
		return uint64(num.Int64), false, nil
	}
	if apply != nil {
		if err := apply(&Tx{ctx: ctx, tx: tx, m: m}); err != nil {
			return 0, false, fmt.Errorf("store message %d (%s) of %s: %w", m.Seq, m.Kind, m.Board, err)
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE boards SET last_seq = CASE WHEN last_seq < $2 THEN $2 ELSE last_seq END WHERE board = $1`, m.Board, int64(m.Seq)); err != nil {
		return 0, false, err
	}
	// The number last, so its row is locked from here to the commit only:
	// the next message's transaction takes the next number once this one
	// committed, and numbers follow commits without a hole.
	if err := tx.QueryRowContext(ctx, `UPDATE message_numbers SET last = last + 1 WHERE id = 1 RETURNING last`).Scan(&num); err != nil {
		return 0, false, fmt.Errorf("store message %d of %s: its number: %w", m.Seq, m.Board, err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE messages SET n = $3 WHERE board = $1 AND seq = $2`, m.Board, int64(m.Seq), num.Int64); err != nil {
		return 0, false, err
	}
	if err := tx.Commit(); err != nil {
		return 0, false, fmt.Errorf("store message %d of %s: commit: %w", m.Seq, m.Board, err)
	}
	return uint64(num.Int64), true, nil
}

func touchBoard(ctx context.Context, tx *sql.Tx, board, now string) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO boards (board, first_seen, last_seen) VALUES ($1, $2, $2)
		ON CONFLICT (board) DO UPDATE SET last_seen = excluded.last_seen`, board, now)
	if err != nil {
		return fmt.Errorf("store board %s: %w", board, err)
	}
	return nil
}

// Gap records that the board no longer keeps seqs first..last, so the
// hub will never hold them, and raises the board's last seq past them.
func (s *Store) Gap(ctx context.Context, board string, first, last uint64, reason string) error {
	if first == 0 || last < first || last > maxSeq {
		return fmt.Errorf("store: gap %d-%d of %s is not a range of seqs", first, last, board)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	now := ts(time.Now())
	if err := touchBoard(ctx, tx, board, now); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO gaps (board, first_seq, last_seq, noted_at, reason) VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (board, first_seq) DO NOTHING`, board, int64(first), int64(last), now, reason); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE boards SET last_seq = CASE WHEN last_seq < $2 THEN $2 ELSE last_seq END WHERE board = $1`, board, int64(last)); err != nil {
		return err
	}
	return tx.Commit()
}

// AllOffline marks every board offline: a hub starting has heard from
// none of them yet (its own broker, killed, never passed on their last
// wills), and each board's status comes again as it (re)joins, or from
// the club broker's retained status.
func (s *Store) AllOffline(ctx context.Context) error {
	if _, err := s.db.ExecContext(ctx, `UPDATE boards SET status = 'offline'`); err != nil {
		return fmt.Errorf("store %s: boards offline: %w", s.where, err)
	}
	return nil
}

// SetStatus keeps a board's last MQTT status (online, offline, …).
func (s *Store) SetStatus(ctx context.Context, board, status string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := touchBoard(ctx, tx, board, ts(time.Now())); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE boards SET status = $2 WHERE board = $1`, board, status); err != nil {
		return err
	}
	return tx.Commit()
}

// StartGame records a new game (the message's game) and makes it the
// board's current one.
func (t *Tx) StartGame(variant, start string, tags map[string]string) error {
	if err := t.ensureGame(); err != nil {
		return err
	}
	if _, err := t.tx.ExecContext(t.ctx, `UPDATE games SET variant = $3, start = $4, start_seq = $5 WHERE board = $1 AND game = $2`,
		t.m.Board, t.m.Game, variant, start, int64(t.m.Seq)); err != nil {
		return err
	}
	return t.SetTags(tags)
}

// ensureGame adds the message's game when the store does not have it
// (its start was never seen: the board no longer kept it) and makes it
// the board's current game; an imported copy of it gives way
// (dropImported).
func (t *Tx) ensureGame() error {
	if t.m.Game == "" {
		return errors.New("the message names no game")
	}
	if err := t.dropImported(); err != nil {
		return err
	}
	if _, err := t.tx.ExecContext(t.ctx, `INSERT INTO games (board, game, start_seq, started_at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (board, game) DO NOTHING`, t.m.Board, t.m.Game, int64(t.m.Seq), ts(t.m.Time)); err != nil {
		return err
	}
	_, err := t.tx.ExecContext(t.ctx, `UPDATE boards SET game = $2 WHERE board = $1`, t.m.Board, t.m.Game)
	return err
}

// SetTags sets the game's tags (PGN4 headers); an empty value removes one.
func (t *Tx) SetTags(tags map[string]string) error {
	if err := t.ensureGame(); err != nil {
		return err
	}
	for name, value := range tags {
		var err error
		if value == "" {
			_, err = t.tx.ExecContext(t.ctx, `DELETE FROM game_tags WHERE board = $1 AND game = $2 AND name = $3`, t.m.Board, t.m.Game, name)
		} else {
			_, err = t.tx.ExecContext(t.ctx, `INSERT INTO game_tags (board, game, name, value) VALUES ($1, $2, $3, $4)
				ON CONFLICT (board, game, name) DO UPDATE SET value = excluded.value`, t.m.Board, t.m.Game, name, value)
		}
		if err != nil {
			return fmt.Errorf("tag %s: %w", name, err)
		}
	}
	return nil
}

// AddTurn appends a turn to the game, keyed by the message's seq.
func (t *Tx) AddTurn(u Turn) error {
	if err := t.ensureGame(); err != nil {
		return err
	}
	c, p := four64(u.Clocks), four(u.Points)
	_, err := t.tx.ExecContext(t.ctx, `INSERT INTO moves (board, seq, game, kind, seat, move, coord,
			clock_red, clock_blue, clock_yellow, clock_green, points_red, points_blue, points_yellow, points_green, fen4)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
		t.m.Board, int64(t.m.Seq), t.m.Game, u.Kind, u.Seat, u.Move, u.Coord, c[0], c[1], c[2], c[3], p[0], p[1], p[2], p[3], u.FEN4)
	return err
}

// Takeback marks the game's last turn not yet taken back as taken back
// by this message. A game without such a turn is left as it is.
func (t *Tx) Takeback() error {
	if err := t.ensureGame(); err != nil {
		return err
	}
	_, err := t.tx.ExecContext(t.ctx, `UPDATE moves SET undone_seq = $3 WHERE board = $1 AND seq = (
			SELECT MAX(seq) FROM moves WHERE board = $1 AND game = $2 AND undone_seq IS NULL AND seq < $3)`,
		t.m.Board, t.m.Game, int64(t.m.Seq))
	return err
}

// Finish records the game's result and marks it over.
func (t *Tx) Finish(r Result) error {
	if err := t.ensureGame(); err != nil {
		return err
	}
	p := four(r.Points)
	if _, err := t.tx.ExecContext(t.ctx, `INSERT INTO results (board, game, seq, reason, winners, pgn4, points_red, points_blue, points_yellow, points_green)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
		ON CONFLICT (board, game) DO UPDATE SET seq = excluded.seq, reason = excluded.reason, winners = excluded.winners,
			pgn4 = excluded.pgn4, points_red = excluded.points_red, points_blue = excluded.points_blue,
			points_yellow = excluded.points_yellow, points_green = excluded.points_green`,
		t.m.Board, t.m.Game, int64(t.m.Seq), r.Reason, strings.Join(r.Winners, ","), r.PGN4, p[0], p[1], p[2], p[3]); err != nil {
		return err
	}
	_, err := t.tx.ExecContext(t.ctx, `UPDATE games SET status = 'over' WHERE board = $1 AND game = $2`, t.m.Board, t.m.Game)
	return err
}

// four spreads up to four values over the seats' columns (NULL when missing).
func four(v []int) [4]any {
	var out [4]any
	for i := range out {
		if i < len(v) {
			out[i] = int64(v[i])
		}
	}
	return out
}

func four64(v []int64) [4]any {
	var out [4]any
	for i := range out {
		if i < len(v) {
			out[i] = v[i]
		}
	}
	return out
}
