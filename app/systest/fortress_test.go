package systest

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"boardd/app/board"
	"boardd/app/catalog"
	"boardd/app/termsim"
	"boardd/configs"
	"boardd/internal/testio"
	"boardd/leds/ledreg"
	"boardd/referee"
	"boardd/rules/square"
	"boardd/sync/archive"
)

// Russian Fortress Chess is played on 16×16: boardd variants and boardd
// run say it does not fit the 14×14 cross and point to boardd sim, which
// plays it on a simulated 16×16 board, typed and through simulated switches.
func TestFortressNeedsSim(t *testing.T) {
	_, out, _ := runCmd("variants")
	if !strings.Contains(out, "needs a 16×16 board") || !strings.Contains(out, "play it with boardd sim") {
		t.Errorf("boardd variants does not say where russian-fortress can be played:\n%s", out)
	}
	if _, err := catalog.Fitting(square.Cross())("russian-fortress", ""); err == nil || !strings.Contains(err.Error(), "needs a 16×16 board") || !strings.Contains(err.Error(), "boardd sim --variant russian-fortress") {
		t.Errorf("a new russian-fortress game on the cross board: %v", err)
	}
	if _, err := catalog.Fitting(square.Cross())("teams", ""); err != nil {
		t.Errorf("teams on the cross board: %v", err)
	}
	if _, err := catalog.Fitting(square.Full())("russian-fortress", ""); err != nil {
		t.Errorf("russian-fortress on the 16×16 board: %v", err)
	}
	dir := t.TempDir()
	typed := filepath.Join(dir, "typed.txt")
	os.WriteFile(typed, []byte("move e4-e6\nmove Nd4xe6\nmove h13-h11\nmove Nm13-l11\nmove Qh3-g5\n"), 0o644)
	switches := filepath.Join(dir, "switches.txt")
	os.WriteFile(switches, []byte("lift e4\nplace e6\nwait 500ms\nlift e6\nwait 50ms\nlift d4\nwait 50ms\nplace e6\nwait 500ms\nlift h13\nplace h11\nwait 500ms\nlift m13\nwait 50ms\nplace l11\nwait 500ms\n"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"sim", "-q", "--variant", "russian-fortress", "--script", typed}, "1. e4-e6 .. Nd4xe6 .. h13-h11 .. Nm13-l11\n2. Qh3-g5"},
		{[]string{"sim", "-q", "--switches", "--variant", "russian-fortress", "--script", switches}, "1. e4-e6 .. Nd4xe6 .. h13-h11 .. Nm13-l11"},
	} {
		code, out, errOut := runCmd(c.args...)
		if code != 0 || !strings.Contains(out, c.want) {
			t.Errorf("%v: exit %d, want %q in\n%s%s", c.args, code, c.want, out, errOut)
		}
	}
}

// With board_shape: square16 the daemon plays Russian Fortress Chess on a
// simulated 16×16 board: the switches start set up, typed moves go
// through the switches to the referee, the web display's state has the
// 256 squares, MQTT carries the state and events, the journal keeps every
// turn; the cross variants are refused on that board.
func TestRunFortressOnSquare16(t *testing.T) {
	dir := t.TempDir()
	cfg := configs.Defaults()
	cfg.BoardShape, cfg.StateDir = "square16", filepath.Join(dir, "state")
	cfg.Game.Variant = "russian-fortress"
	cfg.Sensors.Quiet = 150 * time.Millisecond
	cfg.MQTT.Embedded.Listen = "127.0.0.1:0"
	cfg.MQTT.Embedded.Users = []configs.User{{Name: "td", Password: "td-secret", Write: true}}
	cfg.Web.Listen, cfg.Web.Password = "127.0.0.1:0", "pw"
	var out testio.Buffer
	d, err := board.Start(context.Background(), cfg, &out, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	closed := false
	defer func() {
		if !closed {
			d.Close()
		}
	}()
	if d.SimBoard.Squares() != square.Full() || d.SimBoard.Bits() != 256 {
		t.Fatalf("simulated switches: %d squares, %d bits", d.SimBoard.Squares().Len(), d.SimBoard.Bits())
	}
	if !strings.Contains(out.String(), "russian-fortress") {
		t.Errorf("the greeting does not name the variant:\n%s", out.String())
	}

	var mu sync.Mutex
	got := map[string]string{}
	opts := paho.NewClientOptions().AddBroker("tcp://" + d.MQTTAddr).SetUsername("td").SetPassword("td-secret").SetClientID("fortress-test")
	c := paho.NewClient(opts)
	if tok := c.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("mqtt connect: %v", tok.Error())
	}
	defer c.Disconnect(100)
	c.Subscribe("boardd/1/#", 1, func(_ paho.Client, m paho.Message) {
		mu.Lock()
		if m.Topic() == "boardd/1/events" {
			got[m.Topic()] += string(m.Payload()) + "\n"
		} else {
			got[m.Topic()] = string(m.Payload())
		}
		mu.Unlock()
	}).WaitTimeout(5 * time.Second)

	st := webState(t, d.WebAddr)
	if st.Variant != "russian-fortress" || len(st.Squares) != 256 || st.Status != "playing" || len(st.Pieces) != 76 || st.Pieces["m4"] != "rN" || st.Pieces["p16"] != "" {
		t.Fatalf("the web display's state: %s, %d squares, status %s, %d pieces, m4=%q", st.Variant, len(st.Squares), st.Status, len(st.Pieces), st.Pieces["m4"])
	}

	// Typed moves, as on the daemon's standard input: each becomes lifts
	// and places on the simulated switches.
	var sim strings.Builder
	for i, mv := range []string{"e4-e6", "Nd4xe6", "h13-h11", "Nm13-l11", "Qh3-g5"} {
		if err := termsim.PlayLine(context.Background(), d.Live, d.SimBoard, mv); err != nil {
			t.Fatalf("%s: %v", mv, err)
		}
		deadline := time.Now().Add(10 * time.Second)
		for len(d.Live.State().Moves) != i+1 {
			if time.Now().After(deadline) {
				t.Fatalf("after %s the board shows %d turns (status %s)", mv, len(d.Live.State().Moves), d.Live.State().Status)
			}
			time.Sleep(20 * time.Millisecond)
		}
		sim.WriteString(d.Live.State().Moves[i].Move + " ")
	}
	if got := sim.String(); got != "e4-e6 Nd4xe6 h13-h11 Nm13-l11 Qh3-g5 " {
		t.Errorf("the referee recorded %s", got)
	}
	if err := termsim.PlayLine(context.Background(), d.Live, d.SimBoard, "lift q1"); err == nil || !strings.Contains(err.Error(), "q1") {
		t.Errorf("a switch line off the 16×16 board: %v", err)
	}
	if err := termsim.PlayLine(context.Background(), d.Live, d.SimBoard, "lift p16"); err != nil { // an empty fortress square: a switch line, not a move
		t.Errorf("lift p16: %v", err)
	}
	termsim.PlayLine(context.Background(), d.Live, d.SimBoard, "place p16")
	st = webState(t, d.WebAddr)
	if len(st.Moves) != 5 || st.Pieces["g5"] != "rQ" || st.Turn != "Blue" {
		t.Errorf("web state after five turns: %d moves, g5=%q, turn %s", len(st.Moves), st.Pieces["g5"], st.Turn)
	}

	wait := func(what string, cond func(map[string]string) bool) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			mu.Lock()
			ok := cond(got)
			mu.Unlock()
			if ok {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("waiting for %s over MQTT", what)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	wait("the state after Qh3-g5", func(g map[string]string) bool {
		var s referee.State
		return json.Unmarshal([]byte(g["boardd/1/state"]), &s) == nil && s.Variant == "russian-fortress" && len(s.Moves) == 5 && len(s.Squares) == 256
	})
	wait("the move events", func(g map[string]string) bool {
		return strings.Contains(g["boardd/1/events"], `"Nm13-l11"`) && strings.Contains(g["boardd/1/events"], `"Qh3-g5"`)
	})

	// A new game of a cross variant is refused on this board.
	if r := d.Live.Do(context.Background(), referee.Command{Name: "new_game", Variant: "teams"}); !strings.Contains(r.Error, "teams does not fit this board: needs a 14×14 board; this board is 16×16") || !strings.Contains(r.Error, "board_shape: cross14") {
		t.Errorf("new_game teams on the 16×16 board: %+v", r)
	}

	closed = true
	d.Close()
	rec := &archive.Recorder{Dir: cfg.StateDir, Lookup: catalog.Variant}
	res, err := rec.Resume()
	if err != nil || res == nil {
		t.Fatalf("the journal: %v", err)
	}
	if res.Game.Variant().Name != "russian-fortress" || len(res.Game.Records()) != 5 {
		t.Errorf("the journal: %s, %d turns", res.Game.Variant().Name, len(res.Game.Records()))
	}
}

// Each board refuses the other's variants at start, saying which board
// shape they need; the sensors command and the variants listing take the
// shape too.
func TestBoardShapeRefusesOtherVariants(t *testing.T) {
	for _, tc := range []struct {
		shape, variant string
		want           []string
	}{
		{"cross14", "russian-fortress", []string{"russian-fortress does not fit this board: needs a 16×16 board (96 squares this board does not have)", "board_shape: square16", "boardd sim --variant russian-fortress"}},
		{"square16", "teams", []string{"teams does not fit this board: needs a 14×14 board; this board is 16×16 (60 squares beyond the variant's board)", "board_shape: cross14"}},
		{"square16", "stevenson", []string{"stevenson does not fit this board: needs a 14×14 board", "board_shape: cross14"}},
	} {
		cfg := configs.Defaults()
		cfg.BoardShape, cfg.StateDir, cfg.Game.Variant = tc.shape, t.TempDir(), tc.variant
		cfg.MQTT.Disabled, cfg.Web.Listen = true, "off"
		d, err := board.Start(context.Background(), cfg, io.Discard, io.Discard)
		if err == nil {
			d.Close()
			t.Errorf("%s on %s: started", tc.variant, tc.shape)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s on %s: %v\nwant %q", tc.variant, tc.shape, err, w)
			}
		}
	}
	// A wiring map file is checked against the configured board.
	wiring := filepath.Join(t.TempDir(), "wiring.yaml")
	var w strings.Builder
	w.WriteString("squares:\n")
	for _, q := range square.Cross().Squares() {
		w.WriteString("  - " + q.String() + "\n")
	}
	os.WriteFile(wiring, []byte(w.String()), 0o644)
	cfg := configs.Defaults()
	cfg.BoardShape, cfg.StateDir, cfg.Game.Variant, cfg.Sensors.Wiring = "square16", t.TempDir(), "russian-fortress", wiring
	cfg.MQTT.Disabled, cfg.Web.Listen = true, "off"
	if d, err := board.Start(context.Background(), cfg, io.Discard, io.Discard); err == nil {
		d.Close()
		t.Error("a cross wiring map on the 16×16 board accepted")
	} else if !strings.Contains(err.Error(), "wiring.yaml: 96 square(s) have no switch bit: a1 b1 c1 l1 m1 n1 o1 p1") {
		t.Errorf("a cross wiring map on the 16×16 board: %v", err)
	}
	// A LED map file for the 16×16 board: 256 LEDs in strip order.
	ledMap := filepath.Join(t.TempDir(), "leds.yaml")
	var l strings.Builder
	l.WriteString("order:\n")
	for _, q := range square.Full().Squares() {
		l.WriteString("  - " + q.String() + "\n")
	}
	os.WriteFile(ledMap, []byte(l.String()), 0o644)
	lc := configs.Defaults().LEDs
	lc.Driver, lc.Map = "term", ledMap
	if _, err := ledreg.Open(lc, square.Full(), ledreg.Env{Term: io.Discard}); err != nil {
		t.Errorf("a 256-LED map file: %v", err)
	}
	if _, err := ledreg.Open(lc, square.Cross(), ledreg.Env{Term: io.Discard}); err == nil || !strings.Contains(err.Error(), "line 2: LED 0: \"a1\" is not a square of the board") {
		t.Errorf("a 256-LED map file on the cross: %v", err)
	}

	_, out, _ := runCmd("variants", "--board-shape", "square16")
	if !regexp.MustCompile(`(?m)^russian-fortress +(.*\n)[^\n]*fits this board`).MatchString(out) || !regexp.MustCompile(`(?m)^teams +(.*\n)[^\n]*does not fit this board: needs a 14×14 board`).MatchString(out) {
		t.Errorf("boardd variants --board-shape square16:\n%s", out)
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "s.txt")
	os.WriteFile(script, []byte("lift m4\nwait 100ms\nplace p16\nwait 100ms\n"), 0o644)
	code, out, errOut := runCmd("sensors", "--board-shape", "square16", "--script", script)
	if code != 0 || !strings.Contains(out, "lift m4") || !strings.Contains(out, "place p16") || !strings.Contains(out, "a b c d e f g h i j k l m n o p") || !strings.Contains(out, "76 squares occupied") {
		t.Errorf("boardd sensors --board-shape square16: exit %d\n%s%s", code, out, errOut)
	}
}
