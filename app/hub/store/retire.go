package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"
)

// LastSeq is the last seq of board's stream the store holds (0 for a
// board it does not know).
func (s *Store) LastSeq(ctx context.Context, board string) (uint64, error) {
	var n int64
	err := s.db.QueryRowContext(ctx, `SELECT last_seq FROM boards WHERE board = $1`, board).Scan(&n)
	if err == sql.ErrNoRows {
		return 0, nil
	} else if err != nil {
		return 0, fmt.Errorf("store %s: board %s: %w", s.where, board, err)
	}
	return uint64(n), nil
}

// RetireBoard moves everything the store holds of board (its messages,
// gaps, games with their tags, turns, results and corrections, and the
// event tables whose games it played) to the
// name board~<when> (20061102-150405), in one transaction, so the name
// starts again with no stream: the board that takes the name next (a
// board whose state directory was wiped numbers its messages from 1
// again) is stored from its first message. It returns the name the
// history now has, "" when the store held nothing of board.
func (s *Store) RetireBoard(ctx context.Context, board string, when time.Time) (string, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return "", fmt.Errorf("store %s: %w", s.where, err)
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM boards WHERE board = $1`, board).Scan(&n); err != nil {
		return "", err
	}
	if n == 0 {
		return "", nil
	}
	to := board + "~" + when.UTC().Format("20060102-150405")
	for _, stmt := range []string{
		// An event's table the retired board played (or began) goes with
		// its game, so the round keeps its result (LinkGame finds the game
		// under the retired name); a table pushed but not begun stays for
		// the board that takes the name.
		`UPDATE round_tables SET board = $2 WHERE board = $1 AND pushed_at IS NOT NULL AND EXISTS (
			SELECT 1 FROM games g
			JOIN rounds r ON r.id = round_tables.round_id
			JOIN events ev ON ev.id = r.event_id
			JOIN game_tags e ON e.board = g.board AND e.game = g.game AND e.name = 'Event' AND e.value = ev.name
			JOIN game_tags n ON n.board = g.board AND n.game = g.game AND n.name = 'Round' AND n.value = CAST(r.number AS TEXT)
			WHERE g.board = $1 AND g.start_seq > round_tables.push_seq)`,
		`INSERT INTO boards (board, first_seen, last_seen, last_seq, status, game)
			SELECT $2, first_seen, last_seen, last_seq, 'offline', game FROM boards WHERE board = $1`,
		`INSERT INTO games (board, game, start_seq, variant, start, started_at, status, round_id)
			SELECT $2, game, start_seq, variant, start, started_at, status, round_id FROM games WHERE board = $1`,
		`UPDATE game_tags SET board = $2 WHERE board = $1`,
		`UPDATE moves SET board = $2 WHERE board = $1`,
		`UPDATE results SET board = $2 WHERE board = $1`,
		`UPDATE corrections SET board = $2 WHERE board = $1`,
		`DELETE FROM games WHERE board = $1`,
		`UPDATE messages SET board = $2 WHERE board = $1`,
		`UPDATE gaps SET board = $2 WHERE board = $1`,
		`DELETE FROM boards WHERE board = $1`,
	} {
		args := []any{board, to}
		if !strings.Contains(stmt, "$2") {
			args = args[:1] // PostgreSQL wants as many arguments as parameters
		}
		if _, err := tx.ExecContext(ctx, stmt, args...); err != nil {
			return "", fmt.Errorf("store %s: retiring board %s: %w", s.where, board, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return "", fmt.Errorf("store %s: retiring board %s: %w", s.where, board, err)
	}
	return to, nil
}
