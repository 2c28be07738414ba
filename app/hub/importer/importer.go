// Package importer reads finished games written as PGN4 into the club
// hub's database (app/hub/store): the files of `boardd hub import DIR`
// and the archived games a board publishes on games/<id> when it joins.
// Each game is replayed with the rules (rules/pgn4), so what is stored
// is a legal game: its tags (players, event, round), every turn with the
// position after it, and its result. A game is keyed by its board and
// its id (the GameId tag): importing it again stores nothing.
package importer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"boardd/app/catalog"
	"boardd/app/hub/store"
	"boardd/rules"
	"boardd/rules/pgn4"
	"boardd/sync/mqtt"
)

// MaxFileBytes bounds a file read (a long game is some tens of KiB).
const MaxFileBytes = 4 << 20

// Outcome is what became of one game.
type Outcome int

// Outcomes.
const (
	Stored Outcome = iota // stored now
	Known                 // the store has it already
)

// Game is one game read from a PGN4 text: board names the board (when
// the text has no Board tag) and id the game (when it has no GameId
// tag). It replays the game first: an illegal or unreadable game stores
// nothing and says which move.
func Game(ctx context.Context, s *store.Store, board, id string, pg *pgn4.Game) (Outcome, error) {
	board, id = key(board, id, pg)
	return store1(ctx, s, board, id, pg)
}

// store1 stores pg as board's game id unless the store has it.
func store1(ctx context.Context, s *store.Store, board, id string, pg *pgn4.Game) (Outcome, error) {
	if err := checkKey(board, id); err != nil {
		return 0, err
	}
	if have, err := s.HasGame(ctx, board, id); err != nil {
		return 0, err
	} else if have {
		return Known, nil // before the replay: a game seen again costs a query
	}
	g, err := Convert(board, id, pg)
	if err != nil {
		return 0, err
	}
	stored, err := s.Import(ctx, g)
	switch {
	case err != nil:
		return 0, err
	case !stored:
		return Known, nil
	}
	return Stored, nil
}

// Published stores a game a board published on its games/<id> topic:
// the board and the id are the topic's, whatever the text's tags say (a
// board publishes only its own topics, so it imports only its own
// games).
func Published(ctx context.Context, s *store.Store, board, id, text string) (Outcome, error) {
	pg, _, err := pgn4.ParseString(text)
	if err != nil {
		return 0, err
	}
	return store1(ctx, s, board, id, pg)
}

// key is a game's board and id: the Board and GameId tags, else board
// and id.
func key(board, id string, pg *pgn4.Game) (string, string) {
	if b := pg.Get("Board"); b != "" {
		board = b
	}
	if gid := pg.Get("GameId"); gid != "" {
		id = gid
	}
	return board, id
}

func checkKey(board, id string) error {
	if board == "" {
		return errors.New("no Board tag, and the file is not in a board's directory (DIR/<board>/<game>.pgn4): move it into one named after its board")
	}
	if err := mqtt.CheckID("board", board); err != nil {
		return err
	}
	return mqtt.CheckID("game", id)
}

// Convert replays a PGN4 game and returns it as the store keeps it, as
// board's game id.
func Convert(board, id string, pg *pgn4.Game) (store.ImportedGame, error) {
	if err := checkKey(board, id); err != nil {
		return store.ImportedGame{}, err
	}
	g, _, err := pgn4.ReplayWith(pg, "", catalog.Variant)
	if err != nil {
		return store.ImportedGame{}, err
	}
	out := store.ImportedGame{Board: board, Game: id, Variant: g.Variant().Name, Start: pg.Get("StartFen4"), Tags: map[string]string{}}
	for _, t := range pg.Tags {
		out.Tags[t.Name] = t.Value
	}
	if d := pg.Get("Date"); d != "" {
		for _, layout := range []string{"2006-01-02", "2006.01.02"} {
			if t, err := time.Parse(layout, d); err == nil {
				out.Started = t
				break
			}
		}
	}
	recs := g.Records()
	fens := make([]string, len(recs))
	back := g.Clone()
	for i := len(recs) - 1; i >= 0; i-- {
		fens[i] = back.Position().FEN4()
		if err := back.Takeback(); err != nil {
			return store.ImportedGame{}, fmt.Errorf("move %d: %w", i+1, err)
		}
	}
	var points [rules.NumSeats]int
	for i, r := range recs {
		for s := range points {
			points[s] += r.Gained[s]
		}
		u := store.Turn{Seat: r.Seat.String(), Move: r.Text, FEN4: fens[i]}
		switch r.Action {
		case rules.ActMove:
			u.Kind, u.Coord = "move", r.Move.String()
		case rules.ActResign:
			u.Kind = "resign"
		case rules.ActTimeout:
			u.Kind = "timeout"
		}
		if g.Variant().Mode == rules.FFA {
			u.Points = append([]int(nil), points[:]...)
		}
		out.Turns = append(out.Turns, u)
	}
	out.Result.PGN4 = pg.Get("Result")
	if res, over := g.Result(); over {
		out.Result.Reason = res.Reason
		for _, s := range res.Winners {
			out.Result.Winners = append(out.Result.Winners, s.String())
		}
		out.Result.Points = append([]int(nil), res.Points[:]...)
	} else {
		out.Result.Reason = pg.Get("Termination")
		if out.Result.Reason == "" {
			out.Result.Reason = "unfinished"
		}
	}
	return out, nil
}

// Summary counts what Dir did.
type Summary struct {
	Files, Games, Stored, Known, Failed int
}

func (s Summary) String() string {
	return fmt.Sprintf("%d files, %d games: %d stored, %d already there, %d not imported", s.Files, s.Games, s.Stored, s.Known, s.Failed)
}

// Dir imports every *.pgn4 file under dir: the layout boardd collect
// writes (dir/<board>/<game id>.pgn4) and a board's archive (its games/
// directory, each file with Board and GameId tags) alike. A file whose
// games have no Board tag takes the name of its directory right under
// dir; a game without a GameId tag the file's name (with the game's
// number when the file holds several). Each bad file or game is one
// line on out and the rest goes on; a line of progress every 100 games
// and the summary end it. The error is about dir itself (or ctx).
func Dir(ctx context.Context, s *store.Store, dir string, out io.Writer) (Summary, error) {
	var sum Summary
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path == dir {
				return err
			}
			fmt.Fprintf(out, "%s: %v\n", path, err)
			sum.Failed++
			return nil
		}
		if !d.IsDir() && strings.EqualFold(filepath.Ext(path), ".pgn4") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		return sum, fmt.Errorf("import %s: %w", dir, err)
	}
	sort.Strings(files)
	for _, path := range files {
		if err := ctx.Err(); err != nil {
			return sum, err
		}
		sum.Files++
		board := ""
		if rel, err := filepath.Rel(dir, path); err == nil {
			if parts := strings.Split(filepath.ToSlash(rel), "/"); len(parts) == 2 {
				board = parts[0]
			}
		}
		games, err := readFile(path)
		if err != nil {
			fmt.Fprintf(out, "%s: %v\n", path, err)
			sum.Failed++
			continue
		}
		base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
		for i, pg := range games {
			id := base
			if len(games) > 1 {
				id = fmt.Sprintf("%s-%d", base, i+1)
			}
			sum.Games++
			o, err := Game(ctx, s, board, id, pg)
			switch {
			case err != nil:
				where := path
				if len(games) > 1 {
					where = fmt.Sprintf("%s, game %d", path, i+1)
				}
				fmt.Fprintf(out, "%s: %v\n", where, err)
				sum.Failed++
			case o == Known:
				sum.Known++
			default:
				sum.Stored++
			}
			if sum.Games%100 == 0 {
				fmt.Fprintf(out, "… %d games read (%d stored)\n", sum.Games, sum.Stored)
			}
		}
	}
	fmt.Fprintf(out, "imported from %s: %s\n", dir, sum)
	return sum, nil
}

// readFile reads the games of one file, bounded.
func readFile(path string) ([]*pgn4.Game, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("larger than %d MiB: not a game file", MaxFileBytes>>20)
	}
	games, _, err := pgn4.Parse(strings.NewReader(string(data)))
	if err != nil {
		return nil, err
	}
	if len(games) == 0 {
		return nil, errors.New("no game in the file")
	}
	return games, nil
}
