package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"
)

// ImportedGame is a finished game read from PGN4 (boardd hub import, or
// a board's archive published on games/<id>) rather than from a board's
// stream.
type ImportedGame struct {
	Board, Game    string // the board and the game's id (its GameId tag)
	Variant, Start string
	Started        time.Time
	Tags           map[string]string
	Turns          []Turn
	Result         Result
}

// ImportSeqBase is where the keys of an imported game's turns start: a
// board's stream never numbers a message past referee.MaxSeq (2^53−1),
// so these never meet a message's seq. An imported game has start_seq
// 0 and its result seq 0.
const ImportSeqBase = 1 << 53

// HasGame reports whether the store holds the game, from the board's
// stream or imported.
func (s *Store) HasGame(ctx context.Context, board, game string) (bool, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM games WHERE board = $1 AND game = $2`, board, game).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("store %s: game %s/%s: %w", s.where, board, game, err)
	}
	return n > 0, nil
}

// Import stores a finished game with its tags, turns and result, in one
// transaction. It reports false, changing nothing, when the store holds
// the game already (by board and game id): importing twice stores
// nothing twice, and a game the board's stream brought stays as the
// stream had it. A board the store does not know is added (it has no
// messages: its last seq stays 0).
func (s *Store) Import(ctx context.Context, g ImportedGame) (bool, error) {
	if g.Board == "" || g.Game == "" {
		return false, fmt.Errorf("store: an imported game needs a board and a game id (board %q, game %q)", g.Board, g.Game)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("store %s: %w", s.where, err)
	}
	defer tx.Rollback()
	now := ts(time.Now())
	if _, err := tx.ExecContext(ctx, `INSERT INTO boards (board, first_seen, last_seen) VALUES ($1, $2, $2)
		ON CONFLICT (board) DO NOTHING`, g.Board, now); err != nil {
		return false, fmt.Errorf("store board %s: %w", g.Board, err)
	}
	if g.Started.IsZero() {
		g.Started = time.Now()
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO games (board, game, start_seq, variant, start, started_at, status) VALUES ($1, $2, 0, $3, $4, $5, 'over')
		ON CONFLICT (board, game) DO NOTHING`, g.Board, g.Game, g.Variant, g.Start, ts(g.Started))
	if err != nil {
		return false, fmt.Errorf("store game %s/%s: %w", g.Board, g.Game, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return false, err
	} else if n == 0 {
		return false, nil
	}
	for name, value := range g.Tags {
		if value == "" {
			continue
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO game_tags (board, game, name, value) VALUES ($1, $2, $3, $4)`, g.Board, g.Game, name, value); err != nil {
			return false, fmt.Errorf("store game %s/%s: tag %s: %w", g.Board, g.Game, name, err)
		}
	}
	var top sql.NullInt64
	if err := tx.QueryRowContext(ctx, `SELECT MAX(seq) FROM moves WHERE board = $1 AND seq >= $2`, g.Board, int64(ImportSeqBase)).Scan(&top); err != nil {
		return false, err
	}
	next := int64(ImportSeqBase)
	if top.Valid {
		next = top.Int64 + 1
	}
	for i, u := range g.Turns {
		c, p := four64(u.Clocks), four(u.Points)
		if _, err := tx.ExecContext(ctx, `INSERT INTO moves (board, seq, game, kind, seat, move, coord,
				clock_red, clock_blue, clock_yellow, clock_green, points_red, points_blue, points_yellow, points_green, fen4)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
			g.Board, next+int64(i), g.Game, u.Kind, u.Seat, u.Move, u.Coord, c[0], c[1], c[2], c[3], p[0], p[1], p[2], p[3], u.FEN4); err != nil {
			return false, fmt.Errorf("store game %s/%s: turn %d: %w", g.Board, g.Game, i+1, err)
		}
	}
	r, p := g.Result, four(g.Result.Points)
	if _, err := tx.ExecContext(ctx, `INSERT INTO results (board, game, seq, reason, winners, pgn4, points_red, points_blue, points_yellow, points_green)
		VALUES ($1, $2, 0, $3, $4, $5, $6, $7, $8, $9)`,
		g.Board, g.Game, r.Reason, strings.Join(r.Winners, ","), r.PGN4, p[0], p[1], p[2], p[3]); err != nil {
		return false, fmt.Errorf("store game %s/%s: result: %w", g.Board, g.Game, err)
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("store game %s/%s: commit: %w", g.Board, g.Game, err)
	}
	return true, nil
}

// dropImported clears what an import stored of the transaction's game
// (start_seq 0) when the board's stream brings the game itself: the
// stream's record is the game's, with its seqs, clocks and corrections.
// The game then starts at this message (a game_start sets it again).
func (t *Tx) dropImported() error {
	var startSeq int64
	err := t.tx.QueryRowContext(t.ctx, `SELECT start_seq FROM games WHERE board = $1 AND game = $2`, t.m.Board, t.m.Game).Scan(&startSeq)
	if err == sql.ErrNoRows || err == nil && startSeq != 0 {
		return nil
	} else if err != nil {
		return err
	}
	for _, stmt := range []string{
		`DELETE FROM moves WHERE board = $1 AND game = $2`,
		`DELETE FROM results WHERE board = $1 AND game = $2`,
		`DELETE FROM game_tags WHERE board = $1 AND game = $2`,
	} {
		if _, err := t.tx.ExecContext(t.ctx, stmt, t.m.Board, t.m.Game); err != nil {
			return err
		}
	}
	_, err = t.tx.ExecContext(t.ctx, `UPDATE games SET status = 'playing', start_seq = $3 WHERE board = $1 AND game = $2`, t.m.Board, t.m.Game, int64(t.m.Seq))
	return err
}
