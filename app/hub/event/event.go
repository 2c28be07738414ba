// Package event is the tournament logic of the club hub, without I/O:
// reading the players a director pastes (Entrants), pairing a round
// (Pair: four players a board, or two teams of two, seats balanced over
// the event's colours and opponents as varied as they can be), the
// standings from the results (Standings) and their CSV (WriteCSV).
//
// An event is FFA (every player for themselves, scored in the points the
// board counts) or Teams (two teams of two a board, Red and Yellow
// against Blue and Green). What pairing and standings place is a Unit:
// one player in FFA, a team of two in Teams.
package event

import (
	"errors"
	"fmt"
	"strings"

	"boardd/referee/gametags"
)

// Kinds of event.
const (
	FFA   = "ffa"
	Teams = "teams"
)

// Colours are the seats of a board, in turn order: a Table's Seats use
// these indexes.
var Colours = [4]string{"Red", "Blue", "Yellow", "Green"}

// Bounds of what a director enters.
const (
	// MaxUnits bounds the players (FFA) or teams (Teams) of an event: 50
	// boards' worth.
	MaxUnits = 200
	// MaxName is the longest player's name, in bytes (a team's name
	// joins two).
	MaxName = 60
	// MaxRounds bounds an event's rounds.
	MaxRounds = 30
)

// CheckKind checks an event's kind.
func CheckKind(kind string) error {
	if kind != FFA && kind != Teams {
		return fmt.Errorf("event kind %q: want %s (every player for themselves) or %s (teams of two)", kind, FFA, Teams)
	}
	return nil
}

// UnitSize is how many players a unit of the kind has: 1 in FFA, 2 in Teams.
func UnitSize(kind string) int {
	if kind == Teams {
		return 2
	}
	return 1
}

// CheckName checks a player's name: printable, 1 to MaxName bytes, the
// characters a board takes in a tag (it becomes the Red, Blue, Yellow or
// Green tag of a game).
func CheckName(name string) error {
	if strings.TrimSpace(name) == "" {
		return errors.New("a player's name is empty")
	}
	if len(name) > MaxName {
		return fmt.Errorf("player %q: a name has at most %d characters", name[:MaxName]+"…", MaxName)
	}
	if err := gametags.Check("Red", name); err != nil {
		return fmt.Errorf("player %q: %w", name, err)
	}
	return nil
}

// Entrants reads pasted players, one a line: a name per line in FFA; in
// Teams a team per line, its two players separated by " & ", " / ", "+",
// a comma or a tab ("Ann & Cy"). Blank lines and lines starting with #
// are skipped; surrounding spaces are trimmed. A name twice (in the text
// or, across teams, twice in one event) is an error naming it, as is a
// line that is not one player (FFA) or two (Teams).
func Entrants(kind, text string) ([][]string, error) {
	if err := CheckKind(kind); err != nil {
		return nil, err
	}
	var out [][]string
	seen := map[string]int{}
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(strings.TrimSuffix(line, "\r"))
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		names := []string{line}
		if kind == Teams {
			names = splitTeam(line)
			if len(names) != 2 {
				return nil, fmt.Errorf("line %d %q: a team is two players, like \"Ann & Cy\" (separated by &, /, +, a comma or a tab)", i+1, line)
			}
		}
		for _, n := range names {
			if err := CheckName(n); err != nil {
				return nil, fmt.Errorf("line %d: %w", i+1, err)
			}
			key := strings.ToLower(n)
			if j, dup := seen[key]; dup {
				return nil, fmt.Errorf("line %d: %s is already on line %d: every player once", i+1, n, j)
			}
			seen[key] = i + 1
		}
		out = append(out, names)
		if len(out) > MaxUnits {
			return nil, fmt.Errorf("more than %d entries: an event has at most %d", MaxUnits, MaxUnits)
		}
	}
	return out, nil
}

func splitTeam(line string) []string {
	for _, sep := range []string{"\t", " & ", "&", " / ", "/", "+", ","} {
		if a, b, ok := strings.Cut(line, sep); ok {
			a, b = strings.TrimSpace(a), strings.TrimSpace(b)
			if strings.Contains(b, sep) {
				return nil
			}
			return []string{a, b}
		}
	}
	return []string{line}
}

// TeamName is a team's name: its players joined by " & ".
func TeamName(members []string) string { return strings.Join(members, " & ") }
