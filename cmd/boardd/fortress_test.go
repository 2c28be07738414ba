package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boardd/rules/square"
)

// Russian Fortress Chess is played on 16×16: boardd variants and boardd
// run say it does not fit the 14×14 cross and point to boardd sim, which
// plays it on a simulated 16×16 board, typed and through simulated switches.
func TestFortressNeedsSim(t *testing.T) {
	_, out, _ := runCmd("variants")
	if !strings.Contains(out, "needs a 16×16 board") || !strings.Contains(out, "play it with boardd sim") {
		t.Errorf("boardd variants does not say where russian-fortress can be played:\n%s", out)
	}
	if _, err := loadFitting(square.Cross())("russian-fortress", ""); err == nil || !strings.Contains(err.Error(), "needs a 16×16 board") || !strings.Contains(err.Error(), "boardd sim --variant russian-fortress") {
		t.Errorf("a new russian-fortress game on the cross board: %v", err)
	}
	if _, err := loadFitting(square.Cross())("teams", ""); err != nil {
		t.Errorf("teams on the cross board: %v", err)
	}
	dir := t.TempDir()
	typed := filepath.Join(dir, "typed.txt")
	os.WriteFile(typed, []byte("move e4-e6\nmove Nd4xe6\nmove h13-h11\nmove Nm13-l11\nmove Qh3-g5\n"), 0o644)
	switches := filepath.Join(dir, "switches.txt")
	os.WriteFile(switches, []byte("lift e4\nplace e6\nwait 500ms\nlift e6\nwait 50ms\nlift d4\nwait 50ms\nplace e6\nwait 500ms\nlift h13\nplace h11\nwait 500ms\nlift m13\nwait 50ms\nplace l11\nwait 500ms\n"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"sim", "-q", "--variant", "russian-fortress", "--script", typed}, "1. e4-e6 .. Nd4xe6 .. h13-h11 .. Nm13-l11\n2. Qh3-g5"},
		{[]string{"sim", "-q", "--switches", "--variant", "russian-fortress", "--script", switches}, "1. e4-e6 .. Nd4xe6 .. h13-h11 .. Nm13-l11"},
	} {
		code, out, errOut := runCmd(c.args...)
		if code != 0 || !strings.Contains(out, c.want) {
			t.Errorf("%v: exit %d, want %q in\n%s%s", c.args, code, c.want, out, errOut)
		}
	}
}
