package archive

import (
	"context"
	"strings"
	"testing"

	"boardd/referee"
	"boardd/rules"
	"boardd/rules/blocking"
	"boardd/rules/chess4"
)

// crossFEN writes a FEN4 of the cross board, turn "R", "B", "Y" or "G",
// from "rK:h1 …" placements, no castling.
func crossFEN(turn, pieces string) string {
	v, err := rules.NewTeams("")
	if err != nil {
		panic(err)
	}
	p, err := rules.ParsePlacement(v, rules.Seat(strings.IndexByte("RBYG", turn[0])), pieces)
	if err != nil {
		panic(err)
	}
	return p.FEN4()
}

// Chess4 Method 2: Gold mates Black, White and then Silver re-mate;
// Black waits, and is out when Silver's turn begins, so Silver plays
// Black's army; Silver's rook i4-n4 later mates Gold too, Gold is out when
// Silver's next turn begins, and Silver must choose which army to keep
// (rules/variants TestChess4Method2).
var (
	c4FEN   = crossFEN("G", "yK:h14 yP:g13 yP:h13 yP:i13 gQ:e6 rQ:d13 bQ:f13 rK:h1 bK:a8 gK:n7 rB:k12 bN:f12 bR:i4 gP:m6 gP:m7 gP:m8 gR:n11")
	c4Moves = strings.Fields("e6-e14 d13-e14 f13-e14 n11-n10 h1-g1 a8-b8 h14-i14 n10-m10 k12-i14 i4-n4 g13-g12 g1-f1")
)

// The choice is journaled as a note entry ("Blue keeps Yellow's army")
// and restores the kept army; a note with no choice open is an error.
func TestJournalRestoresAKeptArmy(t *testing.T) {
	lookup := catalog(t)
	entries := []Entry{{Seq: 1, Kind: "start", Game: "g1", Variant: "chess4-m2", Start: c4FEN}}
	seats := []string{"Green", "Red", "Blue", "Green", "Red", "Blue", "Yellow", "Green", "Red", "Blue", "Yellow", "Red"}
	for i, mv := range c4Moves {
		entries = append(entries, Entry{Seq: uint64(len(entries) + 1), Kind: "move", Seat: seats[i], Move: mv})
	}
	g, err := Restore(entries, lookup)
	if err != nil {
		t.Fatal(err)
	}
	if chess4Of(g).Controller(rules.Green) != rules.Blue || chess4Of(g).Controller(rules.Yellow) != rules.NoSeat {
		t.Fatalf("without the note: Gold played by %v, Black by %v; want the default, Gold kept", chess4Of(g).Controller(rules.Green), chess4Of(g).Controller(rules.Yellow))
	}
	entries = append(entries, Entry{Seq: uint64(len(entries) + 1), Kind: "note", Note: "Blue keeps Yellow's army"})
	if g, err = Restore(entries, lookup); err != nil {
		t.Fatal(err)
	}
	if chess4Of(g).Controller(rules.Yellow) != rules.Blue || chess4Of(g).Controller(rules.Green) != rules.NoSeat || g.Turn() != rules.Blue {
		t.Errorf("with the note: Black played by %v, Gold by %v, turn %v; want Silver, nobody, Silver", chess4Of(g).Controller(rules.Yellow), chess4Of(g).Controller(rules.Green), g.Turn())
	}
	if got := strings.Join(noteTexts(g), "|"); got != "Blue keeps Yellow's army" {
		t.Errorf("notes %s", got)
	}
	early := []Entry{entries[0], {Seq: 2, Kind: "note", Note: "Blue keeps Yellow's army"}}
	if _, err := Restore(early, lookup); err == nil || !strings.Contains(err.Error(), "no choice of armies") {
		t.Errorf("a choice before any elimination restored: %v", err)
	}
}

// A choice made at the board survives the plug being pulled, and the filed
// PGN4 carries it.
func TestRecorderKeepsAnArmyChoiceAcrossACrash(t *testing.T) {
	lookup := catalog(t)
	v, err := lookup("chess4-m2", "")
	if err != nil {
		t.Fatal(err)
	}
	g, err := rules.NewGame(v, c4FEN)
	if err != nil {
		t.Fatal(err)
	}
	occ := g.Position().Occupancy()
	dir := t.TempDir()
	b := openBoardWith(t, dir, occ, lookup, "chess4-m2", c4FEN)
	for _, mv := range c4Moves {
		from, to, _ := strings.Cut(mv, "-")
		var m rules.Move
		for _, x := range g.LegalMoves() {
			if x.From().String() == from && x.To().String() == to {
				m = x
			}
		}
		if m == 0 {
			t.Fatalf("%s is not legal", mv)
		}
		b.turn(t, g, rules.Record{Action: rules.ActMove, Move: m, Text: mv})
	}
	c, err := referee.ParseCommand(referee.CmdKeepArmy, []byte(`{"seat":"Blue","army":"Yellow"}`))
	if err != nil {
		t.Fatal(err)
	}
	if r := b.live.Do(context.Background(), c); !r.OK {
		t.Fatalf("keep_army: %+v", r)
	}
	before := b.live.State()
	b.stop() // the plug

	b = openBoardWith(t, dir, g.Position().Occupancy(), lookup, "chess4-m2", c4FEN) // the switches as the pieces stand
	defer b.stop()
	st := b.live.State()
	if st.Game != before.Game || st.Status != "playing" || st.FEN4 != before.FEN4 || st.Turn != "Blue" || st.Pieces["m10"] != "xR" || st.Pieces["h13"] != "yP" {
		t.Fatalf("after the restart: game %s turn %s m10 %s h13 %s fen %s; want game %s, Silver to move, Gold static, Black live, %s",
			st.Game, st.Turn, st.Pieces["m10"], st.Pieces["h13"], st.FEN4, before.Game, before.FEN4)
	}
	// Play on: Silver, then Black's army (Silver's) moves.
	if err := chess4Of(g).KeepArmy(rules.Yellow); err != nil {
		t.Fatal(err)
	}
	for _, mv := range []string{"b8-a8", "h13-h12"} {
		from, to, _ := strings.Cut(mv, "-")
		var m rules.Move
		for _, x := range g.LegalMoves() {
			if x.From().String() == from && x.To().String() == to {
				m = x
			}
		}
		if m == 0 {
			t.Fatalf("%s is not legal in the shadow game", mv)
		}
		b.turn(t, g, rules.Record{Action: rules.ActMove, Move: m, Text: mv})
	}
	text, err := b.rec.GamePGN4(st.Game)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, "{Blue keeps Yellow's army}") {
		t.Errorf("the game's PGN4 lacks the choice:\n%s", text)
	}
}

// blockingOf returns blocking double's operations on g (rules.HookIn); it
// panics on a game of another variant.
func blockingOf(g *rules.Game) *blocking.BlockingDouble {
	d, ok := rules.HookIn[*blocking.BlockingDouble](g)
	if !ok {
		panic("not a blocking-double game: " + g.Variant().Name)
	}
	return d
}

// chess4Of returns Chess4's operations on g (rules.HookIn); it panics on
// a game of another variant.
func chess4Of(g *rules.Game) *chess4.Chess4Hook {
	c, ok := rules.HookIn[*chess4.Chess4Hook](g)
	if !ok {
		panic("not a chess4 game: " + g.Variant().Name)
	}
	return c
}
