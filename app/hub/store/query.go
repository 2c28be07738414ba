package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// LastSeqs returns, per board, the last seq the store holds: the hub
// resumes each board at that seq + 1.
func (s *Store) LastSeqs(ctx context.Context) (map[string]uint64, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT board, last_seq FROM boards`)
	if err != nil {
		return nil, fmt.Errorf("store %s: boards: %w", s.where, err)
	}
	defer rows.Close()
	out := map[string]uint64{}
	for rows.Next() {
		var b string
		var n int64
		if err := rows.Scan(&b, &n); err != nil {
			return nil, err
		}
		out[b] = uint64(n)
	}
	return out, rows.Err()
}

// BoardSummary is a board as the hub's list shows it.
type BoardSummary struct {
	Board string `json:"board"`
	// Status is offline (the board's connection is gone), playing,
	// finished (its last game is over) or idle (no game yet).
	Status string `json:"status"`
	// Game is the current or last game's id.
	Game string `json:"game"`
	// Moves counts that game's moves (taken-back ones not counted), and
	// LastMove is the last of them in PGN4.
	Moves    int    `json:"moves"`
	LastMove string `json:"last_move"`
	// LastSeq is the last seq of its stream the hub holds.
	LastSeq uint64 `json:"last_seq"`
}

// Retired tells whether name is a board's retired history, the name
// RetireBoard gives it (board~20061102-150405, boardd hub forget), and
// the board's name before that.
func Retired(name string) (board string, ok bool) {
	i := strings.LastIndexByte(name, '~')
	if i <= 0 {
		return "", false
	}
	stamp := name[i+1:]
	if len(stamp) != len(retiredStamp) {
		return "", false
	}
	for j := range len(stamp) {
		if c := stamp[j]; retiredStamp[j] == '-' && c != '-' || retiredStamp[j] != '-' && (c < '0' || c > '9') {
			return "", false
		}
	}
	return name[:i], true
}

// retiredStamp is the layout of the stamp RetireBoard appends (its
// time.Format layout).
const retiredStamp = "20060102-150405"

// Boards lists every board that ever published to the hub, by name; a
// retired board's history (Retired) is no board: its games are listed
// by Games under the retired name.
func (s *Store) Boards(ctx context.Context) ([]BoardSummary, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT b.board, b.status, b.game, b.last_seq, COALESCE(g.status, ''),
			(SELECT COUNT(*) FROM moves m WHERE m.board = b.board AND m.game = b.game AND m.kind = 'move' AND m.undone_seq IS NULL),
			COALESCE((SELECT m.move FROM moves m WHERE m.board = b.board AND m.game = b.game AND m.kind = 'move' AND m.undone_seq IS NULL
				ORDER BY m.seq DESC LIMIT 1), '')
		FROM boards b LEFT JOIN games g ON g.board = b.board AND g.game = b.game
		ORDER BY b.board`)
	if err != nil {
		return nil, fmt.Errorf("store %s: boards: %w", s.where, err)
	}
	defer rows.Close()
	out := []BoardSummary{}
	for rows.Next() {
		var b BoardSummary
		var status, gameStatus string
		var last int64
		if err := rows.Scan(&b.Board, &status, &b.Game, &last, &gameStatus, &b.Moves, &b.LastMove); err != nil {
			return nil, err
		}
		if _, retired := Retired(b.Board); retired {
			continue
		}
		b.LastSeq = uint64(last)
		switch {
		case status == "offline":
			b.Status = "offline"
		case gameStatus == "over":
			b.Status = "finished"
		case gameStatus == "":
			b.Status = "idle"
		default:
			b.Status = "playing"
		}
		out = append(out, b)
	}
	return out, rows.Err()
}

// StoredTurn is a turn as stored, with the seq of the message that played it.
type StoredTurn struct {
	Turn
	Seq uint64
	// UndoneSeq is the message that took it back (0: it stands).
	UndoneSeq uint64
}

// Turns lists a game's turns in order, those taken back included.
func (s *Store) Turns(ctx context.Context, board, game string) ([]StoredTurn, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT seq, kind, seat, move, coord, clock_red, clock_blue, clock_yellow, clock_green,
			points_red, points_blue, points_yellow, points_green, fen4, undone_seq
		FROM moves WHERE board = $1 AND game = $2 ORDER BY seq`, board, game)
	if err != nil {
		return nil, fmt.Errorf("store %s: moves of %s/%s: %w", s.where, board, game, err)
	}
	defer rows.Close()
	var out []StoredTurn
	for rows.Next() {
		var t StoredTurn
		var seq int64
		var c [4]sql.NullInt64
		var p [4]sql.NullInt64
		var undone sql.NullInt64
		if err := rows.Scan(&seq, &t.Kind, &t.Seat, &t.Move, &t.Coord, &c[0], &c[1], &c[2], &c[3], &p[0], &p[1], &p[2], &p[3], &t.FEN4, &undone); err != nil {
			return nil, err
		}
		t.Seq, t.UndoneSeq = uint64(seq), uint64(undone.Int64)
		if c[0].Valid {
			for _, v := range c {
				t.Clocks = append(t.Clocks, v.Int64)
			}
		}
		if p[0].Valid {
			for _, v := range p {
				t.Points = append(t.Points, int(v.Int64))
			}
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// Game is a stored game with its tags and result.
type Game struct {
	Board, ID      string
	Variant, Start string
	Status         string // playing or over
	Tags           map[string]string
	Result         *Result // nil while playing
}

// Game returns one game; ok is false when the store does not have it.
func (s *Store) Game(ctx context.Context, board, game string) (g Game, ok bool, err error) {
	g = Game{Board: board, ID: game, Tags: map[string]string{}}
	err = s.db.QueryRowContext(ctx, `SELECT variant, start, status FROM games WHERE board = $1 AND game = $2`, board, game).
		Scan(&g.Variant, &g.Start, &g.Status)
	if err == sql.ErrNoRows {
		return g, false, nil
	} else if err != nil {
		return g, false, fmt.Errorf("store %s: game %s/%s: %w", s.where, board, game, err)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT name, value FROM game_tags WHERE board = $1 AND game = $2`, board, game)
	if err != nil {
		return g, false, err
	}
	for rows.Next() {
		var n, v string
		if err := rows.Scan(&n, &v); err != nil {
			rows.Close()
			return g, false, err
		}
		g.Tags[n] = v
	}
	rows.Close()
	var r Result
	var winners string
	var p [4]sql.NullInt64
	err = s.db.QueryRowContext(ctx, `SELECT reason, winners, pgn4, points_red, points_blue, points_yellow, points_green
		FROM results WHERE board = $1 AND game = $2`, board, game).Scan(&r.Reason, &winners, &r.PGN4, &p[0], &p[1], &p[2], &p[3])
	switch {
	case err == sql.ErrNoRows:
	case err != nil:
		return g, false, err
	default:
		if winners != "" {
			r.Winners = strings.Split(winners, ",")
		}
		if p[0].Valid {
			for _, v := range p {
				r.Points = append(r.Points, int(v.Int64))
			}
		}
		g.Result = &r
	}
	return g, true, nil
}

// Gaps returns the ranges of seqs of a board the hub will never hold.
func (s *Store) Gaps(ctx context.Context, board string) ([][2]uint64, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT first_seq, last_seq FROM gaps WHERE board = $1 ORDER BY first_seq`, board)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out [][2]uint64
	for rows.Next() {
		var a, b int64
		if err := rows.Scan(&a, &b); err != nil {
			return nil, err
		}
		out = append(out, [2]uint64{uint64(a), uint64(b)})
	}
	return out, rows.Err()
}

// Seqs lists the seqs of a board's messages the store holds, in order.
func (s *Store) Seqs(ctx context.Context, board string) ([]uint64, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT seq FROM messages WHERE board = $1 ORDER BY seq`, board)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []uint64
	for rows.Next() {
		var n int64
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		out = append(out, uint64(n))
	}
	return out, rows.Err()
}
