package hc165_test

import (
	"context"
	"fmt"
	"log"

	"periph.io/x/conn/v3/gpio/gpioreg"
	"periph.io/x/conn/v3/spi/spireg"
	"periph.io/x/host/v3"

	"boardd/internal/pi"
	"boardd/sensors"
	"boardd/sensors/hc165"
)

func Example() {
	if _, err := host.Init(); err != nil {
		log.Fatal(err)
	}
	port, err := spireg.Open("/dev/spidev1.0")
	if err != nil {
		log.Fatal(err)
	}
	defer port.Close()
	latch := gpioreg.ByName("GPIO16")
	if latch == nil {
		log.Fatal("no GPIO16")
	}
	// SPI1 of a Pi 1-4 is the auxiliary controller: mode 0 there, mode 2
	// on a full one. The chain ends in the check chip (0xA5).
	mode := hc165.ModeFor(pi.KindOf(pi.Model("/")), 1)
	chain, err := hc165.New(port, latch, &hc165.Opts{Chips: 20, Mode: &mode, CheckChip: true})
	if err != nil {
		log.Fatal(err)
	}
	sc, err := sensors.NewScanner(chain, sensors.StandardMap(), sensors.Config{
		OnEvent: func(e sensors.Event) { fmt.Println(e.Time.Format("15:04:05.000"), e) },
	})
	if err != nil {
		log.Fatal(err)
	}
	log.Fatal(sc.Run(context.Background()))
}
