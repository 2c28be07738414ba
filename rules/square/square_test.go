package square

import "testing"

func TestParseAndString(t *testing.T) {
	tests := []struct {
		name string
		f, r int
	}{
		{"a1", 0, 0}, {"h1", 7, 0}, {"n14", 13, 13}, {"d11", 3, 10}, {"p16", 15, 15},
	}
	for _, tt := range tests {
		s, err := Parse(tt.name)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.name, err)
		}
		if s.File() != tt.f || s.Rank() != tt.r {
			t.Errorf("Parse(%q) = file %d rank %d, want %d %d", tt.name, s.File(), s.Rank(), tt.f, tt.r)
		}
		if s.String() != tt.name {
			t.Errorf("String() = %q, want %q", s.String(), tt.name)
		}
	}
}

func TestParseRejects(t *testing.T) {
	for _, bad := range []string{"", "a", "a0", "a17", "q1", "A1", "a01", "a+1", "abc", "h1x"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) succeeded, want an error", bad)
		}
	}
}

func TestCrossHas160Squares(t *testing.T) {
	// "it is a 14x14 board with the 3x3 corners removed" (chess.com rules text)
	c := Cross()
	if c.Len() != 160 {
		t.Fatalf("Cross() has %d squares, want 160", c.Len())
	}
	for _, name := range []string{"a1", "c3", "n14", "l12", "a3", "c14"} {
		s, _ := Parse(name)
		if c.Has(s) {
			t.Errorf("corner square %s is in the cross", name)
		}
	}
	for _, name := range []string{"d1", "a4", "n11", "k14", "g7"} {
		s, _ := Parse(name)
		if !c.Has(s) {
			t.Errorf("square %s missing from the cross", name)
		}
	}
}

func TestSetOps(t *testing.T) {
	var a, b Set
	a.Add(At(0, 3))
	a.Add(At(3, 0))
	b.Add(At(3, 0))
	if got := a.And(b).String(); got != "{d1}" {
		t.Errorf("And = %s", got)
	}
	if got := a.AndNot(b).String(); got != "{a4}" {
		t.Errorf("AndNot = %s", got)
	}
	if got := a.Or(b).Len(); got != 2 {
		t.Errorf("Or len = %d", got)
	}
	a.Remove(At(0, 3))
	if a.Has(At(0, 3)) || a.Len() != 1 {
		t.Errorf("Remove failed: %s", a)
	}
}

func TestFullHas256Squares(t *testing.T) {
	f := Full()
	if f.Len() != 256 || f.AndNot(Cross()).Len() != 96 {
		t.Fatalf("Full() has %d squares (%d beyond the cross), want 256 (96)", f.Len(), f.AndNot(Cross()).Len())
	}
	sq := f.Squares()
	if sq[0].String() != "a1" || sq[15].String() != "p1" || sq[16].String() != "a2" || sq[255].String() != "p16" {
		t.Errorf("Full() in a1 order: %v %v %v %v", sq[0], sq[15], sq[16], sq[255])
	}
}
