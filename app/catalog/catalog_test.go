package catalog

import (
	"errors"
	"strings"
	"testing"

	"boardd/rules/square"
	"boardd/sensors/sim"
)

func TestVariant(t *testing.T) {
	if v, err := Variant("teams", ""); err != nil || v.Name != "teams" {
		t.Fatalf("teams: %v, %v", v, err)
	}
	for _, tc := range []struct{ name, start string }{{"nosuch", ""}, {"teams", "nosuch"}} {
		if _, err := Variant(tc.name, tc.start); !errors.Is(err, ErrUsage) {
			t.Errorf("%q %q: %v, want a usage error", tc.name, tc.start, err)
		}
	}
}

// A variant that does not fit the board is refused, saying where it is
// played.
func TestFitting(t *testing.T) {
	for _, tc := range []struct {
		board   square.Set
		variant string
		errHas  []string
	}{
		{square.Cross(), "teams", nil},
		{square.Full(), "russian-fortress", nil},
		{square.Cross(), "russian-fortress", []string{"needs a 16×16 board", "board_shape: square16", "boardd sim --variant russian-fortress"}},
	} {
		_, err := Fitting(tc.board)(tc.variant, "")
		if (err != nil) != (tc.errHas != nil) {
			t.Errorf("%s on %d squares: %v", tc.variant, tc.board.Len(), err)
		}
		for _, want := range tc.errHas {
			if err != nil && !strings.Contains(err.Error(), want) {
				t.Errorf("%s on %d squares: %v lacks %q", tc.variant, tc.board.Len(), err, want)
			}
		}
	}
}

// The cross board starts with the four-player array; the 16×16 board
// with Russian Fortress Chess's, fortress pieces included.
func TestStartOccupancy(t *testing.T) {
	if got := StartOccupancy("cross14"); got != sim.StartPosition() {
		t.Errorf("cross14: %d squares occupied", got.Len())
	}
	occ, ok := VariantStart(square.Full(), "russian-fortress", "")
	if !ok || StartOccupancy("square16") != occ || occ == sim.StartPosition() {
		t.Errorf("square16: %d squares occupied, russian-fortress's start %d (%v)", StartOccupancy("square16").Len(), occ.Len(), ok)
	}
	if _, ok := VariantStart(square.Cross(), "russian-fortress", ""); ok {
		t.Error("russian-fortress's start on the cross board")
	}
}
