package sensors_test

import (
	"fmt"
	"strings"
	"time"

	"boardd/sensors"
	"boardd/sensors/sim"
)

// A simulated board, a scanner on a manual clock and a script: the whole
// pipeline with no hardware and no sleeping.
func Example() {
	clk := sim.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	board := sim.New(sim.StartPosition(), clk.Now)
	sc, err := sensors.NewScanner(board, board.Map(), sensors.Config{
		OnEvent: func(e sensors.Event) {
			fmt.Printf("%v after %v (debounced %v)\n", e, e.Time.Sub(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)), e.Time.Sub(e.Began)+sensors.DefaultPeriod)
		},
	})
	if err != nil {
		panic(err)
	}
	sc.Step(clk.Now()) // the first scan seeds the state: no events

	script, err := sim.ParseScript("e2e4.txt", strings.NewReader(`
lift e2         # Red's e-pawn
wait 50ms
place e4
bounce e4 5     # the landing bounces for 5 ms
wait 50ms
`))
	if err != nil {
		panic(err)
	}
	if err := script.Play(board, sim.VirtualWait(sc, clk)); err != nil {
		panic(err)
	}
	occ, _ := sc.Snapshot()
	fmt.Println(occ.Len(), "squares occupied")
	// Output:
	// lift e2 after 20ms (debounced 20ms)
	// place e4 after 70ms (debounced 20ms)
	// 64 squares occupied
}

// A wiring map in YAML: errors name the file and line.
func ExampleParseMap() {
	_, err := sensors.ParseMap("wiring.yaml", []byte("bits: 160\nsquares:\n  - [d1, e1, f1]\n  - [g1, e1]\n"), 160)
	fmt.Println(err)
	// Output:
	// wiring.yaml:4: square e1 is mapped twice (bit 1, line 3, and bit 4)
}
