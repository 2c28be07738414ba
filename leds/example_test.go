package leds_test

import (
	"fmt"

	"boardd/leds"
	"boardd/rules/square"
)

// A board wired as one serpentine strip with a 4 A supply: full white
// (9.76 A with the LEDs' idle draw) is
// dimmed evenly to fit the budget, and each square's colour lands on its
// LED.
func Example() {
	board := square.Cross()
	m, err := leds.ParseMap("leds.yaml", []byte("layout: serpentine\n"), board, 160)
	if err != nil {
		fmt.Println(err)
		return
	}
	out, _ := leds.NewOutput(m, 1, leds.DefaultPower)
	f := leds.NewFrame()
	for _, s := range board.Squares() {
		f.Set(s, leds.White)
	}
	px := make([]leds.Color, out.Len())
	amps := out.Render(f, px)
	fmt.Printf("%d LEDs, %.2f A, h1 is LED %d: %v\n", out.Len(), amps, m.Index(mustParse("h1")), px[m.Index(mustParse("h1"))])

	var strip leds.Strip = leds.Null{N: out.Len()} // or apa102.New, ws2812.New, &term.Strip{}
	w := leds.NewWriter(strip, func(err error) { fmt.Println("LED write:", err) })
	w.Show(px) // never blocks
	w.Close()
	// Output:
	// 160 LEDs, 3.96 A, h1 is LED 4: {101 101 101}
}

// ParseMap names the line of a wiring mistake.
func ExampleParseMap() {
	var board square.Set
	for _, n := range []string{"d1", "e1", "f1"} {
		board.Add(mustParse(n))
	}
	_, err := leds.ParseMap("leds.yaml", []byte("order:\n  - d1\n  - e1\n  - d1\n"), board, 3)
	fmt.Println(err)
	// Output:
	// leds.yaml: line 4: LED 2: square d1 already has LED 0
}

func mustParse(name string) square.Square {
	s, err := square.Parse(name)
	if err != nil {
		panic(err)
	}
	return s
}
