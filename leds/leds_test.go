package leds

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"boardd/rules/square"
)

func sq(name string) square.Square {
	s, err := square.Parse(name)
	if err != nil {
		panic(err)
	}
	return s
}

func TestStandardMaps(t *testing.T) {
	board := square.Cross()
	tests := []struct {
		name string
		m    *Map
		want map[string]int
	}{
		// rank 1 d1..k1 (0-7), rank 2 back k2..d2 (8-15), rank 3 (16-23),
		// rank 4 back from n4 (24) to a4 (37)
		{"serpentine", Serpentine(board), map[string]int{"d1": 0, "k1": 7, "k2": 8, "d2": 15, "d3": 16, "n4": 24, "a4": 37, "a5": 38}},
		// Red's arm first, then Blue's arm a4..a11 / b11..b4 / c4..c11 …
		{"arms", Arms(board), map[string]int{"d1": 0, "k1": 7, "k2": 8, "a4": 24, "a11": 31, "b11": 32, "c11": 47}},
	}
	for _, tt := range tests {
		if tt.m.Len() != 160 {
			t.Errorf("%s: %d LEDs, want 160", tt.name, tt.m.Len())
		}
		seen := map[int]bool{}
		for _, s := range board.Squares() {
			i := tt.m.Index(s)
			if i < 0 || i >= 160 || seen[i] {
				t.Fatalf("%s: square %s has LED %d (duplicate or missing)", tt.name, s, i)
			}
			seen[i] = true
		}
		for name, want := range tt.want {
			if got := tt.m.Index(sq(name)); got != want {
				t.Errorf("%s: %s is LED %d, want %d", tt.name, name, got, want)
			}
		}
		if tt.m.Index(sq("a1")) != -1 {
			t.Errorf("%s: the corner a1 has an LED", tt.name)
		}
	}
}

func TestParseMap(t *testing.T) {
	board := square.Cross()
	if m, err := ParseMap("leds.yaml", []byte("layout: arms\n"), board, 160); err != nil || m.Index(sq("d1")) != 0 {
		t.Fatalf("arms: %v", err)
	}
	// A small board: three squares.
	var small square.Set
	for _, n := range []string{"d1", "e1", "f1"} {
		small.Add(sq(n))
	}
	m, err := ParseMap("leds.yaml", []byte("order: [f1, '-', e1, d1]\n"), small, 4)
	if err != nil || m.Index(sq("f1")) != 0 || m.Index(sq("d1")) != 3 || m.Len() != 4 {
		t.Fatalf("order: %v %+v", err, m)
	}
	tests := []struct{ in, want string }{
		{"order: [d1, e1, d1]", "leds.yaml: line 1: LED 2: square d1 already has LED 0"},
		{"order:\n  - d1\n  - e1", "leds.yaml: line 2: no LED for f1"},
		{"order: [d1, e1, z9]", `line 1: LED 2: "z9" is not a square of the board`},
		{"order: [d1, e1, f1, '-', '-']", "line 1: the map uses 5 LEDs but the strip has 4: LED index 4 out of range"},
		{"order:\n  - d1\n  - e1\n  - f1\n  - '-'\n  - '-'", "leds.yaml: line 6: the map uses 5 LEDs but the strip has 4: LED index 4 out of range"},
		{"order:\n  - d1\n  - e1\n  - d1", "leds.yaml: line 4: LED 2: square d1 already has LED 0"},
		{"order:\n  - d1\n  - e1\n  - g9", `leds.yaml: line 4: LED 2: "g9" is not a square of the board`},
		{"layout: spiral", `line 1: layout "spiral": want serpentine or arms`},
		{"layot: arms", "field layot not found"},
		{"layout: arms\norder: [d1]", "give layout or order, not both"},
		{"", "want a mapping"},
	}
	for _, tt := range tests {
		_, err := ParseMap("leds.yaml", []byte(tt.in), small, 4)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseMap(%q) = %v, want %q", tt.in, err, tt.want)
		}
	}
}

func FuzzParseMap(f *testing.F) {
	f.Add("layout: serpentine")
	f.Add("order: [d1, e1, '-']")
	f.Add("layout: arms\n")
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseMap("fuzz.yaml", []byte(s), square.Cross(), 200)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.yaml") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		seen := map[int]bool{}
		for _, q := range square.Cross().Squares() {
			i := m.Index(q)
			if i < 0 || i >= m.Len() || seen[i] {
				t.Fatalf("accepted map gives %s LED %d", q, i)
			}
			seen[i] = true
		}
	})
}

func TestOutputRender(t *testing.T) {
	board := square.Cross()
	m := Serpentine(board)
	px := make([]Color, m.Len())

	plain, _ := NewOutput(m, 1, Power{})
	var f Frame
	f.Brightness = 255
	f.Set(sq("e1"), Color{10, 20, 30})
	plain.Render(&f, px)
	if px[1] != (Color{10, 20, 30}) || px[0] != Off {
		t.Errorf("identity output: %v %v", px[0], px[1])
	}
	f.Brightness = 128
	plain.Render(&f, px)
	if px[1] != (Color{5, 10, 15}) {
		t.Errorf("half brightness: %v", px[1])
	}

	gamma, _ := NewOutput(m, 2.2, Power{})
	f.Brightness = 255
	f.Set(sq("e1"), Color{128, 255, 0})
	gamma.Render(&f, px)
	if px[1] != (Color{56, 255, 0}) { // 255*(128/255)^2.2 = 55.98
		t.Errorf("gamma 2.2: %v", px[1])
	}

	// "160 LEDs at full white would draw ~9.6 A": a 4 A budget dims it.
	budget, _ := NewOutput(m, 1, DefaultPower)
	for _, s := range board.Squares() {
		f.Set(s, White)
	}
	amps := budget.Render(&f, px)
	if amps > 4.0 || amps < 3.9 {
		t.Errorf("full white drew %.2f A after dimming, want just under 4", amps)
	}
	if px[0].R == 255 || px[0].R == 0 || px[0] != px[159] {
		t.Errorf("dimming is not even: %v %v", px[0], px[159])
	}
	unlimited, _ := NewOutput(m, 1, Power{ChannelMilliamps: 20, IdleMilliamps: 1})
	if a := unlimited.Render(&f, px); a < 9.7 || a > 9.8 {
		t.Errorf("full white estimate %.2f A, want 9.6 + 0.16 idle", a)
	}
	if n := testing.AllocsPerRun(100, func() { budget.Render(&f, px) }); n != 0 {
		t.Errorf("Render allocates %v times", n)
	}
	if _, err := NewOutput(m, 9, Power{}); err == nil {
		t.Error("gamma 9 accepted")
	}
}

// flaky fails its first n writes.
type flaky struct {
	mu    sync.Mutex
	fails int
	shows [][]Color
}

func (f *flaky) Len() int { return 2 }
func (f *flaky) Show(px []Color) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fails > 0 {
		f.fails--
		return errors.New("spi: bus error")
	}
	f.shows = append(f.shows, append([]Color(nil), px...))
	return nil
}
func (f *flaky) count() int { f.mu.Lock(); defer f.mu.Unlock(); return len(f.shows) }

func TestWriterRetriesAndSkipsUnchanged(t *testing.T) {
	s := &flaky{fails: 2}
	var mu sync.Mutex
	var errs []error
	// No refresh: this test counts the writes of changed frames.
	w := NewWriterEvery(s, func(err error) { mu.Lock(); errs = append(errs, err); mu.Unlock() }, 0)
	defer w.Close()
	red := []Color{{255, 0, 0}, {}}
	w.Show(red)
	deadline := time.Now().Add(5 * time.Second)
	for s.count() < 1 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if s.count() != 1 || s.shows[0][0] != red[0] {
		t.Fatalf("frame not shown after two failures: %v", s.shows)
	}
	mu.Lock()
	if len(errs) != 2 {
		t.Errorf("%d errors reported, want 2", len(errs))
	}
	mu.Unlock()
	w.Show(red) // unchanged: not written again
	w.Show([]Color{{0, 0, 255}, {}})
	for s.count() < 2 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(20 * time.Millisecond)
	if s.count() != 2 || s.shows[1][0] != (Color{0, 0, 255}) {
		t.Errorf("shows %v, want red then blue only", s.shows)
	}
}

// With nothing new to show, the writer sends the frame it shows again
// (a glitched LED heals), the same pixels each time; a new frame still
// replaces it.
func TestWriterRefreshesUnchangedFrame(t *testing.T) {
	s := &flaky{}
	w := NewWriterEvery(s, nil, 5*time.Millisecond)
	defer w.Close()
	red := []Color{{255, 0, 0}, {}}
	w.Show(red)
	deadline := time.Now().Add(10 * time.Second)
	for s.count() < 3 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if s.count() < 3 {
		t.Fatalf("%d writes, want the frame and at least two refreshes", s.count())
	}
	blue := []Color{{0, 0, 255}, {}}
	w.Show(blue)
	for time.Now().Before(deadline) {
		s.mu.Lock()
		last := s.shows[len(s.shows)-1]
		s.mu.Unlock()
		if last[0] == blue[0] {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	w.Close()
	s.mu.Lock()
	defer s.mu.Unlock()
	seenBlue := false
	for i, f := range s.shows {
		switch {
		case f[0] == blue[0]:
			seenBlue = true
		case f[0] != red[0] || seenBlue:
			t.Fatalf("write %d: %v; want red (refreshed) until blue, then blue only", i, f)
		}
	}
	if !seenBlue {
		t.Error("the new frame was never written")
	}
	if Refresh != time.Second {
		t.Errorf("NewWriter refreshes every %v, the docs say every second", Refresh)
	}
}

func BenchmarkRender160(b *testing.B) {
	m := Serpentine(square.Cross())
	o, _ := NewOutput(m, 2.2, DefaultPower)
	var f Frame
	f.Brightness = 200
	for _, s := range square.Cross().Squares() {
		f.Set(s, White)
	}
	px := make([]Color, m.Len())
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		o.Render(&f, px)
	}
}

// stuck blocks every Show until release is closed, and records the pixels.
type stuck struct {
	release chan struct{}
	mu      sync.Mutex
	shows   [][]Color
}

func (s *stuck) Len() int { return 1 }
func (s *stuck) Show(px []Color) error {
	<-s.release
	s.mu.Lock()
	defer s.mu.Unlock()
	s.shows = append(s.shows, append([]Color(nil), px...))
	return nil
}

func TestWriterNeverBlocksAndCoalesces(t *testing.T) {
	s := &stuck{release: make(chan struct{})}
	w := NewWriterEvery(s, nil, 0)
	defer w.Close()
	start := time.Now()
	for i := 1; i <= 100; i++ {
		w.Show([]Color{{uint8(i), 0, 0}}) // the strip is hung: these must not wait
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("100 Show calls on a hung strip took %v", d)
	}
	close(s.release)
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		s.mu.Lock()
		n, last := len(s.shows), Color{}
		if n > 0 {
			last = s.shows[n-1][0]
		}
		s.mu.Unlock()
		if last.R == 100 {
			if n > 2 {
				t.Errorf("%d writes for 100 queued frames, want at most 2 (the one in flight, then the latest)", n)
			}
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("the latest frame was never written")
}

func TestNull(t *testing.T) {
	n := Null{N: 160}
	if n.Len() != 160 || n.Show(make([]Color, 160)) != nil {
		t.Error("Null strip")
	}
	if f := NewFrame(); f.Brightness != 255 || f.At(sq("h1")) != Off || f.At(square.None) != Off {
		t.Errorf("NewFrame: %+v", f.Brightness)
	}
}

// The 16×16 board (board_shape: square16): 256 LEDs, one per square, in
// both standard layouts; the current budget holds for 256 LEDs too.
func TestSixteenBySixteenMaps(t *testing.T) {
	board := square.Full()
	tests := []struct {
		name string
		m    *Map
		want map[string]int
	}{
		// rank 1 a1..p1 (0-15), rank 2 back p2..a2 (16-31), …, rank 16 back from p16 (240)
		{"serpentine", Serpentine(board), map[string]int{"a1": 0, "p1": 15, "p2": 16, "a2": 31, "a3": 32, "p16": 240, "a16": 255}},
		// Red's arm e1..l1, l2..e2, e3..l3, l4..e4 (0-31); Blue's a5..a12,
		// b12..b5, … (32-63); Yellow's (64-95); Green's (96-127); the
		// centre (128-191); then the fortresses a1-d4, m1-p4, a13-d16,
		// m13-p16 (192-255), each serpentine.
		{"arms", Arms(board), map[string]int{"e1": 0, "l1": 7, "l2": 8, "e4": 31, "a5": 32, "a12": 39, "b12": 40, "e13": 64, "m5": 96, "e5": 128, "l12": 184,
			"a1": 192, "d1": 195, "d2": 196, "a2": 199, "m1": 208, "a13": 224, "m13": 240, "p16": 252, "m16": 255}},
	}
	for _, tt := range tests {
		if tt.m.Len() != 256 {
			t.Errorf("%s: %d LEDs, want 256", tt.name, tt.m.Len())
		}
		seen := map[int]bool{}
		for _, s := range board.Squares() {
			i := tt.m.Index(s)
			if i < 0 || i >= 256 || seen[i] {
				t.Fatalf("%s: square %s has LED %d (duplicate or missing)", tt.name, s, i)
			}
			seen[i] = true
		}
		for name, want := range tt.want {
			if got := tt.m.Index(sq(name)); got != want {
				t.Errorf("%s: %s is LED %d, want %d", tt.name, name, got, want)
			}
		}
	}

	// A map file for the 16×16 board: every square, p16 included.
	var b strings.Builder
	b.WriteString("order: [")
	for i, s := range board.Squares() {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(s.String())
	}
	b.WriteString("]\n")
	m, err := ParseMap("leds16.yaml", []byte(b.String()), board, 256)
	if err != nil || m.Len() != 256 || m.Index(sq("p16")) != 255 {
		t.Fatalf("a 256-LED order: %v", err)
	}
	if _, err := ParseMap("leds16.yaml", []byte(b.String()), board, 160); err == nil || !strings.Contains(err.Error(), "the map uses 256 LEDs but the strip has 160") {
		t.Errorf("256 LEDs on a 160-LED strip: %v", err)
	}
	// The cross's 160-LED order leaves the 16×16 board's other squares dark.
	if _, err := ParseMap("cross.yaml", []byte("layout: serpentine\n"), square.Cross(), 160); err != nil {
		t.Fatal(err)
	}
	var c strings.Builder
	c.WriteString("order: [")
	for i, s := range square.Cross().Squares() {
		if i > 0 {
			c.WriteString(", ")
		}
		c.WriteString(s.String())
	}
	c.WriteString("]\n")
	if _, err := ParseMap("cross.yaml", []byte(c.String()), board, 256); err == nil || !strings.Contains(err.Error(), "cross.yaml: line 1: no LED for a1 b1 c1 l1 m1 n1 o1 p1 … (96 in all)") {
		t.Errorf("a cross order on the 16×16 board: %v", err)
	}

	// The budget: 256 LEDs at full white would draw 15.4 A (+0.26 A idle).
	px := make([]Color, 256)
	var f Frame
	f.Brightness = 255
	for _, s := range board.Squares() {
		f.Set(s, White)
	}
	unlimited, _ := NewOutput(Serpentine(board), 1, Power{ChannelMilliamps: 20, IdleMilliamps: 1})
	if a := unlimited.Render(&f, px); a < 15.61 || a > 15.62 {
		t.Errorf("256 LEDs full white: %.3f A, want 15.36 + 0.256 idle", a)
	}
	budget, _ := NewOutput(Serpentine(board), 1, DefaultPower)
	if a := budget.Render(&f, px); a > 4.0 || a < 3.9 {
		t.Errorf("256 LEDs full white under a 4 A budget: %.2f A, want just under 4", a)
	}
	if px[0].R == 255 || px[0].R == 0 || px[0] != px[255] {
		t.Errorf("dimming is not even: %v %v", px[0], px[255])
	}
}
