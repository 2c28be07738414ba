package broker

import (
	"os"
	"path/filepath"
	"testing"
)

// KeptPassword makes a password once and gives the same one after; an
// empty file gets a new one; a file it cannot write is an error.
func TestKeptPassword(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "pw")
	first, err := KeptPassword(file)
	if err != nil || len(first) != 20 {
		t.Fatalf("first: %q, %v", first, err)
	}
	if again, _ := KeptPassword(file); again != first {
		t.Errorf("again: %q, want %q", again, first)
	}
	if fi, _ := os.Stat(file); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode().Perm())
	}
	os.WriteFile(file, []byte(" \n"), 0o600)
	if fresh, _ := KeptPassword(file); fresh == "" || fresh == first {
		t.Errorf("after emptying the file: %q", fresh)
	}
	if _, err := KeptPassword(filepath.Join(dir, "no", "such", "dir", "pw")); err == nil {
		t.Error("a file that cannot be written gave a password")
	}
}
