// Package botseat seats the bot (package engine) at a board: it watches the
// board's state, and when a bot seat is to move it thinks and sends the
// move as a remote seat's move (the referee's move command), which the
// board lights from→to in the seat's colour for a human to execute; the
// referee then accepts only that move.
//
// The same driver plays at the board itself (boardd run, through
// referee.Live) and from another machine over MQTT (boardd bot, through
// the board's state topic and cmd/ topics): both are a Source.
//
// Which seats are bots is the game's Bots tag ("Green:3,Blue:5": seat and
// level), kept with the game like the Remote tag, so a restart, the
// archive and the web page all know; or, for boardd bot, a fixed seat.
//
// The bot thinks in its own goroutine on an OS thread of lower priority
// (Config.Nice), with one search thread: it uses at most one core. It
// stops the moment its move is no longer wanted: a takeback, a new game, a
// resignation, anything that changes the position or the seat to move.
package botseat

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"boardd/engine"
	"boardd/referee"
	"boardd/referee/clock"
	"boardd/referee/gametags"
	"boardd/rules"
)

// TagBots is the game tag that lists the bot seats and their levels.
const TagBots = gametags.Bots

// Source is the board as the bot sees it (referee.Live is one; an MQTT
// client of the board's topics is another).
type Source interface {
	// State is the board's current snapshot.
	State() referee.State
	// Changed signals (coalesced) that the state may have changed.
	Changed() (<-chan struct{}, func())
	// Do sends a command to the board and waits for its reply.
	Do(ctx context.Context, c referee.Command) referee.Reply
}

// Config sets up the bots of one board.
type Config struct {
	// Lookup finds a variant by name (the board's Lookup).
	Lookup func(name, start string) (*rules.Variant, error)
	// Seats, when set, are the bot seats and their levels whatever the
	// game's tags say (boardd bot --seat); the driver makes them remote.
	// Nil: the game's Bots tag.
	Seats map[rules.Seat]int
	// MoveTime is the time per move when the game has no clocks
	// (default 2 s). With clocks the bot plans its time on the seat's
	// clock (engine.Clock).
	MoveTime time.Duration
	// HandTime is how long a person takes to make the bot's lit move on
	// the board, while the seat's clock runs: the bot keeps that time
	// for each of its moves (engine.DefaultHand is usual; 0: none).
	HandTime time.Duration
	// Now is the time source for how long a turn has run (default
	// time.Now; tests inject the referee's clock).
	Now func() time.Time
	// Nice lowers the thinking thread's scheduling priority (Linux nice
	// value, default 10) so the scanner and the referee come first.
	// Negative: leave it.
	Nice int
	// HashMB is the transposition table's size per bot (default 16).
	HashMB int
	// Resign lets a bot of level 3 or more resign a hopeless Teams game:
	// a forced mate against its team, or three of its moves in a row
	// that see it a queen and a rook down (engine.Result.Hopeless).
	Resign bool
	// Logger (default slog.Default()).
	Logger *slog.Logger
}

// ParseBots reads a Bots tag ("Green:3,Blue" — a seat without a level
// plays level 3): gametags.ParseBots, the check every new game's tags
// pass.
func ParseBots(tag string) (map[rules.Seat]int, error) { return gametags.ParseBots(tag) }

// FormatBots writes bot seats as the Bots tag, in seat order.
func FormatBots(bots map[rules.Seat]int) string {
	var parts []string
	for s := rules.Seat(0); s < rules.NumSeats; s++ {
		if n, ok := bots[s]; ok {
			parts = append(parts, fmt.Sprintf("%s:%d", s, n))
		}
	}
	return strings.Join(parts, ",")
}

// SeatTags returns tags with the bot seats added to the Bots and Remote
// tags (a bot seat is a remote seat: its move is lit for a human to make).
func SeatTags(tags map[string]string, bots map[rules.Seat]int) map[string]string {
	out := map[string]string{}
	for k, v := range tags {
		out[k] = v
	}
	if len(bots) == 0 {
		return out
	}
	out[TagBots] = FormatBots(bots)
	remote := map[string]bool{}
	for _, n := range strings.Split(out["Remote"], ",") {
		if n = strings.TrimSpace(n); n != "" {
			remote[n] = true
		}
	}
	for s := range bots {
		remote[s.String()] = true
	}
	var names []string
	for s := rules.Seat(0); s < rules.NumSeats; s++ {
		if remote[s.String()] {
			names = append(names, s.String())
		}
	}
	out["Remote"] = strings.Join(names, ",")
	return out
}

func seatNamed(name string) (rules.Seat, error) {
	for s := rules.Seat(0); s < rules.NumSeats; s++ {
		if strings.EqualFold(strings.TrimSpace(name), s.String()) {
			return s, nil
		}
	}
	return rules.NoSeat, fmt.Errorf("%q is not a seat (Red, Blue, Yellow, Green)", name)
}

// turnKey identifies one turn of one game: a bot's answer is wanted only
// while the key stays the same.
func turnKey(st referee.State) string {
	return fmt.Sprintf("%s/%d/%s/%s", st.Game, len(st.Moves), st.Turn, st.FEN4)
}

type job struct {
	key    string
	cancel context.CancelFunc
	done   chan struct{}
}

// stop cancels the job and waits for its search to return (the engine's
// table is then free for the next search).
func (j *job) stop() {
	j.cancel()
	<-j.done
}

type answer struct {
	key  string
	seat rules.Seat
	res  engine.Result
	err  error
}

// Run plays the bot seats of the board until ctx ends.
func Run(ctx context.Context, src Source, cfg Config) error {
	if cfg.Lookup == nil {
		return errors.New("botseat: no variant lookup")
	}
	if cfg.MoveTime <= 0 {
		cfg.MoveTime = 2 * time.Second
	}
	if cfg.Nice == 0 {
		cfg.Nice = 10
	}
	if cfg.HashMB == 0 {
		cfg.HashMB = 16
	}
	cfg.HandTime = max(cfg.HandTime, 0)
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	log := cfg.Logger
	if log == nil {
		log = slog.Default()
	}
	sig, stopSig := src.Changed()
	defer stopSig()
	answers := make(chan answer, 1)
	engines := map[string]*engine.Engine{} // per game and seat: the table carries over
	var thinking *job
	defer func() {
		if thinking != nil {
			thinking.stop()
		}
	}()
	sent, made, failed, claimed := "", "", "", ""
	hopeless := map[string]int{} // game/seat: moves in a row that stood hopeless
	var retry <-chan time.Time   // after a refused move: think again
	var turn turnSeen            // when the bot first saw this turn, and the seat's clock then
	for {
		st := src.State()
		seat, level, want := wanted(st, cfg.Seats)
		key := turnKey(st)
		if key != turn.key {
			turn = seen(st, key, cfg.Now())
		}
		if thinking != nil && (!want || thinking.key != key) {
			thinking.stop() // the move is no longer wanted
			thinking = nil
		}
		if want && thinking == nil && key != sent && key != failed {
			if !seatRemote(st, seat) {
				if key != made {
					made = key
					on := true
					if r := src.Do(ctx, referee.Command{Name: referee.CmdRemote, Seat: seat.String(), On: &on}); r.Error != "" {
						log.Warn("bot: cannot make the seat remote", "seat", seat, "error", r.Error)
					} else if seatPlayer(st, seat) == "" {
						// The board cannot tell this remote seat is a bot
						// (its Bots tag is fixed when the game starts): the
						// seat's name says so on the display and in the
						// archive.
						name := BotName(level)
						if r := src.Do(ctx, referee.Command{Name: referee.CmdTags, Tags: map[string]string{seat.String(): name}}); r.Error != "" {
							log.Warn("bot: cannot name the seat", "seat", seat, "error", r.Error)
						}
					}
				}
			} else {
				g, opt, err := setUp(st, seat, level, cfg, turn)
				switch {
				case err != nil:
					log.Warn("bot: cannot read the game", "seat", seat, "error", err)
					failed = key
				case key != claimed && g.ClaimWin(seat) == nil:
					// FFA, two left, a lead of more than 20 points: the
					// game is won by claiming it (g is this turn's copy).
					claimed = key
					if r := src.Do(ctx, referee.Command{Name: referee.CmdClaimWin, Seat: seat.String()}); r.Error != "" {
						log.Warn("bot: cannot claim the win; playing on", "seat", seat, "error", r.Error)
					} else {
						log.Info("bot claimed the win", "seat", seat)
					}
					continue
				default:
					ek := st.Game + "/" + seat.String()
					e := engines[ek]
					if e == nil {
						clear(engines) // one game's bots at a time
						e = engine.New(opt)
						engines[ek] = e
					}
					tctx, cancel := context.WithCancel(ctx)
					thinking = &job{key: key, cancel: cancel, done: make(chan struct{})}
					go think(tctx, e, g, opt, thinking, seat, cfg.Nice, answers)
				}
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-sig:
		case <-retry:
			retry = nil
		case a := <-answers:
			if thinking == nil || a.key != thinking.key {
				continue // an answer nobody wants any more
			}
			<-thinking.done
			thinking = nil
			if turnKey(src.State()) != a.key {
				continue
			}
			if a.err != nil {
				failed = a.key
				if errors.Is(a.err, engine.ErrNoMove) {
					// No move but the game goes on: a stalemate with a
					// privilege the seat may decline (blocking double).
					src.Do(ctx, referee.Command{Name: referee.CmdClaimStalemate, Seat: a.seat.String()})
					continue
				}
				log.Warn("bot: no move", "seat", a.seat, "error", a.err)
				continue
			}
			sent = a.key
			if resigns(cfg, src.State(), a, hopeless) {
				if r := src.Do(ctx, referee.Command{Name: referee.CmdResign, Seat: a.seat.String()}); r.Error != "" {
					log.Warn("bot: cannot resign", "seat", a.seat, "error", r.Error)
				} else {
					log.Info("bot resigned a hopeless game", "seat", a.seat, "score", a.res.Score)
					continue
				}
			}
			r := src.Do(ctx, referee.Command{Name: referee.CmdMove, Seat: a.seat.String(), Move: a.res.Text})
			if r.Error != "" {
				// Refused (a hand on the board at that moment, say):
				// think again in a while if nothing changes before.
				log.Warn("bot: the board refused the bot's move; trying again", "seat", a.seat, "move", a.res.Text, "error", r.Error)
				sent = ""
				retry = time.After(500 * time.Millisecond)
				continue
			}
			log.Info("bot move", "seat", a.seat, "move", a.res.Text, "depth", a.res.Depth, "nodes", a.res.Nodes,
				"time", a.res.Elapsed.Round(time.Millisecond), "allowed", a.res.Allowed.Round(time.Millisecond))
		}
	}
}

// resigns decides whether the bot resigns instead of moving: only when
// the config allows it, at level 3 or more, in Teams, after a forced mate
// against it or three hopeless moves in a row.
func resigns(cfg Config, st referee.State, a answer, hopeless map[string]int) bool {
	if !cfg.Resign || st.Variant != "teams" {
		return false
	}
	_, level, ok := wanted(st, cfg.Seats)
	if !ok || level < 3 {
		return false
	}
	k := st.Game + "/" + a.seat.String()
	if a.res.Forced {
		return false // an only move, not searched: its score says nothing
	}
	if !a.res.Hopeless() {
		hopeless[k] = 0
		return false
	}
	hopeless[k]++
	return a.res.Mated() || hopeless[k] >= 3
}

// wanted says whether a bot seat is to move with nothing in the way: the
// game in play and in step with the board, no remote move waiting, no
// announcement open.
func wanted(st referee.State, fixed map[rules.Seat]int) (rules.Seat, int, bool) {
	if st.Status != "playing" || st.Result != nil || st.Remote != nil || st.Announcement != nil || st.FEN4 == "" ||
		st.Lifted != "" || len(st.Wrong) > 0 || len(st.Missing) > 0 {
		return rules.NoSeat, 0, false
	}
	seat, err := seatNamed(st.Turn)
	if err != nil {
		return rules.NoSeat, 0, false
	}
	bots := fixed
	if bots == nil {
		bots, err = ParseBots(st.Tags[TagBots])
		if err != nil {
			return rules.NoSeat, 0, false
		}
	}
	lvl, ok := bots[seat]
	return seat, lvl, ok
}

// BotName is the player name a seat that boardd bot makes remote gets
// when it has none.
func BotName(level int) string { return fmt.Sprintf("boardd bot (level %d)", level) }

// seatPlayer is seat s's player name ("" if none).
func seatPlayer(st referee.State, s rules.Seat) string {
	i := slices.IndexFunc(st.Seats, func(x referee.SeatState) bool { return x.Seat == s.String() })
	if i < 0 {
		return ""
	}
	return st.Seats[i].Player
}

func seatRemote(st referee.State, s rules.Seat) bool {
	i := slices.IndexFunc(st.Seats, func(x referee.SeatState) bool { return x.Seat == s.String() })
	return i >= 0 && st.Seats[i].Remote
}

// turnSeen is when the bot first saw a turn (its key) and the turn
// seat's clock then (ms, -1: no clocks): a later search of the same turn
// (after a refused move, a hand on the board) counts the time gone since.
type turnSeen struct {
	key  string
	at   time.Time
	left int64
}

func seen(st referee.State, key string, now time.Time) turnSeen {
	t := turnSeen{key: key, at: now, left: -1}
	if i := slices.IndexFunc(st.Seats, func(x referee.SeatState) bool { return x.Seat == st.Turn }); i >= 0 {
		t.left = st.Seats[i].ClockMS
	}
	return t
}

// setUp builds the game to think on from the state, and the options: the
// seat's level, and its clock when the game has clocks (the time left
// when the turn was first seen less what has run since, the increment or
// delay of the game's TimeControl tag, the person's hand time).
func setUp(st referee.State, seat rules.Seat, level int, cfg Config, turn turnSeen) (*rules.Game, engine.Options, error) {
	opt := engine.Options{Level: level, MoveTime: cfg.MoveTime, HashMB: cfg.HashMB, Seed: uint64(len(st.Moves))}
	v, err := cfg.Lookup(st.Variant, "")
	if err != nil {
		return nil, opt, err
	}
	g, err := rules.NewGame(v, st.FEN4)
	if err != nil {
		return nil, opt, err
	}
	i := slices.IndexFunc(st.Seats, func(x referee.SeatState) bool { return x.Seat == seat.String() })
	if i < 0 || st.Seats[i].ClockMS < 0 {
		return g, opt, nil
	}
	ctl, _, err := clock.Parse(st.Tags["TimeControl"])
	if err != nil {
		ctl = clock.Control{} // the board's clocks run all the same: no increment known
	}
	left := time.Duration(st.Seats[i].ClockMS) * time.Millisecond
	var used time.Duration
	if turn.key == turnKey(st) && turn.left >= 0 {
		left = time.Duration(turn.left) * time.Millisecond
		if st.Seats[i].Running {
			used = max(cfg.Now().Sub(turn.at), 0)
			left -= max(used-ctl.Delay, 0)
		}
	}
	opt.MoveTime = 0
	opt.Clock = &engine.Clock{Left: max(left, 0), Increment: ctl.Increment, Delay: ctl.Delay, Used: used, Hand: cfg.HandTime}
	return g, opt, nil
}

// think runs one search on a thread of lower priority and answers.
func think(ctx context.Context, e *engine.Engine, g *rules.Game, opt engine.Options, j *job, seat rules.Seat, nice int, out chan<- answer) {
	defer close(j.done)
	lowerPriority(nice)
	e.SetOptions(opt)
	r, err := e.Think(ctx, g)
	select {
	case out <- answer{key: j.key, seat: seat, res: r, err: err}:
	case <-ctx.Done():
	}
}
