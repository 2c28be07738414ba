package pgn4_test

import (
	"fmt"
	"os"

	"boardd/rules/pgn4"
)

func ExampleParseString() {
	g, warns, err := pgn4.ParseString(`[Variant "FFA"]
[StartFen4 "4PC"]

1. h2-h3 .. b7-c7 {[%clk 0:00:58]} .. i13-i12 .. m10-l10
2. Qg1xQn8+ .. R .. Ke13-e12T .. Bn9-m10 (2. Qg1-h2) ; variation skipped
`)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(g.Get("Variant"), len(g.Rounds), "rounds")
	fmt.Println(g.Rounds[0].Slots[1].Clock)
	for _, s := range g.Rounds[1].Slots {
		m := s.Move
		fmt.Printf("%-10s %-6v piece=%q from=%v to=%v captured=%q checks=%d then=%q\n", s.Text, m.Kind, m.Piece, m.From, m.To, m.Captured, m.Checks, m.Then)
	}
	for _, w := range warns {
		fmt.Println(w)
	}
	// Output:
	// FFA 2 rounds
	// 58s
	// Qg1xQn8+   move   piece='Q' from=g1 to=n8 captured='Q' checks=1 then='\x00'
	// R          resign piece='\x00' from=- to=- captured='\x00' checks=0 then='\x00'
	// Ke13-e12T  move   piece='K' from=e13 to=e12 captured='\x00' checks=0 then='T'
	// Bn9-m10    move   piece='B' from=n9 to=m10 captured='\x00' checks=0 then='\x00'
	// line 5: variation skipped (lines 5-5)
}

func ExampleParseMove() {
	m, err := pgn4.ParseMove("k13xQl14=D+#")
	fmt.Println(m.Piece == 'P', m.From, m.To, m.Capture, string(m.Captured), string(m.Promotion), m.Checks, m.Mate, err)
	_, err = pgn4.ParseMove("Qz1-h5")
	fmt.Println(err)
	// Output:
	// true k13 l14 true Q D 1 true <nil>
	// "Qz1-h5": "z1" is not a square (files a-p, ranks 1-16)
}

func ExampleGame_WriteTo() {
	g := &pgn4.Game{}
	g.Set("Variant", "Teams")
	h2, _ := pgn4.ParseMove("h2-h4")
	b7, _ := pgn4.ParseMove("b7-d7")
	g.Rounds = []pgn4.Round{{Number: 1, Slots: []pgn4.Slot{{Move: h2}, {Move: b7, Comments: []string{"[%clk 0:01:00]"}}}}}
	g.WriteTo(os.Stdout)
	// Output:
	// [Variant "Teams"]
	//
	// 1. h2-h4 .. b7-d7 {[%clk 0:01:00]}
}
