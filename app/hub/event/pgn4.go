package event

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"boardd/app/catalog"
	"boardd/referee"
	"boardd/sync/archive"
)

// GamePGN4 writes a game as PGN4 from its messages as the board
// published them (the hub stores each once, in order), the way the
// board's own archive writes it (archive.GamePGN4): the board's tags,
// the moves with their clocks, the termination and the result. A game
// whose start the hub never got cannot be written (its variant and
// start position are unknown).
func GamePGN4(board, game string, bodies [][]byte) (string, error) {
	var entries []archive.Entry
	for _, b := range bodies {
		var m referee.Message
		if err := json.Unmarshal(b, &m); err != nil {
			return "", fmt.Errorf("game %s of %s: a stored message: %w", game, board, err)
		}
		if m.Kind == referee.MsgGameStart {
			entries = append(entries[:0], archive.Entry{Kind: "start", Msg: m.Seq, Game: m.Game, Variant: m.Variant, Start: m.Start, Tags: m.Tags, Clocks: m.Clocks})
			continue
		}
		if len(entries) == 0 {
			continue
		}
		es, err := archive.JournalEntries(m)
		if err != nil {
			continue // a note kind without its note: nothing to replay
		}
		entries = append(entries, es...)
	}
	if len(entries) == 0 {
		return "", errors.New("game " + game + " of " + board + ": the hub has not its start")
	}
	pg, err := archive.GamePGN4(entries, catalog.Variant, "", board, game)
	if err != nil {
		return "", fmt.Errorf("game %s of %s: %w", game, board, err)
	}
	return pg.String(), nil
}

// ResultTag is a result as a PGN4 Result tag: in Teams "1-0" (Red and
// Yellow won), "0-1" (Blue and Green) or "1/2-1/2"; in FFA the points
// with the players' names as chess.com writes them ("Ann: 40 - Bob: 10
// - …").
func ResultTag(kind string, r Result, names [4]string) string {
	if kind == Teams {
		switch sideWon(&r) {
		case 0:
			return "1-0"
		case 1:
			return "0-1"
		}
		return "1/2-1/2"
	}
	p := seatPoints(&r)
	parts := make([]string, 4)
	for c := range p {
		n := names[c]
		if n == "" {
			n = Colours[c]
		}
		parts[c] = fmt.Sprintf("%s: %d", n, p[c])
	}
	return strings.Join(parts, " - ")
}

// SetResult rewrites a PGN4 game's Result tag (a director's correction)
// and adds a ResultCorrected tag with the note; text is one game as
// GamePGN4 wrote it.
func SetResult(text, result, note string) string {
	var b strings.Builder
	done := false
	for _, line := range strings.SplitAfter(text, "\n") {
		if !done && strings.HasPrefix(line, "[Result ") {
			fmt.Fprintf(&b, "[Result %q]\n[ResultCorrected %q]\n", result, strings.ReplaceAll(note, `"`, "'"))
			done = true
			continue
		}
		b.WriteString(line)
	}
	return b.String()
}
