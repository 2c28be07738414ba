package sensorreg_test

import (
	"fmt"

	_ "boardd/app/drivers" // every driver registers itself
	"boardd/configs"
	"boardd/sensors"
	"boardd/sensors/sensorreg"
	"boardd/sensors/sim"
)

// A config names a driver; the registry checks its section with the
// config and opens it.
func Example() {
	cfg, err := configs.Parse("boardd.yaml", []byte("sensors:\n  driver: hc165\n  hc165:\n    chips: 19\n"))
	fmt.Println(err)

	cfg, err = configs.Parse("boardd.yaml", []byte("sensors:\n  driver: sim\n"))
	if err != nil {
		panic(err)
	}
	src, _, err := sensorreg.Open(&cfg, sensorreg.Env{Start: sim.StartPosition()})
	if err != nil {
		panic(err)
	}
	m, _ := sensors.SourceMap(src, cfg.Squares(), cfg.Sensors.Wiring)
	fmt.Printf("%s: %d switches, %d squares mapped\n", cfg.Sensors.Driver, src.Bits(), m.Squares().Len())
	// Output:
	// boardd.yaml: line 4: sensors.hc165.chips: 19 chips read 152 switches, but the cross14 board has 160 squares: want 20 (or 0: as many as the board needs)
	// sim: 160 switches, 160 squares mapped
}
