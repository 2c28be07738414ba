package engine

// This file is the engine's second (and last) contact with package rules:
// the game layer a whole game needs (play, replies, result). The search
// itself only goes through adapter.go.

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"boardd/rules"
	"boardd/rules/blocking"
)

// Player chooses moves for a seat: a bot, or one of the measuring
// players random and greedy.
type Player interface {
	// Kind names the player as --seats writes it ("bot:3", "random").
	Kind() string
	// Choose returns a legal move for the seat to move in g.
	Choose(ctx context.Context, g *rules.Game) (Move, error)
}

// NewPlayer makes a player from its --seats name: bot:LEVEL (1–5; "bot"
// is level 3), random (a uniform legal move) or greedy (the capture that
// scores most by piece value, else a random move). movetime is the bot's
// time per move (0: depth limit only, reproducible); seed makes random
// choices reproducible.
func NewPlayer(kind string, movetime time.Duration, seed uint64) (Player, error) {
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b9))
	switch {
	case kind == "random":
		return &randomPlayer{rng: rng}, nil
	case kind == "greedy":
		return &greedyPlayer{rng: rng}, nil
	case kind == "bot" || strings.HasPrefix(kind, "bot:"):
		lvl := 3
		if kind != "bot" {
			n, err := strconv.Atoi(strings.TrimPrefix(kind, "bot:"))
			if err != nil || n < 1 || n > MaxLevel {
				return nil, fmt.Errorf("player %q: the level must be 1 to %d (bot:3)", kind, MaxLevel)
			}
			lvl = n
		}
		opt := Options{Level: lvl, MoveTime: movetime, Seed: seed, HashMB: 8}
		if movetime == 0 {
			opt.NoTimeLimit = true
		}
		return &BotPlayer{Engine: New(opt), kind: fmt.Sprintf("bot:%d", lvl)}, nil
	}
	return nil, fmt.Errorf("player %q: want bot:LEVEL (1-%d), random or greedy", kind, MaxLevel)
}

// BotPlayer is the engine as a Player.
type BotPlayer struct {
	*Engine
	kind string
	// Last is the result of the last Choose.
	Last Result
}

// Kind names the bot ("bot:3").
func (p *BotPlayer) Kind() string { return p.kind }

// Choose thinks and returns the bot's move.
func (p *BotPlayer) Choose(ctx context.Context, g *rules.Game) (Move, error) {
	r, err := p.Think(ctx, g)
	p.Last = r
	return r.Move, err
}

type randomPlayer struct{ rng *rand.Rand }

func (p *randomPlayer) Kind() string { return "random" }

func (p *randomPlayer) Choose(_ context.Context, g *rules.Game) (Move, error) {
	moves := g.LegalMoves()
	if len(moves) == 0 {
		return 0, ErrNoMove
	}
	return moves[p.rng.IntN(len(moves))], nil
}

type greedyPlayer struct{ rng *rand.Rand }

func (p *greedyPlayer) Kind() string { return "greedy" }

func (p *greedyPlayer) Choose(_ context.Context, g *rules.Game) (Move, error) {
	moves := g.LegalMoves()
	if len(moves) == 0 {
		return 0, ErrNoMove
	}
	pos := g.Position()
	best, bestV := -1, 0
	for i, m := range moves {
		if sw, _ := m.IsSwap(); sw {
			continue
		}
		v := 0
		if m.IsEnPassant() {
			v = pointValue[kPawn]
		} else if c := pos.At(m.To()); c.IsPiece() && !c.Dead() && c.Seat() != pos.Turn() {
			v = pointValue[c.Kind()]
		}
		if v > bestV {
			best, bestV = i, v
		}
	}
	if best < 0 {
		return moves[p.rng.IntN(len(moves))], nil
	}
	return moves[best], nil
}

// Outcome is how one game of a match ended.
type Outcome struct {
	// Result is the game's result (Reason "move limit" when the match
	// stopped it).
	Result rules.Result
	// Turns is the number of turns played.
	Turns int
	// Winner is the kind that won ("" for a draw): Teams-like variants
	// the winning side's kind, singles the kind of the seat first on
	// points (or the last one left).
	Winner string
	// Game is the finished game.
	Game *rules.Game
}

// MaxTurns is where PlayGame stops a game that does not end (a draw).
const MaxTurns = 1200

// PlayGame plays one game of v from fen ("" for the start array) with the
// four players (indexed by seat) and returns how it ended. A move a player
// returns that the game refuses is an error naming the player, the seat
// and the move: the bots must never make one. Where the variant lets a
// player claim the win (chess.com FFA: two left, a lead of more than 20
// points), a bot claims it as soon as it may; random and greedy players
// do not.
func PlayGame(ctx context.Context, v *rules.Variant, fen string, players [numSeats]Player) (Outcome, error) {
	g, err := rules.NewGame(v, fen)
	if err != nil {
		return Outcome{}, err
	}
	for turns := 0; ; turns++ {
		if r, over := g.Result(); over {
			return Outcome{Result: r, Turns: turns, Winner: winnerKind(v, r, players), Game: g}, nil
		}
		if err := ctx.Err(); err != nil {
			return Outcome{}, err
		}
		if turns >= MaxTurns {
			return Outcome{Result: rules.Result{Reason: "move limit"}, Turns: turns, Game: g}, nil
		}
		bd, double := rules.HookIn[*blocking.BlockingDouble](g)
		if s, ok := awaitingReply(bd, double); ok {
			// Blocking double: the bots never announce a move into
			// check, but answer one with the first reply the rules take.
			replied := false
			for r := blocking.ReplyUnwise; r <= blocking.ReplyUnwise+3; r++ {
				if bd.Reply(s, r) == nil {
					replied = true
					break
				}
			}
			if !replied {
				return Outcome{}, fmt.Errorf("turn %d: %s cannot answer the announced move", turns, s)
			}
			continue
		}
		if claimWin(g, players) {
			continue
		}
		seat := g.Turn()
		who := seat
		if c := controller(g, seat); c != noSeat {
			who = c
		}
		p := players[who]
		if len(g.LegalMoves()) == 0 {
			// A seat with no move in a game that is not over: stalemate
			// with a privilege it may decline (blocking double).
			if double && bd.ClaimStalemate(seat) == nil {
				continue
			}
			if _, err := g.Resign(seat); err != nil {
				return Outcome{}, fmt.Errorf("turn %d: %s has no move and cannot resign: %v", turns, seat, err)
			}
			continue
		}
		m, err := p.Choose(ctx, g)
		if err != nil {
			return Outcome{}, fmt.Errorf("turn %d: %s (%s): %v", turns, seat, p.Kind(), err)
		}
		if _, err := g.Play(m); err != nil {
			return Outcome{}, fmt.Errorf("turn %d: %s (%s) chose an illegal move %s: %v", turns, seat, p.Kind(), m, err)
		}
	}
}

// claimWin ends g for a bot that may claim the win (the rules say who
// may), and reports whether one did.
func claimWin(g *rules.Game, players [numSeats]Player) bool {
	for s := Seat(0); s < numSeats; s++ {
		if _, bot := players[s].(*BotPlayer); bot && g.ClaimWin(s) == nil {
			return true
		}
	}
	return false
}

// winnerKind names the kind that won a finished game, or "" for a draw
// or when the winners are of different kinds.
func winnerKind(v *rules.Variant, r rules.Result, players [numSeats]Player) string {
	if len(r.Winners) == 0 {
		return ""
	}
	k := players[r.Winners[0]].Kind()
	for _, s := range r.Winners[1:] {
		if players[s].Kind() != k {
			return ""
		}
	}
	return k
}

// awaitingReply returns the seat that must answer an announced move in
// blocking double (bd, when double), and whether one must.
func awaitingReply(bd *blocking.BlockingDouble, double bool) (Seat, bool) {
	if !double {
		return noSeat, false
	}
	return bd.AwaitingReply()
}
