package sim_test

import (
	"strings"
	"testing"

	"boardd/rules/square"
	"boardd/sensors"
	"boardd/sensors/sim"
)

// A simulated board for a variant on another board than the cross (Russian
// Fortress Chess's 16×16): a switch under every square, p16 included.
func TestBoardOnSixteenBySixteen(t *testing.T) {
	var all square.Set
	for q := square.Square(0); q < 256; q++ {
		all.Add(q)
	}
	p16, _ := square.Parse("p16")
	b, err := sim.NewOn(all, square.Set{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if b.Bits() != 256 {
		t.Errorf("%d switches, want 256", b.Bits())
	}
	b.Place(p16)
	var f sensors.Frame
	b.Read(&f)
	var occ square.Set
	b.Map().Apply(&f, &occ)
	if !occ.Has(p16) || occ.Len() != 1 {
		t.Errorf("placed on p16, read %v", occ)
	}
	if _, err := sim.ParseScriptOn("s.txt", strings.NewReader("lift p16\nplace a1\n"), all); err != nil {
		t.Errorf("a 16×16 script: %v", err)
	}
	if _, err := sim.ParseScript("s.txt", strings.NewReader("lift p16\n")); err == nil {
		t.Error("p16 accepted on the cross board")
	}
	var most square.Set = all
	most.Remove(p16)
	if _, err := sensors.NewMapOn(all, most.Squares()); err == nil || !strings.Contains(err.Error(), "p16") {
		t.Errorf("a map without p16 for a 16×16 board: %v", err)
	}
}
