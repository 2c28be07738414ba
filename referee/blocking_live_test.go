package referee

// Blocking double chess on the live board: the announce / reply /
// claim_stalemate commands, the moves they make legal made by hand, and
// the LED frame while an announcement waits. Seats: the essay's White
// sits on boardd's Red seat, Red on Green, Black on Yellow, Yellow on
// Blue; Green and Blue may move into check, their partners Yellow and
// Red reply.

import (
	"slices"
	"strings"
	"testing"

	"boardd/configs"
	"boardd/rules"
	"boardd/rules/variants"
)

// Positions of rules/variants/blocking_test.go, Green (the essay's Red)
// to move.
const (
	// Green's king n7; Blue's rook e6 sweeps rank 6, so Kn7-n6 moves into
	// check; Yellow (Green's partner, moving next) can interpose Rk10-k6.
	bdPrivilege = "rK:h1 rR:d3 gK:n7 gP:m7 gP:m8 yK:h14 yR:k10 bK:a7 bR:e6"
	// Blue's knight k3 covers m4: after Kn5-m4 no Yellow move relieves
	// the check.
	bdKnight = "rK:h1 rR:d3 gK:n5 yK:h14 yR:k10 bK:a7 bN:k3 bR:e9"
	// Green's lone king n4 is stalemated: n5 and m5 covered by the rook
	// e5, m4 by the rook m10. It may announce Kn4-n5 or claim the draw.
	bdStalemate = "rK:h1 rR:d3 gK:n4 yK:h14 yR:k12 bK:a7 bR:m10 bR:e5"
)

// crossFEN writes a FEN4 of the cross board with the given seat to move
// ("R", "B", "Y", "G") and pieces ("gK:n7 …"), no castling.
func crossFEN(t *testing.T, turn, pieces string) string {
	t.Helper()
	v, err := rules.NewTeams("")
	if err != nil {
		t.Fatal(err)
	}
	p, err := rules.ParsePlacement(v, rules.Seat(strings.IndexByte("RBYG", turn[0])), pieces)
	if err != nil {
		t.Fatal(err)
	}
	return p.FEN4()
}

func blockingLookup(t *testing.T) func(name, start string) (*rules.Variant, error) {
	t.Helper()
	cat, err := variants.Catalog(configs.Variants)
	if err != nil {
		t.Fatal(err)
	}
	return func(name, start string) (*rules.Variant, error) {
		d, err := variants.Find(cat, name)
		if err != nil {
			return nil, err
		}
		return d.Variant(start)
	}
}

// startBlocking runs a blocking-double Live from the position, set up on
// the board, Green to move.
func startBlocking(t *testing.T, pieces string) *liveBoard {
	t.Helper()
	lookup := blockingLookup(t)
	v, err := lookup("blocking-double", "")
	if err != nil {
		t.Fatal(err)
	}
	fen := crossFEN(t, "G", pieces)
	g, err := rules.NewGame(v, fen)
	if err != nil {
		t.Fatal(err)
	}
	return startLive(t, LiveConfig{Lookup: lookup, Variant: "blocking-double", Start: fen, Occupancy: g.Position().Occupancy()})
}

// expect waits for the next message and checks its kind.
func (b *liveBoard) expect(kind string) Message {
	b.t.Helper()
	m := b.next()
	if m.Kind != kind {
		b.t.Fatalf("want a %s message, got %+v", kind, m)
	}
	return m
}

func (b *liveBoard) ok(name, payload string) {
	b.t.Helper()
	if r := b.do(name, payload); !r.OK {
		b.t.Fatalf("%s %s: %+v", name, payload, r)
	}
}

func (b *liveBoard) refused(name, payload, want string) {
	b.t.Helper()
	if r := b.do(name, payload); r.OK || !strings.Contains(r.Error, want) {
		b.t.Fatalf("%s %s: %+v, want an error with %q", name, payload, r, want)
	}
}

func sorted(s []string) string {
	s = slices.Clone(s)
	slices.Sort(s)
	return strings.Join(s, ",")
}

const (
	checkLED = "#ff0000" // DefaultPalette.Check
	greenLED = "#00c800" // DefaultPalette.Turn[Green]
)

// "I Accept": the announced move, lit until it is made, is recorded when
// a human makes it; the partner's relieving move likewise, and nothing
// else.
func TestLiveAnnounceAccepted(t *testing.T) {
	b := startBlocking(t, bdPrivilege)
	// Unannounced, the move into check is a position to correct.
	b.hand("-n7 +n6")
	b.expect(MsgIllegal)
	b.hand("-n6 +n7")
	b.expect(MsgCorrected)

	b.refused(CmdAnnounce, `{"seat":"Yellow","move":"k10-k6"}`, "it is Green's turn, not Yellow's")
	b.refused(CmdAnnounce, `{"seat":"Green","move":"n7-n8"}`, "does not move into check: just play it")
	b.refused(CmdAnnounce, `{"seat":"Green","move":"n7-n5"}`, "announce n7-n5:")
	b.ok(CmdAnnounce, `{"seat":"Green","move":"n7-n6"}`)
	m := b.expect(MsgAnnounce)
	if m.Seat != "Green" || m.Coord != "n7-n6" || m.Note != "Green announces n7-n6" || !strings.Contains(m.Text, "Yellow replies") {
		t.Fatalf("announce message %+v", m)
	}
	st := b.State()
	if a := st.Announcement; a == nil || *a != (AnnouncementInfo{Seat: "Green", Move: m.Move, Coord: "n7-n6", ReplyBy: "Yellow"}) {
		t.Fatalf("announcement in the state: %+v", st.Announcement)
	}
	b.refused(CmdAnnounce, `{"seat":"Green","move":"n7-m6"}`, "already announced n7-n6: waiting for Yellow's reply")
	b.refused(CmdReply, `{"seat":"Blue","reply":"accept"}`, "Green announced n7-n6: Yellow replies, not Blue")
	b.refused(CmdReply, `{"seat":"Yellow","reply":"maybe"}`, "want unwise, accept, another or impossible")
	b.refused(CmdReply, `{"seat":"Yellow","reply":"impossible"}`, "not impossible: after n7-n6, Yellow can relieve the check")
	b.refused(CmdClaimStalemate, `{"seat":"Green"}`, "Green announced n7-n6: wait for the reply")
	// Nothing may be played before the reply.
	b.hand("-n7 +n6")
	b.expect(MsgIllegal)
	b.hand("-n6 +n7")
	b.expect(MsgCorrected)

	b.ok(CmdReply, `{"seat":"Yellow","reply":"accept"}`)
	m = b.expect(MsgReply)
	if m.Seat != "Yellow" || m.Reply != "accept" || m.Coord != "n7-n6" || m.Note != "Yellow replies I Accept" || !strings.Contains(m.Text, "Green must play") {
		t.Fatalf("reply message %+v", m)
	}
	if a := b.State().Announcement; a == nil || !a.Accepted || a.ReplyBy != "" {
		t.Fatalf("accepted announcement in the state: %+v", a)
	}
	b.refused(CmdReply, `{"seat":"Yellow","reply":"another"}`, "already accepted")
	// Another move than the accepted one is refused.
	b.hand("-n7 +n8")
	b.expect(MsgIllegal)
	b.hand("-n8 +n7")
	b.expect(MsgCorrected)
	b.hand("-n7 +n6")
	m = b.expect(MsgMove)
	if m.Seat != "Green" || m.Coord != "n7-n6" || strings.Join(m.Checks, ",") != "Green" {
		t.Fatalf("the accepted move: %+v", m)
	}
	st = b.State()
	if st.Announcement != nil || st.Relieve != "Green" || st.Turn != "Yellow" {
		t.Fatalf("after the accepted move: announcement %+v, relieve %q, turn %s", st.Announcement, st.Relieve, st.Turn)
	}
	if lt := b.Lights(); lt.Squares["n6"] != checkLED {
		t.Errorf("the king to relieve on n6 is lit %q, want the check colour", lt.Squares["n6"])
	}
	// Yellow must relieve: another legal move is refused.
	b.hand("-h14 +h13")
	b.expect(MsgIllegal)
	b.hand("-h13 +h14")
	b.expect(MsgCorrected)
	b.hand("-k10 +k6")
	if m := b.expect(MsgMove); m.Seat != "Yellow" || m.Coord != "k10-k6" {
		t.Fatalf("the relief: %+v", m)
	}
	if st := b.State(); st.Relieve != "" || len(st.Checks) != 0 || st.Turn != "Blue" || len(st.Moves) != 2 {
		t.Errorf("after the relief: relieve %q checks %v turn %s moves %v", st.Relieve, st.Checks, st.Turn, st.Moves)
	}
}

// The accepted move and the partner's relief made in one go, before the
// board was quiet, are read as the pair they are (the look-ahead that
// reads quick replies must not lose the announcement).
func TestLiveAnnouncedMoveAndReliefInOneGo(t *testing.T) {
	b := startBlocking(t, bdPrivilege)
	b.ok(CmdAnnounce, `{"seat":"Green","move":"Kn7-n6"}`)
	b.expect(MsgAnnounce)
	b.ok(CmdReply, `{"seat":"Yellow","reply":"I Accept"}`)
	b.expect(MsgReply)
	b.hand("-n7 +n6 -k10 +k6")
	if m := b.expect(MsgMove); m.Coord != "n7-n6" {
		t.Fatalf("first move %+v", m)
	}
	if m := b.expect(MsgMove); m.Coord != "k10-k6" {
		t.Fatalf("second move %+v", m)
	}
	if st := b.State(); st.Status != "playing" || st.Turn != "Blue" {
		t.Errorf("status %s turn %s", st.Status, st.Turn)
	}
}

// Unwise, Another and Impossible: what the announcer may do next.
func TestLiveRepliesThatRefuse(t *testing.T) {
	tests := []struct {
		name, pieces, announce, reply string
		note                          string
		// then: a command that must be refused (err) or accepted (err "").
		thenCmd, thenPayload, thenErr string
		// hand: a legal move made afterwards and recorded.
		hand, coord string
	}{
		{name: "unwise", pieces: bdPrivilege, announce: "n7-n6", reply: "unwise", note: "Yellow replies Unwise",
			thenCmd: CmdAnnounce, thenPayload: `{"seat":"Green","move":"n7-m6"}`, thenErr: "answered Unwise",
			hand: "-n7 +n8", coord: "n7-n8"},
		{name: "another: the same move again", pieces: bdPrivilege, announce: "n7-n6", reply: "another", note: "Yellow replies Another",
			thenCmd: CmdAnnounce, thenPayload: `{"seat":"Green","move":"n7-n6"}`, thenErr: "was refused already",
			hand: "-n7 +n8", coord: "n7-n8"},
		{name: "another: a different move", pieces: bdPrivilege, announce: "n7-n6", reply: "another", note: "Yellow replies Another",
			thenCmd: CmdAnnounce, thenPayload: `{"seat":"Green","move":"n7-m6"}`},
		{name: "impossible, and true", pieces: bdKnight, announce: "n5-m4", reply: "impossible", note: "Yellow replies Impossible",
			thenCmd: CmdAnnounce, thenPayload: `{"seat":"Green","move":"n5-m4"}`, thenErr: "was refused already",
			hand: "-n5 +n6", coord: "n5-n6"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := startBlocking(t, tc.pieces)
			b.ok(CmdAnnounce, `{"seat":"Green","move":"`+tc.announce+`"}`)
			b.expect(MsgAnnounce)
			b.ok(CmdReply, `{"seat":"Yellow","reply":"`+tc.reply+`"}`)
			m := b.expect(MsgReply)
			if m.Reply != tc.reply || m.Note != tc.note || m.Coord != tc.announce {
				t.Fatalf("reply message %+v", m)
			}
			if st := b.State(); st.Announcement != nil || st.Turn != "Green" {
				t.Fatalf("after %s: announcement %+v, turn %s", tc.reply, st.Announcement, st.Turn)
			}
			if lt := b.Lights(); lt.Squares[tc.announce[strings.Index(tc.announce, "-")+1:]] != "" {
				t.Errorf("the refused move's destination is still lit: %v", lt.Squares)
			}
			if tc.thenErr != "" {
				b.refused(tc.thenCmd, tc.thenPayload, tc.thenErr)
			} else {
				b.ok(tc.thenCmd, tc.thenPayload)
				b.expect(MsgAnnounce)
				return
			}
			b.hand(tc.hand)
			if m := b.expect(MsgMove); m.Seat != "Green" || m.Coord != tc.coord {
				t.Fatalf("the legal move after %s: %+v", tc.reply, m)
			}
		})
	}
}

// The LED frame: while the reply is awaited and after "I Accept", the
// announced move in the announcer's colour and its king in the check
// colour; gone after a refusal.
func TestLiveAnnouncementLights(t *testing.T) {
	b := startBlocking(t, bdKnight)
	// A king move: the king's square (from) in the check colour, its
	// destination in Green's colour.
	b.ok(CmdAnnounce, `{"seat":"Green","move":"n5-m4"}`)
	b.expect(MsgAnnounce)
	lt := b.Lights()
	if lt.Squares["n5"] != checkLED || lt.Squares["m4"] != greenLED {
		t.Errorf("waiting for the reply: n5 %q m4 %q, want %s %s", lt.Squares["n5"], lt.Squares["m4"], checkLED, greenLED)
	}
	b.ok(CmdReply, `{"seat":"Yellow","reply":"accept"}`)
	b.expect(MsgReply)
	lt = b.Lights()
	if lt.Squares["n5"] != checkLED || lt.Squares["m4"] != greenLED {
		t.Errorf("accepted: n5 %q m4 %q", lt.Squares["n5"], lt.Squares["m4"])
	}

	// A pinned piece: from and to in Green's colour, the king apart.
	const pinned = "rK:h1 rR:d3 gK:n7 gN:m7 yK:h14 yR:k10 bK:a7 bR:e7"
	b = startBlocking(t, pinned)
	b.ok(CmdAnnounce, `{"seat":"Green","move":"m7-l9"}`)
	b.expect(MsgAnnounce)
	lt = b.Lights()
	if lt.Squares["m7"] != greenLED || lt.Squares["l9"] != greenLED || lt.Squares["n7"] != checkLED {
		t.Errorf("a pinned knight announced: m7 %q l9 %q n7 %q", lt.Squares["m7"], lt.Squares["l9"], lt.Squares["n7"])
	}
	b.ok(CmdReply, `{"seat":"Yellow","reply":"another"}`)
	b.expect(MsgReply)
	lt = b.Lights()
	if lt.Squares["m7"] != "" || lt.Squares["l9"] != "" || lt.Squares["n7"] != "" {
		t.Errorf("after Another: m7 %q l9 %q n7 %q, want dark", lt.Squares["m7"], lt.Squares["l9"], lt.Squares["n7"])
	}
}

// Accepted in error: Yellow cannot relieve, plays any legal move, and
// Blue captures Green's king; both armies of that game leave the board.
func TestLiveKingCapturedAfterAnUnrelievedCheck(t *testing.T) {
	b := startBlocking(t, bdKnight)
	b.ok(CmdAnnounce, `{"seat":"Green","move":"n5-m4"}`)
	b.expect(MsgAnnounce)
	b.ok(CmdReply, `{"seat":"Yellow","reply":"accept"}`)
	b.expect(MsgReply)
	b.hand("-n5 +m4")
	b.expect(MsgMove)
	b.hand("-k10 +k9")
	b.expect(MsgMove)
	b.hand("-m4 -k3 +m4")
	m := b.expect(MsgMove)
	if m.Seat != "Blue" || m.Coord != "k3-m4" || strings.Join(m.Out, ",") != "Green,Blue" {
		t.Fatalf("the king capture: %+v", m)
	}
	st := b.State()
	if st.Status != "correction" || sorted(st.Wrong) != "a7,e9,m4" {
		t.Fatalf("after the king capture: status %s, wrong %v; want Blue's army (a7, e9, m4) taken off", st.Status, st.Wrong)
	}
	if st.Seats[rules.Green].Status != rules.KingCaptured.String() || st.Seats[rules.Blue].Status != rules.Finished.String() {
		t.Errorf("statuses %+v", st.Seats)
	}
	b.hand("-a7 -e9 -m4")
	b.expect(MsgCorrected)
}

// "Using the privilege of moving into check to escape from stalemate is
// permitted, but is optional": claim_stalemate draws Green's game, and
// the two armies leave the board.
func TestLiveClaimStalemate(t *testing.T) {
	b := startBlocking(t, bdPrivilege)
	b.refused(CmdClaimStalemate, `{"seat":"Green"}`, "Green has legal moves: no stalemate")
	b.refused(CmdClaimStalemate, `{"seat":"Purple"}`, `"Purple" is not a seat`)

	b = startBlocking(t, bdStalemate)
	b.refused(CmdClaimStalemate, `{"seat":"Blue"}`, "Blue is not to move")
	b.ok(CmdClaimStalemate, `{"seat":"Green"}`)
	m := b.expect(MsgStalemateClaimed)
	if m.Seat != "Green" || m.Note != "Green claims stalemate" || !strings.Contains(m.Text, "drawn by stalemate") {
		t.Fatalf("claim message %+v", m)
	}
	st := b.State()
	if st.Status != "correction" || sorted(st.Wrong) != "a7,e5,m10,n4" {
		t.Fatalf("after the claim: status %s wrong %v; want Green's and Blue's armies taken off", st.Status, st.Wrong)
	}
	if st.Seats[rules.Green].Status != rules.Stalemated.String() || st.Seats[rules.Blue].Status != rules.Finished.String() || st.Turn != "Yellow" {
		t.Errorf("statuses %+v, turn %s", st.Seats, st.Turn)
	}
	b.hand("-a7 -e5 -m10 -n4")
	b.expect(MsgCorrected)
	// The escape instead: announce Kn4-n5, accepted, relieved by Rk12-k5.
	b = startBlocking(t, bdStalemate)
	b.ok(CmdAnnounce, `{"seat":"Green","move":"n4-n5"}`)
	b.expect(MsgAnnounce)
	b.ok(CmdReply, `{"seat":"Yellow","reply":"accept"}`)
	b.expect(MsgReply)
	b.hand("-n4 +n5")
	b.expect(MsgMove)
	b.hand("-k12 +k5")
	b.expect(MsgMove)
	if st := b.State(); st.Status != "playing" || st.Seats[rules.Green].Status != "playing" {
		t.Errorf("after the escape: %s %+v", st.Status, st.Seats)
	}
}

// After Unwise a stalemated Green has nothing left to announce: the
// reply itself ends the game, and the armies leave the board.
func TestLiveUnwiseLeavesAStalemate(t *testing.T) {
	b := startBlocking(t, bdStalemate)
	b.ok(CmdAnnounce, `{"seat":"Green","move":"n4-n5"}`)
	b.expect(MsgAnnounce)
	b.ok(CmdReply, `{"seat":"Yellow","reply":"unwise"}`)
	if m := b.expect(MsgReply); !strings.Contains(m.Text, "drawn by stalemate") {
		t.Errorf("reply text %q does not say the game ended", m.Text)
	}
	if st := b.State(); st.Status != "correction" || len(st.Wrong) != 4 {
		t.Errorf("after Unwise: status %s wrong %v", st.Status, st.Wrong)
	}
}

// Outside blocking-double the commands are refused with the reason.
func TestLiveAnnounceRefusedInOtherVariants(t *testing.T) {
	b := startLive(t, LiveConfig{})
	b.refused(CmdAnnounce, `{"seat":"Red","move":"h2-h4"}`, "teams has no announcing of moves into check")
	b.refused(CmdReply, `{"seat":"Blue","reply":"accept"}`, "no announcing")
	b.refused(CmdClaimStalemate, `{"seat":"Red"}`, "no announcing")
}
