package term

import (
	"strings"
	"testing"

	"boardd/leds"
	"boardd/rules/square"
)

func TestRenderPlainAndColour(t *testing.T) {
	var f leds.Frame
	f.Brightness = 255
	e4, _ := square.Parse("e4")
	h1, _ := square.Parse("h1")
	f.Set(e4, leds.Color{R: 200})
	label := func(s square.Square) string {
		if s == h1 {
			return "rK"
		}
		return ""
	}
	var b strings.Builder
	if err := Render(&b, square.Cross(), &f, label, false); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	if len(lines) != 16 {
		t.Fatalf("%d lines, want 14 ranks + files + end", len(lines))
	}
	if got, want := lines[13], " 1          .. .. .. .. rK .. .. ..          "; got != want {
		t.Errorf("rank 1:\n%q\nwant\n%q", got, want)
	}
	if got, want := lines[10], " 4 .. .. .. .. ** .. .. .. .. .. .. .. .. .. "; got != want {
		t.Errorf("rank 4:\n%q\nwant\n%q", got, want)
	}
	if !strings.HasPrefix(lines[14], "   a  b  c") {
		t.Errorf("file line %q", lines[14])
	}
	b.Reset()
	Render(&b, square.Cross(), &f, label, true)
	if !strings.Contains(b.String(), "\x1b[48;2;200;0;0m**\x1b[0m") {
		t.Errorf("no red background on e4:\n%q", b.String())
	}
}
