package blocking_test

import (
	"testing"

	"boardd/rules"
	"boardd/rules/blocking"
)

// The package registers its mode, its Result tag and its hook with the
// core: mode double is known by its key, its match result is tagged from
// boardd's Red seat's team ("1-0" when it wins), a variant of another
// mode has no hook, and the replies read as the essay words them.
func TestRegisters(t *testing.T) {
	if m, ok := rules.ModeByKey("double"); !ok || m != blocking.Double || m.String() != "Double" {
		t.Errorf("mode double: %v %v, want %v named Double", m, ok, blocking.Double)
	}
	for _, tt := range []struct {
		winners []rules.Seat
		tag     string
	}{
		{[]rules.Seat{rules.Red, rules.Yellow}, "1-0"},
		{[]rules.Seat{rules.Blue, rules.Green}, "0-1"},
		{nil, "1/2-1/2"},
	} {
		r := rules.Result{Reason: "match", Winners: tt.winners}
		if got := r.Tag(blocking.Double, [rules.NumSeats]string{}); got != tt.tag {
			t.Errorf("winners %v: tag %q, want %q", tt.winners, got, tt.tag)
		}
	}
	plain, err := rules.NewTeams("")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := rules.HookOf[*blocking.BlockingDouble](plain); ok {
		t.Error("chess.com Teams got blocking double's hook")
	}
	for text, want := range map[string]blocking.Reply{"I Accept": blocking.ReplyAccept, "unwise": blocking.ReplyUnwise, "ANOTHER": blocking.ReplyAnother, "impossible": blocking.ReplyImpossible} {
		if r, err := blocking.ParseReply(text); err != nil || r != want {
			t.Errorf("ParseReply(%q) = %v, %v; want %v", text, r, err, want)
		}
	}
	if _, err := blocking.ParseReply("maybe"); err == nil {
		t.Error("ParseReply(maybe): no error")
	}
}
