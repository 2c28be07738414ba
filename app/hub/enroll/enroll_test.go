package enroll

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"boardd/sync/broker"
)

func open(t *testing.T, dir string, max int) *Keys {
	t.Helper()
	k, err := Open(dir, max)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestFirstKeyIsTheName(t *testing.T) {
	dir := t.TempDir()
	hub := open(t, dir, 2)
	for _, tc := range []struct {
		name, key string
		want      error // nil, broker.ErrOtherKey, or any error (errAny)
	}{
		{"club-1", "k1", nil},
		{"club-1", "k1", nil},
		{"club-1", "k2", broker.ErrOtherKey},
		{"club-2", "k1", nil}, // a key may be reused by another name: it is the name that is bound
		{"club-3", "k3", errAny},
		{"a/b", "k", errAny},
		{"", "k", errAny},
	} {
		err := hub.Enroll(tc.name, tc.key)
		switch {
		case tc.want == nil && err != nil, tc.want != nil && err == nil:
			t.Errorf("Enroll(%q, %q) = %v, want %v", tc.name, tc.key, err, tc.want)
		case tc.want == broker.ErrOtherKey && !errors.Is(err, broker.ErrOtherKey):
			t.Errorf("Enroll(%q, %q) = %v, want ErrOtherKey", tc.name, tc.key, err)
		}
	}
	if err := hub.Enroll("club-3", "k3"); err == nil || !strings.Contains(err.Error(), "forget") {
		t.Errorf("past the bound: %v (want the way out named)", err)
	}

	// Kept: another start on the directory knows the names, and the key
	// itself is not in the file.
	again := open(t, dir, 2)
	if !again.Enrolled("club-1") || again.Enrolled("club-3") {
		t.Error("the enrollments were not kept")
	}
	if err := again.Enroll("club-1", "k2"); !errors.Is(err, broker.ErrOtherKey) {
		t.Errorf("after a restart another key: %v", err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, File))
	if strings.Contains(string(data), `"k1"`) {
		t.Errorf("the file keeps the key itself:\n%s", data)
	}

	// boardd hub forget from another process: the running hub sees it.
	if found, err := again.Forget("club-1"); err != nil || !found {
		t.Fatalf("Forget: %v %v", found, err)
	}
	if hub.Enrolled("club-1") {
		t.Error("the running hub still knows a forgotten name")
	}
	if err := hub.Enroll("club-1", "k2"); err != nil {
		t.Errorf("a forgotten name with a new key: %v", err)
	}
	if found, _ := again.Forget("nobody"); found {
		t.Error("forgot a name never enrolled")
	}
	list, _ := hub.List()
	if len(list) != 2 || list[0].Name != "club-1" || list[1].Name != "club-2" || list[0].Joined.IsZero() {
		t.Errorf("List = %+v", list)
	}
}

var errAny = errors.New("any error")

// Two processes enrolling at once: each name has exactly one key.
func TestConcurrentEnrollments(t *testing.T) {
	dir := t.TempDir()
	a, b := open(t, dir, 0), open(t, dir, 0)
	var wg sync.WaitGroup
	var mu sync.Mutex
	wins := map[string]int{}
	for i := 0; i < 20; i++ {
		for n, k := range []*Keys{a, b} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				name := "club-" + string(rune('a'+i%5))
				if k.Enroll(name, "key-"+string(rune('0'+n))+name) == nil {
					mu.Lock()
					wins[name+"/"+string(rune('0'+n))]++
					mu.Unlock()
				}
			}()
		}
	}
	wg.Wait()
	for i := 0; i < 5; i++ {
		name := "club-" + string(rune('a'+i))
		if (wins[name+"/0"] > 0) == (wins[name+"/1"] > 0) {
			t.Errorf("%s: joined by both keys or by none: %v", name, wins)
		}
	}
	list, err := open(t, dir, 0).List()
	if err != nil || len(list) != 5 {
		t.Errorf("List = %v, %v", list, err)
	}
}

func TestBadFileNamed(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, File), []byte("not json"), 0o600)
	if _, err := Open(dir, 0); err == nil || !strings.Contains(err.Error(), File) {
		t.Fatalf("a damaged file: %v", err)
	}
}
