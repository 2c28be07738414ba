package termview

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"boardd/internal/testio"
	"boardd/referee"
	"boardd/rules/square"
	"boardd/sync/broker/brokertest"
)

func testState(seq uint64) string {
	var squares []string
	for _, s := range square.Cross().Squares() {
		squares = append(squares, s.String())
	}
	st := referee.State{
		Board: "club-1", Game: "20261122-193000", Seq: seq, Variant: "teams", Status: "playing", Turn: "Blue",
		Squares: squares, Pieces: map[string]string{"h1": "rK", "h4": "rP", "a7": "bK", "g14": "yK", "n8": "gK"},
		Seats: []referee.SeatState{
			{Seat: "Red", Player: "Ann", Status: "playing", ClockMS: 61000, Running: false},
			{Seat: "Blue", Player: "Bob", Status: "playing", ClockMS: 59000, Running: true},
		},
		Tags: map[string]string{},
	}
	data, _ := json.Marshal(st)
	return string(data)
}

func TestWatch(t *testing.T) {
	url := brokertest.Start(t)
	pub := brokertest.Publisher(t, url)
	brokertest.Publish(t, pub, "boardd/club-1/leds", `{"seq":3,"squares":{"h2":"#00005a","h4":"#00005a"}}`, true)
	brokertest.Publish(t, pub, "boardd/club-2/state", `{"board":"club-2","game":"other"}`, true)

	for _, color := range []bool{false, true} {
		brokertest.Publish(t, pub, "boardd/club-1/state", testState(3), true)
		var out, errb testio.Buffer
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			done <- watch(ctx, brokertest.Client(url, "club", "pw-club"), "club-1", color, watchSilence, &out, &errb)
		}()
		out.WaitFor(t, "board club-1  game 20261122-193000  teams  #3  playing, Blue to move")
		out.WaitFor(t, "Blue   Bob")
		out.WaitFor(t, "0:59 ⏵")
		brokertest.Publish(t, pub, "boardd/club-1/events", `{"seq":4,"kind":"move","seat":"Blue","move":"b7-c7","text":"Blue: b7-c7"}`, false)
		brokertest.Publish(t, pub, "boardd/club-1/events", `{"seq":4,"kind":"move","seat":"Blue","move":"b7-c7","text":"Blue: b7-c7"}`, false)
		brokertest.Publish(t, pub, "boardd/club-1/events", `{"seq":5,"kind":"illegal","text":"no legal move explains the board"}`, false)
		brokertest.Publish(t, pub, "boardd/club-1/state", testState(5), true)
		out.WaitFor(t, "#5 no legal move explains the board")
		out.WaitFor(t, "#5  playing")
		cancel()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		got := out.String()
		if n := strings.Count(got, "#4 Blue: b7-c7"); (!color && n != 1) || (color && n == 0) {
			t.Errorf("color %v: the event of seq 4 shown %d times:\n%s", color, n, got)
		}
		if strings.Contains(got, "other") {
			t.Errorf("another board's state was drawn:\n%s", got)
		}
		if !color {
			// Red's king on h1, the lit empty h2, the pawn on h4.
			for _, line := range []string{" 1          .. .. .. .. rK .. .. .. ", " 2          .. .. .. .. ** .. .. .. ", " 4 .. .. .. .. .. .. .. rP .. .. .. .. .. .. "} {
				if !strings.Contains(got, line) {
					t.Errorf("plain picture lacks %q:\n%s", line, got)
				}
			}
		} else if !strings.Contains(got, "\x1b[48;2;0;0;90mrP") || !strings.Contains(got, "\x1b[H\x1b[2J") {
			t.Errorf("color picture lacks the lit h4 or the redraw:\n%q", got)
		}
	}
}

// Text from the network never reaches the terminal with its control
// characters: a hostile publisher cannot clear or retitle it.
func TestWatchEscapesControls(t *testing.T) {
	url := brokertest.Start(t)
	pub := brokertest.Publisher(t, url)
	brokertest.Publish(t, pub, "boardd/club-1/state", strings.Replace(testState(3), `"Ann"`, `"Ann\u001b]0;pwned\u0007"`, 1), true)
	var out, errb testio.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- watch(ctx, brokertest.Client(url, "club", "pw-club"), "club-1", false, watchSilence, &out, &errb)
	}()
	out.WaitFor(t, `Ann\u001B]0;pwned\u0007`)
	brokertest.Publish(t, pub, "boardd/club-1/events", `{"seq":4,"kind":"move","text":"\u001b[2J\u009b31mBlue: b7-c7"}`, false)
	out.WaitFor(t, `#4 \u001B[2J\u009B31mBlue: b7-c7`)
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := out.String(); strings.ContainsAny(got, "\x1b\x07\u009b") {
		t.Errorf("watch sent control characters to the terminal:\n%q", got)
	}
}

func TestWatchUnreachable(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var out, errb testio.Buffer
	if err := watch(ctx, brokertest.Client("tcp://127.0.0.1:1", "", ""), "b1", false, watchSilence, &out, &errb); err == nil || !strings.Contains(err.Error(), "127.0.0.1:1") {
		t.Errorf("unreachable broker: %v", err)
	}
}

// A wrong user or password says to pass what the board printed.
func TestWatchWrongPassword(t *testing.T) {
	url := brokertest.Start(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for _, tc := range []struct{ user, password, who string }{
		{"club", "wrong", `user "club" and that password`},
		{"nobody", "pw-club", `user "nobody"`},
		{"", "", "no user name"},
	} {
		var out, errb testio.Buffer
		err := watch(ctx, brokertest.Client(url, tc.user, tc.password), "club-1", false, watchSilence, &out, &errb)
		if err == nil || !strings.Contains(err.Error(), tc.who) || !strings.Contains(err.Error(), "pass the user and password the board printed") {
			t.Errorf("user %q password %q: %v", tc.user, tc.password, err)
		}
	}
}

// An unknown --board is reported after a few seconds, with the boards
// that do publish there.
func TestWatchUnknownBoard(t *testing.T) {
	url := brokertest.Start(t)
	pub := brokertest.Publisher(t, url)
	brokertest.Publish(t, pub, "boardd/club-1/status", "online", true)
	brokertest.Publish(t, pub, "boardd/club-2/status", "online", true)
	brokertest.Publish(t, pub, "boardd/club-1/state", testState(3), true)

	ctx, cancel := context.WithCancel(context.Background())
	var out, errb testio.Buffer
	done := make(chan error, 1)
	go func() {
		done <- watch(ctx, brokertest.Client(url, "club", "pw-club"), "club-9", false, 200*time.Millisecond, &out, &errb)
	}()
	errb.WaitFor(t, `no state from board "club-9" on `+url+` after 200ms: check --board (the board's id, config key board); boards on this broker: club-1, club-2`)
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "Ann") {
		t.Errorf("another board's state was drawn:\n%s", out.String())
	}

	// The right board: no such word.
	ctx, cancel = context.WithCancel(context.Background())
	var out2, errb2 testio.Buffer
	go func() {
		done <- watch(ctx, brokertest.Client(url, "club", "pw-club"), "club-1", false, 200*time.Millisecond, &out2, &errb2)
	}()
	out2.WaitFor(t, "board club-1  game")
	time.Sleep(300 * time.Millisecond)
	cancel()
	<-done
	if strings.Contains(errb2.String(), "no state from board") {
		t.Errorf("the silence note for a board that published:\n%s", errb2.String())
	}
}
