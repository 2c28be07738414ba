// Package arena plays whole games between boardd's bot and another
// four-player chess engine, with boardd's rules deciding what is legal and
// when a game ends.
//
// boardd's side is the real `boardd bestmove` binary, one process per
// move (a cold start every move, no pondering: how another program plays
// against it). The opponent is any engine that speaks the UCI-like
// protocol of 4pchess (github.com/obryanlouis/4pchess): `position fen F
// moves m1 m2 …`, `go movetime MS`, and an answer `bestmove h2-h4`. Both
// get the same time per move. Every move either side plays is checked
// against the rules engine's legal moves; one that is not legal ends the
// game and is reported as illegal, never played. Each game is written as
// PGN4, which `boardd replay` reads.
//
// See docs/bot.md ("Against other engines") for how to run it.
package arena

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"boardd/rules"
	"boardd/rules/pgn4"
)

// MallocEnv is the opponent's environment in matches: glibc keeps freed
// memory in the heap instead of handing it back to the system. 4pchess
// allocates large tables in every iteration of its search; on a virtual
// machine, where touching fresh memory is slow, it otherwise spends about
// 100 ms an iteration before it searches (depth 13 after 1.7 s instead of
// 0.4 s). An ordinary machine behaves as with these settings.
const MallocEnv = "MALLOC_MMAP_THRESHOLD_=33554432 MALLOC_TRIM_THRESHOLD_=17179869184 MALLOC_TOP_PAD_=268435456"

// ReadStarts reads a list of start positions, one FEN4 a line (blank
// lines and lines starting with # skipped), as 4pchess's
// FENs_4PC_balanced.txt.
func ReadStarts(v *rules.Variant, text string) ([]string, error) {
	var starts []string
	for i, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if _, err := rules.NewGame(v, l); err != nil {
			return nil, fmt.Errorf("line %d: %v", i+1, err)
		}
		starts = append(starts, l)
	}
	if len(starts) == 0 {
		return nil, errors.New("no start position in the list")
	}
	return starts, nil
}

// Player chooses moves for the seats it holds.
type Player interface {
	// Name says who the player is in reports and PGN4 tags.
	Name() string
	// Move returns the player's answer for the seat to move in g: the
	// token of the move it chooses (PGN4 such as "Nj1-i3" or "O-O", or
	// squares such as "h2-h4" or "h10-h11=Q"), how long it took, and what
	// its last "info" line said of its search.
	Move(ctx context.Context, g *rules.Game, movetime time.Duration) (Answer, error)
	// Close ends the player's process, if it keeps one.
	Close() error
}

// Answer is a player's answer to one position.
type Answer struct {
	// Token is the move as the player wrote it.
	Token string
	// Took is the wall time from the question to the answer.
	Took time.Duration
	// Info is what the player's last "info" line before the answer said
	// of its search (zero when it said nothing).
	Info Info
}

// Info is a search's report: the depth it completed, the positions it
// searched and the time it said it took.
type Info struct {
	Depth int
	Nodes int64
	Time  time.Duration
}

// parseInfo reads "info depth 8 score 36 nodes 157256 nps 404808 time
// 388ms" (boardd) or "info depth 13 time 333 nodes 67454 pv … score 124"
// (4pchess: the time in milliseconds); ok is false for any other line.
func parseInfo(line string) (Info, bool) {
	f := strings.Fields(line)
	if len(f) < 3 || f[0] != "info" || f[1] != "depth" {
		return Info{}, false
	}
	var in Info
	for i := 1; i+1 < len(f); i++ {
		switch f[i] {
		case "depth":
			in.Depth, _ = strconv.Atoi(f[i+1])
		case "nodes":
			in.Nodes, _ = strconv.ParseInt(f[i+1], 10, 64)
		case "time":
			if ms, err := strconv.ParseInt(f[i+1], 10, 64); err == nil {
				in.Time = time.Duration(ms) * time.Millisecond
			} else if d, err := time.ParseDuration(f[i+1]); err == nil {
				in.Time = d
			}
		case "pv":
			i = len(f) // the moves of the line follow
		}
	}
	return in, in.Depth > 0
}

// IllegalMoveError is a move a player answered that the rules refuse (or
// an answer that is not a move at all).
type IllegalMoveError struct {
	// Player and Seat say who played it; Token is what it answered.
	Player, Token string
	Seat          rules.Seat
	// FEN4 is the position it was played in.
	FEN4 string
	// Err says why the rules refuse it.
	Err error
}

func (e *IllegalMoveError) Error() string {
	return fmt.Sprintf("%s (%s) played %q, which boardd's rules refuse: %v (position %s)", e.Player, e.Seat, e.Token, e.Err, e.FEN4)
}

func (e *IllegalMoveError) Unwrap() error { return e.Err }

// PlayerError is a player that gave no answer (a crash, a timeout, output
// that is not a move line): the game cannot go on.
type PlayerError struct {
	// Side is 0 for boardd, 1 for the opponent.
	Side   int
	Player string
	Seat   rules.Seat
	Turn   int
	Err    error
}

func (e *PlayerError) Error() string {
	return fmt.Sprintf("turn %d: %s (%s): %v", e.Turn, e.Player, e.Seat, e.Err)
}

func (e *PlayerError) Unwrap() error { return e.Err }

// Squares writes m as 4pchess reads it: the squares, the king's for
// castling, and "=Q" (or R, B, N) for a promotion.
func Squares(m rules.Move) string { return m.String() }

// Config is one match.
type Config struct {
	// Variant is the rules (chess.com Teams).
	Variant *rules.Variant
	// Games is the number of games; seats alternate every game and each
	// opening is played twice, once from each side.
	Games int
	// MoveTime is each side's time per move.
	MoveTime time.Duration
	// OpeningPlies random legal moves (seeded by Seed) start each pair of
	// games, so that two deterministic engines do not play one game over
	// and over. 0 plays from the start array.
	OpeningPlies int
	// Seed makes the openings reproducible.
	Seed uint64
	// Starts, when not empty, are the positions (FEN4) that open the
	// pairs of games instead of random plies: pair i plays Starts[i mod
	// len], once from each side (4pchess's FENs_4PC_balanced.txt is such a
	// list).
	Starts []string
	// MaxTurns stops a game that goes on (a draw); 0 means 600.
	MaxTurns int
}

// Outcome is one finished game.
type Outcome struct {
	// Index is the game's number from 0.
	Index int
	// BotSeats are the seats boardd played (Red and Yellow, or Blue and
	// Green).
	BotSeats [2]rules.Seat
	// Result is how it ended ("move limit" when MaxTurns stopped it,
	// "illegal move" when a player answered one).
	Result rules.Result
	// Score is boardd's: 1 a win, ½ a draw, 0 a loss.
	Score float64
	// Illegal is the illegal move that ended the game, if one did.
	Illegal *IllegalMoveError
	// Turns is the number of turns played; Game the game itself.
	Turns int
	Game  *rules.Game
	// Time is each side's thinking time: the sum and the longest move,
	// index 0 boardd, 1 the opponent; Moves counts each side's moves.
	Time, MaxTime [2]time.Duration
	Moves         [2]int
	// Search adds up what each side's info lines said: depths, nodes and
	// search time, over Searched moves.
	Search [2]SearchSum
}

// SearchSum adds up the searches of one side.
type SearchSum struct {
	Searched int
	Depth    int
	Nodes    int64
	Time     time.Duration
}

func (s *SearchSum) add(in Info) {
	if in.Depth == 0 {
		return
	}
	s.Searched++
	s.Depth += in.Depth
	s.Nodes += in.Nodes
	s.Time += in.Time
}

func (s *SearchSum) merge(o SearchSum) {
	s.Searched += o.Searched
	s.Depth += o.Depth
	s.Nodes += o.Nodes
	s.Time += o.Time
}

// String is "depth 8.1, 412 knodes/s" (mean depth, nodes per second of
// search time as the engine measured it).
func (s SearchSum) String() string {
	if s.Searched == 0 {
		return "no info"
	}
	nps := 0.0
	if s.Time > 0 {
		nps = float64(s.Nodes) / s.Time.Seconds()
	}
	return fmt.Sprintf("depth %.1f, %.0f knodes/s", float64(s.Depth)/float64(s.Searched), nps/1000)
}

// Won, Drew and Lost say how the game went for boardd.
func (o Outcome) Won() bool  { return o.Score == 1 }
func (o Outcome) Drew() bool { return o.Score == 0.5 }
func (o Outcome) Lost() bool { return o.Score == 0 }

// PGN4 returns the game as PGN4 with the players' names as tags; a game
// ended by an illegal move carries it in a Termination tag.
func (o Outcome) PGN4(bot, opp string) (string, error) {
	names := [2]string{bot, opp}
	tags := []pgn4.Tag{{Name: "Event", Value: "boardd arena"}, {Name: "Round", Value: fmt.Sprint(o.Index + 1)}}
	for s := rules.Seat(0); s < rules.NumSeats; s++ {
		who := names[1]
		if s == o.BotSeats[0] || s == o.BotSeats[1] {
			who = names[0]
		}
		tags = append(tags, pgn4.Tag{Name: s.String(), Value: who})
	}
	if o.Illegal != nil {
		tags = append(tags, pgn4.Tag{Name: "Termination", Value: o.Illegal.Error()})
	} else if o.Result.Reason != "" {
		tags = append(tags, pgn4.Tag{Name: "Termination", Value: o.Result.Reason})
	}
	pg, err := pgn4.FromGame(o.Game, tags)
	if err != nil {
		return "", err
	}
	return pg.String(), nil
}

// Opening returns the moves that start game pair i: OpeningPlies legal
// moves drawn with the seed, none of which ends the game.
func (c Config) Opening(pair int) ([]rules.Move, error) {
	g, err := rules.NewGame(c.Variant, "")
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(c.Seed, uint64(pair)))
	var moves []rules.Move
	for len(moves) < c.OpeningPlies {
		legal := g.LegalMoves()
		if len(legal) == 0 {
			break
		}
		m := legal[rng.IntN(len(legal))]
		if _, err := g.Play(m); err != nil {
			return nil, err
		}
		if _, over := g.Result(); over {
			break
		}
		moves = append(moves, m)
	}
	return moves, nil
}

// PlayGame plays game i of the match: boardd's bot against opp, boardd on
// Red and Yellow in even games and on Blue and Green in odd ones.
func (c Config) PlayGame(ctx context.Context, i int, bot, opp Player) (Outcome, error) {
	if c.Variant.Mode != rules.Teams {
		return Outcome{}, fmt.Errorf("arena: variant %s: only chess.com Teams is supported (4pchess plays Teams)", c.Variant.Name)
	}
	start := ""
	if len(c.Starts) > 0 {
		start = c.Starts[(i/2)%len(c.Starts)]
	}
	g, err := rules.NewGame(c.Variant, start)
	if err != nil {
		return Outcome{}, fmt.Errorf("arena: game %d's start: %v", i+1, err)
	}
	o := Outcome{Index: i, Game: g, BotSeats: [2]rules.Seat{rules.Red, rules.Yellow}}
	if i%2 == 1 {
		o.BotSeats = [2]rules.Seat{rules.Blue, rules.Green}
	}
	var opening []rules.Move
	if start == "" {
		if opening, err = c.Opening(i / 2); err != nil {
			return o, err
		}
	}
	for _, m := range opening {
		if _, err := g.Play(m); err != nil {
			return o, fmt.Errorf("opening move %s: %v", m, err)
		}
	}
	maxTurns := c.MaxTurns
	if maxTurns == 0 {
		maxTurns = 600
	}
	isBot := func(s rules.Seat) bool { return s == o.BotSeats[0] || s == o.BotSeats[1] }
	for {
		if r, over := g.Result(); over {
			o.Result = r
			break
		}
		if o.Turns >= maxTurns {
			o.Result = rules.Result{Reason: "move limit"}
			break
		}
		if err := ctx.Err(); err != nil {
			return o, err
		}
		seat := g.Turn()
		side, p := 1, opp
		if isBot(seat) {
			side, p = 0, bot
		}
		if len(g.LegalMoves()) == 0 {
			// Teams ends on the first mate or stalemate; a seat with no
			// move in a game that goes on is the rules' business.
			if _, err := g.Resign(seat); err != nil {
				return o, fmt.Errorf("turn %d: %s has no move and cannot resign: %v", o.Turns, seat, err)
			}
			continue
		}
		fen := g.Position().FEN4()
		ans, err := p.Move(ctx, g, c.MoveTime)
		tok, took := ans.Token, ans.Took
		if err != nil {
			if ctx.Err() != nil {
				return o, ctx.Err()
			}
			return o, &PlayerError{Side: side, Player: p.Name(), Seat: seat, Turn: o.Turns, Err: err}
		}
		o.Time[side] += took
		o.MaxTime[side] = max(o.MaxTime[side], took)
		o.Moves[side]++
		o.Search[side].add(ans.Info)
		m, err := pgn4.Resolve(g, tok)
		if err == nil {
			_, err = g.Play(m)
		}
		if err != nil {
			o.Illegal = &IllegalMoveError{Player: p.Name(), Seat: seat, Token: tok, FEN4: fen, Err: err}
			winners := []rules.Seat{rules.Blue, rules.Green}
			if seat == rules.Blue || seat == rules.Green {
				winners = []rules.Seat{rules.Red, rules.Yellow}
			}
			o.Result = rules.Result{Reason: "illegal move", Winners: winners}
			break
		}
		o.Turns++
	}
	switch {
	case o.Result.Draw():
		o.Score = 0.5
	case isBot(o.Result.Winners[0]):
		o.Score = 1
	}
	return o, nil
}

// Tally adds up a match.
type Tally struct {
	Wins, Draws, Losses int
	// Illegal counts the games an illegal move ended, per side (0 boardd).
	Illegal [2]int
	// Aborted counts the games a player's failure to answer stopped, per
	// side; they are not in Wins, Draws or Losses.
	Aborted [2]int
	// Time, MaxTime and Moves as in Outcome, over all games.
	Time, MaxTime [2]time.Duration
	Moves         [2]int
	Search        [2]SearchSum
}

// Add counts one game.
func (t *Tally) Add(o Outcome) {
	switch {
	case o.Won():
		t.Wins++
	case o.Drew():
		t.Draws++
	default:
		t.Losses++
	}
	if o.Illegal != nil {
		side := 1
		if o.Illegal.Seat == o.BotSeats[0] || o.Illegal.Seat == o.BotSeats[1] {
			side = 0
		}
		t.Illegal[side]++
	}
	for i := range 2 {
		t.Time[i] += o.Time[i]
		t.MaxTime[i] = max(t.MaxTime[i], o.MaxTime[i])
		t.Moves[i] += o.Moves[i]
		t.Search[i].merge(o.Search[i])
	}
}

// String is the match's line: "boardd vs 4pchess: 20 games, W 3 D 2 L 15
// (score 20.0 %), …".
func (t Tally) String() string {
	n := t.Wins + t.Draws + t.Losses
	score := 0.0
	if n > 0 {
		score = 100 * (float64(t.Wins) + float64(t.Draws)/2) / float64(n)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d games: boardd wins %d, draws %d, losses %d (score %.1f %%)", n, t.Wins, t.Draws, t.Losses, score)
	if t.Illegal != [2]int{} {
		fmt.Fprintf(&b, "; illegal moves: boardd %d, opponent %d", t.Illegal[0], t.Illegal[1])
	}
	if t.Aborted != [2]int{} {
		fmt.Fprintf(&b, "; games stopped, not counted, as a player gave no move: boardd %d, opponent %d", t.Aborted[0], t.Aborted[1])
	}
	for i, who := range []string{"boardd", "opponent"} {
		if t.Moves[i] > 0 {
			fmt.Fprintf(&b, "; %s %s/move (max %s), %s", who, (t.Time[i] / time.Duration(t.Moves[i])).Round(time.Millisecond), t.MaxTime[i].Round(time.Millisecond), t.Search[i])
		}
	}
	return b.String()
}

// errNoAnswer is an engine that ended or closed its output before
// answering bestmove.
var errNoAnswer = errors.New("the engine gave no bestmove")

// errTimeout is an engine that did not answer in time.
var errTimeout = errors.New("timed out")
