package configs

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Bot is how the board's bots (package engine, sync/botseat) think.
type Bot struct {
	// MoveTime is a bot's time per move in a game without clocks; with
	// clocks it plans its time on the seat's clock (engine.Clock).
	MoveTime time.Duration `yaml:"movetime"`
	// HandTime is how long a person takes to make a bot's lit move on
	// the board; in a game with clocks the seat's clock runs meanwhile
	// and the bot keeps that time for each of its moves.
	HandTime time.Duration `yaml:"hand_time"`
	// Nice lowers the thinking thread's priority (0 to 19) so the scanner
	// and the referee come first. A bot searches on one thread: it uses
	// at most one core.
	Nice int `yaml:"nice"`
	// HashMB is each bot's transposition table in megabytes.
	HashMB int `yaml:"hash_mb"`
	// Resign lets bots of level 3 or more resign a hopeless Teams game.
	Resign bool `yaml:"resign"`
}

func botDefaults() Bot {
	return Bot{MoveTime: 2 * time.Second, HandTime: time.Second, Nice: 10, HashMB: 16}
}

// SeatNames are the seats as game.seats names them.
var SeatNames = []string{"Red", "Blue", "Yellow", "Green"}

// BotLevels reads game.seats: the seats that are bots, by seat name, with
// their levels (1-5; "bot" alone is 3). "human" (or "") is a seat played
// at the board.
func (g Game) BotLevels() (map[string]int, error) {
	out := map[string]int{}
	for seat, v := range g.Seats {
		name := ""
		for _, s := range SeatNames {
			if strings.EqualFold(seat, s) {
				name = s
			}
		}
		if name == "" {
			return nil, fmt.Errorf("%q is not a seat: want Red, Blue, Yellow or Green", seat)
		}
		v = strings.TrimSpace(v)
		switch {
		case v == "" || v == "human":
			continue
		case v == "bot":
			out[name] = 3
		case strings.HasPrefix(v, "bot:"):
			n, err := strconv.Atoi(strings.TrimPrefix(v, "bot:"))
			if err != nil || n < 1 || n > 5 {
				return nil, fmt.Errorf("%s: %q: the level must be 1 to 5 (bot:3)", name, v)
			}
			out[name] = n
		default:
			return nil, fmt.Errorf("%s: %q: want bot:LEVEL (1-5) or human", name, v)
		}
	}
	return out, nil
}

// checkBot checks game.seats and the bot section; bad records each
// problem (Daemon.Check says them all).
func checkBot(d *Daemon, bad func(key, format string, a ...any) error) {
	if _, err := d.Game.BotLevels(); err != nil {
		bad("game.seats", "%v", err)
	}
	if d.Bot.MoveTime < 10*time.Millisecond || d.Bot.MoveTime > time.Hour {
		bad("bot.movetime", "%s: want 10ms to 1h (2s is usual)", d.Bot.MoveTime)
	}
	if d.Bot.HandTime < 0 || d.Bot.HandTime > time.Minute {
		bad("bot.hand_time", "%s: want 0 to 1m, how long a person takes to make a bot's lit move (1s is usual)", d.Bot.HandTime)
	}
	if d.Bot.Nice < 0 || d.Bot.Nice > 19 {
		bad("bot.nice", "%d: want 0 (no change) to 19", d.Bot.Nice)
	}
	if d.Bot.HashMB < 1 || d.Bot.HashMB > 4096 {
		bad("bot.hash_mb", "%d: want 1 to 4096 megabytes (16 is plenty on a Pi)", d.Bot.HashMB)
	}
}
