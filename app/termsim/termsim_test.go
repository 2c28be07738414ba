package termsim

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"boardd/app/catalog"
	"boardd/rules"
	"boardd/sync/archive"
)

func newBoard(t *testing.T, jl *archive.Journal) (*Board, *bytes.Buffer) {
	t.Helper()
	v, err := catalog.Variant("teams", "")
	if err != nil {
		t.Fatal(err)
	}
	g, err := rules.NewGame(v, "")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	b, err := Start(g, jl, catalog.Variant, &out)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Stop)
	return b, &out
}

// Typed moves, bare or as lift and place lines, and a switch script all
// end as the same game's PGN4; a bad line names the script and line.
func TestPlay(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		switches bool
		want     string
	}{
		{name: "bare moves", in: "h2-h4\nb7-c7\n", want: "1. h2-h4 .. b7-c7"},
		{name: "lift and place", in: "-h2\n+h4\nwait\nmove b7-c7\n", want: "1. h2-h4 .. b7-c7"},
		{name: "switches", in: "lift h2\nwait 30ms\nplace h4\nbounce h4 3\nwait 600ms\nlift b7\nwait 50ms\nplace c7\nwait 600ms\n", switches: true, want: "1. h2-h4 .. b7-c7"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, out := newBoard(t, nil)
			var err error
			if tc.switches {
				err = b.PlaySwitches(strings.NewReader(tc.in), "test.switches", 400*time.Millisecond)
			} else {
				err = b.PlayLines(strings.NewReader(tc.in), "test.txt")
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := b.Finish("", "", ""); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out.String(), tc.want) || strings.Contains(out.String(), "!!") {
				t.Errorf("output lacks %q or reports a problem:\n%s", tc.want, out)
			}
		})
	}
	b, out := newBoard(t, nil)
	if err := b.PlayLines(strings.NewReader("h2-h4\nhello\n"), "game.txt"); err == nil || !strings.Contains(err.Error(), `game.txt:2: "hello": want a move`) {
		t.Errorf("a bad scripted line: %v", err)
	}
	b, out = newBoard(t, nil)
	if err := b.PlayLines(strings.NewReader("h2-h6\nh2-h4\n"), ""); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "?? move ") {
		t.Errorf("a bad typed line is not answered with ??:\n%s", out)
	}
}

// A journal is created for a new game and resumed with its turns.
func TestOpenJournal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sim.journal")
	v, _ := catalog.Variant("teams", "")
	g, _ := rules.NewGame(v, "")
	var stdout, stderr bytes.Buffer
	jl, g2, err := OpenJournal(path, "", g, catalog.Variant, &stdout, &stderr)
	if err != nil || g2 != g {
		t.Fatalf("new journal: %v", err)
	}
	b, _ := newBoard(t, jl)
	if err := b.PlayLines(strings.NewReader("h2-h4\nb7-c7\n"), ""); err != nil {
		t.Fatal(err)
	}
	b.Stop()
	jl.Close()
	jl, g2, err = OpenJournal(path, "", g, catalog.Variant, &stdout, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	defer jl.Close()
	if n := len(g2.Records()); n != 2 || !strings.Contains(stdout.String(), "resumed teams: 2 turns from "+path) {
		t.Errorf("resumed %d turns; said %q", n, stdout.String())
	}
}
