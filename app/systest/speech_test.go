package systest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"boardd/app/catalog"
	"boardd/rules"
)

// With speech.on and speech.cues the daemon says each move through
// espeak-ng and plays its cue through aplay (here stand-in scripts on
// PATH); without them it says so once and plays on.
func TestRunSpeaks(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the daemon as a process")
	}
	for _, installed := range []bool{true, false} {
		t.Run(fmt.Sprintf("espeak-ng installed %v", installed), func(t *testing.T) {
			dir := t.TempDir()
			bin := filepath.Join(dir, "bin")
			os.Mkdir(bin, 0o755)
			said := filepath.Join(dir, "said")
			played := filepath.Join(dir, "played")
			if installed {
				os.WriteFile(filepath.Join(bin, "espeak-ng"), []byte("#!/bin/sh\necho \"$@\" >> "+said+"\n"), 0o755)
				os.WriteFile(filepath.Join(bin, "aplay"), []byte("#!/bin/sh\necho \"$@\" >> "+played+"\n"), 0o755)
			}
			t.Setenv("PATH", bin)
			config := filepath.Join(dir, "boardd.yaml")
			os.WriteFile(config, []byte(fmt.Sprintf(`state_dir: %s
sensors:
  quiet: 150ms
  listen: 127.0.0.1:0
mqtt:
  embedded: {listen: "127.0.0.1:0"}
web:
  listen: 127.0.0.1:0
speech:
  on: true
  cues: true
  voice: en-gb
`, filepath.Join(dir, "state"))), 0o644)
			p := startProc(t, config)
			v, _ := catalog.Variant("teams", "")
			g, _ := rules.NewGame(v, "")
			for _, m := range g.LegalMoves() {
				if g.Position().MoveText(m) == "h2-h4" {
					p.play(t, g, m)
				}
			}
			p.waitMoves(t, 1)
			if !installed {
				if !strings.Contains(p.out.String(), "no spoken announcements or sound cues") || !strings.Contains(p.out.String(), "apt-get install espeak-ng") || !strings.Contains(p.out.String(), "apt-get install alsa-utils") {
					t.Errorf("no word about the missing espeak-ng; the log:\n%s", p.out)
				}
				return
			}
			deadline := time.Now().Add(5 * time.Second)
			for {
				got, _ := os.ReadFile(said)
				cues, _ := os.ReadFile(played)
				if strings.Contains(string(got), "-v en-gb -- Red: pawn to h4") && strings.Contains(string(cues), "-q -") {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("espeak-ng was asked to say\n%s\nwant Red: pawn to h4; the log:\n%s", got, p.out)
				}
				time.Sleep(20 * time.Millisecond)
			}
		})
	}
}
