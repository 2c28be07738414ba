// Package gametags is the one validation of a game's tags (PGN4 headers:
// player names, event, round, and the tags that drive the game), used
// wherever tags come in: the board's commands (referee.ParseCommand,
// new_game, tags), the config's game.tags (configs), and a game resumed
// from its journal (Repair, which mends what an older version let in
// instead of failing the start). It imports nothing of boardd's but the
// rules' seats and the clock's time controls, so configs can use it.
package gametags

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"boardd/internal/printable"
	"boardd/referee/clock"
	"boardd/rules"
)

// Limits of a game's tags. Every journal entry and stream message that
// carries tags stays far below what the MQTT mirror can deliver
// (referee.MaxMessageBytes).
const (
	// Max is how many tags a game may have.
	Max = 32
	// MaxName is the longest tag name, in bytes.
	MaxName = 40
	// MaxValue is the longest tag value (a player's name, the event),
	// in bytes.
	MaxValue = 200
	// MaxBotLevel is the highest level a Bots tag may give a seat
	// (engine.MaxLevel; sync/botseat's tests check that they agree).
	MaxBotLevel = 5
)

// Tags that drive the game.
const (
	// TimeControl is the game's time control as clock.Parse reads it
	// ("10+5", "1+15D", "-"): fixed when the game starts.
	TimeControl = "TimeControl"
	// Bots lists the bot seats and their levels ("Green:3,Blue:5"):
	// fixed when the game starts.
	Bots = "Bots"
	// Remote lists the remote seats ("Blue,Green"); the remote command
	// changes it.
	Remote = "Remote"
)

// BoardWritten are the tags the board writes itself into the archived PGN4
// (from the game, the board's config and the clock): no command or
// config sets them.
var BoardWritten = []string{"Board", "CurrentMove", "Date", "GameId", "PlyCount", "Result", "RuleVariants", "StartFen4", "Termination", "Variant"}

// startTags are set when a game starts (new_game, the config) and cannot
// change during it.
var startTags = []string{TimeControl, Bots}

// Check checks one tag as it is stored: a name of 1 to MaxName
// printable bytes without spaces, quotes or brackets (PGN4 writes it
// [Name "value"]), and a value of at most MaxValue bytes of printable
// text (internal/printable: no control characters, line breaks, bidi
// overrides or other invisible characters). A player's name is a tag
// (Red, Blue, Yellow, Green) and is checked here like every other.
func Check(name, value string) error {
	if err := printable.Check(name); err != nil {
		return fmt.Errorf("a tag name %w", err)
	}
	if name == "" || len(name) > MaxName || strings.ContainsAny(name, " \"[]") {
		return fmt.Errorf("tag name %q must be 1-%d characters without spaces, quotes or brackets", clip(name), MaxName)
	}
	if err := printable.Check(value); err != nil {
		return fmt.Errorf("tag %s %w", name, err)
	}
	if len(value) > MaxValue {
		return fmt.Errorf("tag %s must be one line of at most %d characters (it has %d bytes)", name, MaxValue, len(value))
	}
	return nil
}

// CheckStart checks the tags a game starts with (new_game's tags, the
// config's game.tags): each one by CheckTag, at most Max, none of
// the BoardWritten, and the tags that drive the game by the same functions
// the game reads them with: TimeControl by clock.Parse, Bots and Remote
// as lists of seats. An empty value means no such tag.
func CheckStart(tags map[string]string) error {
	n := 0
	for _, k := range slices.Sorted(maps.Keys(tags)) {
		if err := Check(k, tags[k]); err != nil {
			return err
		}
		if tags[k] == "" {
			continue
		}
		n++
		if err := checkGameTag(k, tags[k]); err != nil {
			return err
		}
	}
	if n > Max {
		return fmt.Errorf("%d tags: a game has at most %d", n, Max)
	}
	return nil
}

// checkGameTag checks what a tag's value means (CheckTag checked its
// shape).
func checkGameTag(k, v string) error {
	switch {
	case slices.Contains(BoardWritten, k):
		return fmt.Errorf("tag %s is written by the board itself (%s): leave it out", k, strings.Join(BoardWritten, ", "))
	case k == TimeControl:
		if _, _, err := clock.Parse(v); err != nil {
			return fmt.Errorf("tag %s: %w", k, err)
		}
	case k == Bots:
		if _, err := ParseBots(v); err != nil {
			return err
		}
	case k == Remote:
		for _, name := range strings.Split(v, ",") {
			if _, err := seatNamed(strings.TrimSpace(name)); err != nil && strings.TrimSpace(name) != "" {
				return fmt.Errorf("tag %s %q: %v", k, v, err)
			}
		}
	}
	return nil
}

// ParseBots reads a Bots tag ("Green:3,Blue": a seat without a level
// plays level 3): the bot seats and their levels, 1 to MaxBotLevel.
func ParseBots(tag string) (map[rules.Seat]int, error) {
	bots := map[rules.Seat]int{}
	for _, part := range strings.Split(tag, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		name, lvl, has := strings.Cut(part, ":")
		s, err := seatNamed(strings.TrimSpace(name))
		if err != nil {
			return nil, fmt.Errorf("%s tag %q: %v", Bots, tag, err)
		}
		n := 3
		if has {
			n, err = strconv.Atoi(strings.TrimSpace(lvl))
			if err != nil || n < 1 || n > MaxBotLevel {
				return nil, fmt.Errorf("%s tag %q: %s's level must be 1 to %d", Bots, tag, s, MaxBotLevel)
			}
		}
		bots[s] = n
	}
	return bots, nil
}

// CheckChange checks a tags command's changes against the game's
// tags now (cur): the tags that are fixed when the game starts
// (TimeControl, Bots) and the BoardWritten cannot be changed, a Remote tag
// must list seats, and the game keeps at most Max. A change to the
// value a tag already has is no change.
func CheckChange(cur, change map[string]string) error {
	n := len(cur)
	for _, k := range slices.Sorted(maps.Keys(change)) {
		v := change[k]
		if err := Check(k, v); err != nil {
			return err
		}
		old, had := cur[k]
		if v == old {
			continue
		}
		if slices.Contains(startTags, k) {
			return fmt.Errorf("tag %s is fixed when the game starts: give it with new_game (the New game dialog), not during the game", k)
		}
		if v == "" {
			n--
			continue
		}
		if err := checkGameTag(k, v); err != nil {
			return err
		}
		if !had {
			n++
		}
	}
	if n > Max {
		return fmt.Errorf("the game would have %d tags: it may have at most %d (remove some with an empty value)", n, Max)
	}
	return nil
}

// keepFirst are the tags Repair keeps first when a game has more than
// Max.
var keepFirst = []string{"Red", "Blue", "Yellow", "Green", TimeControl, Bots, Remote, "Event", "Site", "Round"}

// Repair mends the tags of a game read back from its journal, which
// an older version may have let in: a tag CheckStart refuses is left out
// (a BoardTag, a TimeControl clock.Parse refuses, a bad Bots or Remote
// list, a name or value out of bounds), and past Max only the
// players, the tags that drive the game, Event, Site, Round and then the
// first others by name are kept. dropped says what was left out, for a
// warning ("" if nothing).
func Repair(tags map[string]string) (kept map[string]string, dropped string) {
	kept = map[string]string{}
	var bad []string
	names := slices.Sorted(maps.Keys(tags))
	slices.SortStableFunc(names, func(a, b string) int {
		ia, ib := slices.Index(keepFirst, a), slices.Index(keepFirst, b)
		switch {
		case ia >= 0 && ib >= 0:
			return ia - ib
		case ia >= 0:
			return -1
		case ib >= 0:
			return 1
		}
		return 0
	})
	over := 0
	for _, k := range names {
		v := tags[k]
		if v == "" {
			continue
		}
		err := Check(k, v)
		if err == nil {
			err = checkGameTag(k, v)
		}
		switch {
		case err != nil:
			bad = append(bad, err.Error())
		case len(kept) == Max:
			over++
		default:
			kept[k] = v
		}
	}
	if len(bad) > 3 {
		bad = append(bad[:3], fmt.Sprintf("%d more", len(bad)-3))
	}
	if over > 0 {
		bad = append(bad, fmt.Sprintf("%d tags past the limit of %d", over, Max))
	}
	if len(bad) > 0 {
		dropped = "left out " + strings.Join(bad, "; ")
	}
	return kept, dropped
}

func seatNamed(s string) (rules.Seat, error) {
	for x := rules.Seat(0); x < rules.NumSeats; x++ {
		if strings.EqualFold(x.String(), s) {
			return x, nil
		}
	}
	return 0, fmt.Errorf("%q is not a seat (Red, Blue, Yellow, Green)", s)
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
