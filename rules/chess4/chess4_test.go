package chess4_test

import (
	"testing"

	"boardd/rules"
	"boardd/rules/chess4"
)

// The package registers its mode, its Result tag and its hook with the
// core: mode chess4 is known by its key, a variant whose data asks for one
// of Chess4's rules gets the hook, chess.com's Teams does not, and an
// active king is taken out of the capture table ("It is an illegal move
// to capture an active player's King").
func TestRegisters(t *testing.T) {
	if m, ok := rules.ModeByKey("chess4"); !ok || m != chess4.Chess4 || m.String() != "Chess4" {
		t.Errorf("mode chess4: %v %v, want %v named Chess4", m, ok, chess4.Chess4)
	}
	draw := rules.Result{Reason: "stalemate", Sharing: []rules.Seat{rules.Red, rules.Blue}}
	if got := draw.Tag(chess4.Chess4, [rules.NumSeats]string{}); got != "1/2-1/2-0-0" {
		t.Errorf("a draw shared by two: tag %q, want 1/2-1/2-0-0", got)
	}
	plain, err := rules.NewVariant("ffa", "modern")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := rules.HookOf[*chess4.Chess4Hook](plain); ok {
		t.Error("chess.com FFA got Chess4's hook")
	}
	king := rules.MakePiece(rules.Blue, rules.King)
	if !plain.Captures(rules.Red, king) {
		t.Fatal("FFA: Red may not capture Blue's king to begin with")
	}
	v, err := rules.NewVariant("ffa", "modern")
	if err != nil {
		t.Fatal(err)
	}
	v.SetHookOptions(chess4.Options{NoKingCapture: true})
	if err := v.Compile(); err != nil {
		t.Fatal(err)
	}
	if h, ok := rules.HookOf[*chess4.Chess4Hook](v); !ok || h.ID() != "chess4" {
		t.Errorf("hooks %v, want Chess4's", v.Hooks())
	}
	if v.Captures(rules.Red, king) || !v.Captures(rules.Red, rules.MakePiece(rules.Blue, rules.Queen)) {
		t.Error("NoKingCapture: want Blue's king, and only it, out of Red's captures")
	}
}
