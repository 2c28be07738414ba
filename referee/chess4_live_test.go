package referee

// Chess4 Method 2 on the live board: the keep_army command, the permanent
// choice of "A player only retains control of one set of opponent's
// pieces. If a player eliminates a second player … that player must
// immediately make a permanent decision as to which eliminated opponent's
// pieces he will control."

import (
	"strings"
	"testing"

	"boardd/rules"
)

// c4SecondArmyPieces: Gold mates Black (queen e6-e14), White's and then
// Silver's queen re-mate by capture; Black waits, and is out when Silver's
// turn begins ("A player is only eliminated by checkmate if he is
// checkmated at the beginning of the checkmating player's next turn"), so
// Silver plays Black's army; later Silver's rook i4-n4 mates Gold too
// (rules/variants TestChess4Method2).
const c4SecondArmyPieces = "yK:h14 yP:g13 yP:h13 yP:i13 gQ:e6 rQ:d13 bQ:f13 rK:h1 bK:a8 gK:n7 rB:k12 bN:f12 bR:i4 gP:m6 gP:m7 gP:m8 gR:n11"

// c4SecondArmyHands are those moves made by hand, Gold first.
var c4SecondArmyHands = []string{
	"-e6 +e14",       // Gold mates Black
	"-e14 -d13 +e14", // White's queen takes, re-mates
	"-e14 -f13 +e14", // Silver's queen takes, re-mates; Black, mated at his turn, waits
	"-n11 +n10",      // Gold
	"-h1 +g1",        // White; Silver's turn begins: Black is out, Silver plays it
	"-a8 +b8",        // Silver
	"-h14 +i14",      // Black's king (Silver)
	"-n10 +m10",      // Gold
	"-i14 -k12 +i14", // White's bishop takes the acquired king
	"-i4 +n4",        // Silver's rook mates Gold
	"-g13 +g12",      // Black's pawn (Silver); Gold waits
	"-g1 +f1",        // White; Silver's turn begins: Gold is out, Silver plays it
}

func startChess4M2(t *testing.T) *liveBoard {
	t.Helper()
	lookup := blockingLookup(t)
	v, err := lookup("chess4-m2", "")
	if err != nil {
		t.Fatal(err)
	}
	fen := crossFEN(t, "G", c4SecondArmyPieces)
	g, err := rules.NewGame(v, fen)
	if err != nil {
		t.Fatal(err)
	}
	return startLive(t, LiveConfig{Lookup: lookup, Variant: "chess4-m2", Start: fen, Occupancy: g.Position().Occupancy()})
}

func TestLiveKeepArmy(t *testing.T) {
	b := startChess4M2(t)
	b.refused(CmdKeepArmy, `{"seat":"Blue","army":"Yellow"}`, "no choice of armies is open")
	var m Message
	for _, h := range c4SecondArmyHands {
		b.hand(h)
		m = b.expect(MsgMove)
	}
	if strings.Join(m.Out, ",") != "Green" || !strings.Contains(m.Text, "keep_army may choose Yellow's") {
		t.Fatalf("the move that eliminates Gold: %+v; want Gold out and the choice announced", m)
	}
	st := b.State()
	if st.Turn != "Blue" || st.Pieces["m10"] != "gR" || st.Pieces["h13"] != "xP" {
		t.Fatalf("by default Silver keeps Gold's army: turn %s, m10 %s, h13 %s", st.Turn, st.Pieces["m10"], st.Pieces["h13"])
	}

	b.refused(CmdKeepArmy, `{"seat":"Red","army":"Yellow"}`, "the choice is Blue's, not Red's")
	b.refused(CmdKeepArmy, `{"seat":"Blue","army":"Red"}`, "not Red's")
	b.refused(CmdKeepArmy, `{"seat":"Blue","army":"Purple"}`, "keep_army: army:")
	b.ok(CmdKeepArmy, `{"seat":"Blue","army":"Yellow"}`)
	m = b.expect(MsgArmyKept)
	if m.Seat != "Blue" || m.Army != "Yellow" || m.Note != "Blue keeps Yellow's army" || !strings.Contains(m.Text, "Green's is static") {
		t.Fatalf("army_kept message %+v", m)
	}
	st = b.State()
	if st.Turn != "Blue" || st.Pieces["m10"] != "xR" || st.Pieces["h13"] != "yP" {
		t.Fatalf("after keeping Black: turn %s, m10 %s, h13 %s; want Silver to move, Gold static, Black live", st.Turn, st.Pieces["m10"], st.Pieces["h13"])
	}
	if notes := b.ref.Game().Notes(); len(notes) != 1 || notes[0].Text != m.Note {
		t.Errorf("the game's notes %v, want the choice", notes)
	}

	// The next move makes it permanent.
	b.hand("-b8 +a8") // Silver
	b.expect(MsgMove)
	b.refused(CmdKeepArmy, `{"seat":"Blue","army":"Green"}`, "no choice of armies is open")
	// Gold's static rook does not move; Black's army (Silver's) does, on
	// Black's turn, after Silver's own.
	b.hand("-h13 +h12")
	if m := b.expect(MsgMove); m.Seat != "Yellow" || m.Coord != "h13-h12" {
		t.Errorf("Black's pawn move: %+v", m)
	}
}

func TestLiveKeepArmyOnlyInChess4M2(t *testing.T) {
	b := startLive(t, LiveConfig{})
	b.refused(CmdKeepArmy, `{"seat":"Red","army":"Blue"}`, "teams has no armies to keep")
	if _, err := ParseCommand(CmdKeepArmy, []byte(`{"seat":"Red"}`)); err == nil || !strings.Contains(err.Error(), `needs "army"`) {
		t.Errorf("keep_army without an army: %v", err)
	}
}
