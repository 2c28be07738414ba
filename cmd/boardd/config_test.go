package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestConfigCheck(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(text), 0o644)
		return p
	}
	tests := []struct {
		name      string
		args      []string
		code      int
		out, errs string
	}{
		{"good", []string{"config", "check", write("good.yaml", "board: b2\ngame: {variant: ffa}\n")}, 0, "good.yaml: ok (board b2, ffa, switches sim, LEDs none)", ""},
		{"typo", []string{"config", "check", write("typo.yaml", "board: b2\nleds:\n  brigthness: 9\n")}, 1, "", "typo.yaml: line 3: field brigthness not found"},
		{"unknown variant", []string{"config", "check", write("v.yaml", "game: {variant: chaturaji}\n")}, 1, "", `game.variant/start`},
		{"missing file", []string{"config", "check", filepath.Join(dir, "none.yaml")}, 1, "", "no such file"},
		{"example", []string{"config", "example"}, 0, "board: \"1\"", ""},
		{"no verb", []string{"config"}, 2, "", "want 'check FILE' or 'example'"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runCmd(tc.args...)
			if code != tc.code || !strings.Contains(out, tc.out) || !strings.Contains(errs, tc.errs) {
				t.Errorf("code %d, stdout %q, stderr %q; want %d, %q, %q", code, out, errs, tc.code, tc.out, tc.errs)
			}
		})
	}
	// The example config shipped in configs/ passes its own check.
	if code, out, errs := runCmd("config", "check", filepath.Join("..", "..", "configs", "boardd.yaml")); code != 0 {
		t.Errorf("configs/boardd.yaml: %d %s %s", code, out, errs)
	}
}
