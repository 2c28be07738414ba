package store

import (
	"context"
	"database/sql"

	"fmt"
	"strings"
	"time"
)

// The queries of the hub's page: the live broadcast's start (MessageCount,
// GameMessages, BoardConns), a board's stream resumed (BoardMessages), and
// looking back at stored games (Games).

// LastN is the number (Message.N) of the last message committed: every
// message up to it is in the store.
func (s *Store) LastN(ctx context.Context) (uint64, error) {
	var n int64
	if err := s.db.QueryRowContext(ctx, `SELECT last FROM message_numbers WHERE id = 1`).Scan(&n); err != nil {
		return 0, fmt.Errorf("store %s: the messages' last number: %w", s.where, err)
	}
	return uint64(n), nil
}

// MessagesAfter returns at most limit messages of every board numbered
// after n (Message.N), in the order of their numbers: the ones committed
// after message n, without a hole.
func (s *Store) MessagesAfter(ctx context.Context, n uint64, limit int) ([]Message, error) {
	if n > maxSeq {
		return nil, nil
	}
	return s.messages(ctx, `SELECT board, seq, game, kind, at, body, n FROM messages WHERE n > $1 ORDER BY n LIMIT $2`, int64(n), limit)
}

// MessageCount is the number of messages the store holds: the hub-wide
// number of the last one stored (messages are never deleted).
func (s *Store) MessageCount(ctx context.Context) (int64, error) {
	var n int64
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM messages`).Scan(&n); err != nil {
		return 0, fmt.Errorf("store %s: messages: %w", s.where, err)
	}
	return n, nil
}

// BoardMessages returns at most limit messages of a board from seq from
// on, in seq order.
func (s *Store) BoardMessages(ctx context.Context, board string, from uint64, limit int) ([]Message, error) {
	if from > maxSeq {
		return nil, nil
	}
	return s.messages(ctx, `SELECT board, seq, game, kind, at, body, n FROM messages WHERE board = $1 AND seq >= $2 ORDER BY seq LIMIT $3`,
		board, int64(from), limit)
}

func (s *Store) messages(ctx context.Context, query string, args ...any) ([]Message, error) {
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("store %s: messages of %v: %w", s.where, args[0], err)
	}
	defer rows.Close()
	var out []Message
	for rows.Next() {
		var m Message
		var seq int64
		var n sql.NullInt64
		var at, body string
		if err := rows.Scan(&m.Board, &seq, &m.Game, &m.Kind, &at, &body, &n); err != nil {
			return nil, err
		}
		m.Seq, m.Body, m.N = uint64(seq), []byte(body), uint64(n.Int64)
		m.Time, _ = time.Parse(timeText, at)
		out = append(out, m)
	}
	return out, rows.Err()
}

// BoardConns returns every board's last MQTT status (online, offline,
// paused, sensor_fault; "" before one came).
func (s *Store) BoardConns(ctx context.Context) (map[string]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT board, status FROM boards`)
	if err != nil {
		return nil, fmt.Errorf("store %s: boards: %w", s.where, err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var b, st string
		if err := rows.Scan(&b, &st); err != nil {
			return nil, err
		}
		out[b] = st
	}
	return out, rows.Err()
}

// GameFilter narrows Games; empty fields take every game. Player, Event
// and Board match a part of the name, whatever its case.
type GameFilter struct {
	Player string // a seat's player
	Event  string // the Event tag
	Board  string
	// Date is a day (2026-11-28), a month (2026-11) or a year: the game
	// started then (UTC).
	Date string
	// Limit bounds the answer (default and at most 500).
	Limit int
}

// GameItem is one stored game in a list.
type GameItem struct {
	Board   string            `json:"board"`
	Game    string            `json:"game"`
	Variant string            `json:"variant"`
	Started string            `json:"started"` // when its first message was made (UTC, RFC 3339)
	Status  string            `json:"status"`  // playing or over
	Event   string            `json:"event"`
	Round   string            `json:"round"`
	Players map[string]string `json:"players"` // seat → name
	Result  string            `json:"result"`  // the board's PGN4 Result tag ("" while playing)
	Reason  string            `json:"reason"`
	Moves   int               `json:"moves"`
	// Correction is the director's last correction of the result (nil:
	// none); Result stays the board's.
	Correction *Correction `json:"-"`
}

// Games lists stored games, newest first.
func (s *Store) Games(ctx context.Context, f GameFilter) ([]GameItem, error) {
	if f.Limit <= 0 || f.Limit > 500 {
		f.Limit = 500
	}
	var where []string
	var args []any
	arg := func(v any) string {
		args = append(args, v)
		return fmt.Sprintf("$%d", len(args))
	}
	like := func(part string) string { return "%" + escapeLike(strings.ToLower(part)) + "%" }
	if f.Player != "" {
		where = append(where, `EXISTS (SELECT 1 FROM game_tags t WHERE t.board = g.board AND t.game = g.game
			AND t.name IN ('Red', 'Blue', 'Yellow', 'Green') AND LOWER(t.value) LIKE `+arg(like(f.Player))+` ESCAPE '\')`)
	}
	if f.Event != "" {
		where = append(where, `EXISTS (SELECT 1 FROM game_tags t WHERE t.board = g.board AND t.game = g.game
			AND t.name = 'Event' AND LOWER(t.value) LIKE `+arg(like(f.Event))+` ESCAPE '\')`)
	}
	if f.Board != "" {
		where = append(where, `LOWER(g.board) LIKE `+arg(like(f.Board))+` ESCAPE '\'`)
	}
	if f.Date != "" {
		where = append(where, `g.started_at LIKE `+arg(escapeLike(f.Date)+"%")+` ESCAPE '\'`)
	}
	q := `SELECT g.board, g.game, g.variant, g.started_at, g.status, COALESCE(r.pgn4, ''), COALESCE(r.reason, ''),
			(SELECT COUNT(*) FROM moves m WHERE m.board = g.board AND m.game = g.game AND m.kind = 'move' AND m.undone_seq IS NULL)
		FROM games g LEFT JOIN results r ON r.board = g.board AND r.game = g.game`
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	q += " ORDER BY g.started_at DESC, g.board, g.game LIMIT " + arg(f.Limit)
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("store %s: games: %w", s.where, err)
	}
	out := []GameItem{}
	for rows.Next() {
		it := GameItem{Players: map[string]string{}}
		if err := rows.Scan(&it.Board, &it.Game, &it.Variant, &it.Started, &it.Status, &it.Result, &it.Reason, &it.Moves); err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, it)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for i := range out {
		tags, err := s.tags(ctx, out[i].Board, out[i].Game)
		if err != nil {
			return nil, err
		}
		out[i].Event, out[i].Round = tags["Event"], tags["Round"]
		cs, err := s.Corrections(ctx, out[i].Board, out[i].Game)
		if err != nil {
			return nil, err
		}
		if len(cs) > 0 {
			out[i].Correction = &cs[len(cs)-1]
		}
		for _, seat := range []string{"Red", "Blue", "Yellow", "Green"} {
			if tags[seat] != "" {
				out[i].Players[seat] = tags[seat]
			}
		}
	}
	return out, nil
}

func (s *Store) tags(ctx context.Context, board, game string) (map[string]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT name, value FROM game_tags WHERE board = $1 AND game = $2`, board, game)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var n, v string
		if err := rows.Scan(&n, &v); err != nil {
			return nil, err
		}
		out[n] = v
	}
	return out, rows.Err()
}

// escapeLike escapes LIKE's wildcards in s (ESCAPE '\').
func escapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}
