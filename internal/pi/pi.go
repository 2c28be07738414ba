// Package pi tells which Raspberry Pi boardd runs on, from the device
// tree under a root directory (/ on the Pi, a fixture tree in tests), and
// opens GPIOs the way that model needs.
package pi

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpioreg"
	"periph.io/x/host/v3"
	"periph.io/x/host/v3/gpioioctl"

	"boardd/internal/pins"
)

// Kind is a family of Pi that differs in what boardd needs from it.
type Kind int

// The kinds of board.
const (
	// NotPi: no Raspberry Pi model in the device tree (a laptop, CI).
	NotPi Kind = iota
	// Pi1 is a Pi 1, Zero or Zero W (ARMv6: the armhf package).
	Pi1
	// Pi2 is a Pi 2.
	Pi2
	// Pi3 is a Pi 3, 3+ or Zero 2 W (BCM2837: SPI0's clock follows the
	// core clock).
	Pi3
	// Pi4 is a Pi 4, 400 or CM4 (BCM2711).
	Pi4
	// Pi5 is a Pi 5, 500 or CM5 (BCM2712, GPIO on the RP1 chip: only the
	// GPIO character device drives it).
	Pi5
)

func (k Kind) String() string {
	return [...]string{"not a Raspberry Pi", "Pi 1/Zero", "Pi 2", "Pi 3/Zero 2 W", "Pi 4", "Pi 5"}[k]
}

// Model returns the device tree's model string under root, e.g.
// "Raspberry Pi 4 Model B Rev 1.4", or "" if there is none.
func Model(root string) string {
	for _, p := range []string{"proc/device-tree/model", "sys/firmware/devicetree/base/model"} {
		if b, err := os.ReadFile(filepath.Join(root, p)); err == nil {
			return strings.TrimRight(strings.TrimSpace(string(b)), "\x00")
		}
	}
	return ""
}

// KindOf tells the kind of board from its model string.
func KindOf(model string) Kind {
	switch {
	case !strings.HasPrefix(model, "Raspberry Pi"):
		return NotPi
	case strings.Contains(model, "Zero 2"):
		return Pi3
	case strings.Contains(model, "Zero"), strings.Contains(model, "Pi Model"), strings.HasPrefix(model, "Raspberry Pi Compute Module Rev"):
		return Pi1
	case strings.Contains(model, "Pi 2"):
		return Pi2
	case strings.Contains(model, "Pi 3"), strings.Contains(model, "Compute Module 3"):
		return Pi3
	case strings.Contains(model, "Pi 4"), strings.Contains(model, "Pi 400"), strings.Contains(model, "Compute Module 4"):
		return Pi4
	case strings.Contains(model, "Pi 5"), strings.Contains(model, "Pi 500"), strings.Contains(model, "Compute Module 5"):
		return Pi5
	}
	return NotPi
}

// GPIO returns the pin called name (GPIO17, 17 or P1_11) on this machine.
// On a Pi 5 it is always the GPIO character device's line: periph's
// memory-mapped driver maps the Pi 4's GPIO block when it runs as root,
// and on a Pi 5 that address is not the GPIO (it lives on the RP1 chip),
// so as root the pins would silently do nothing. Elsewhere it is periph's
// registry (call host.Init first).
func GPIO(name string) (gpio.PinIO, error) {
	if KindOf(Model("/")) != Pi5 {
		if p := gpioreg.ByName(name); p != nil {
			return p, nil
		}
		return nil, fmt.Errorf("no GPIO named %q on this machine", name)
	}
	n, err := pins.ParseGPIO(name)
	if err != nil {
		return nil, err
	}
	line := fmt.Sprintf("GPIO%d", n)
	for _, c := range gpioioctl.Chips {
		if l := c.ByName(line); l != nil {
			return l, nil
		}
	}
	return nil, fmt.Errorf("%s: no line %s on any /dev/gpiochip* (on a Pi 5, boardd drives GPIO through the character device only; is the kernel older than 6.1?)", name, line)
}

// Host initialises periph's host drivers (SPI, I²C, GPIO registries); a
// driver calls it before it opens a bus or a pin. It is safe to call more
// than once.
func Host() error {
	if _, err := host.Init(); err != nil {
		return fmt.Errorf("periph host init: %v", err)
	}
	return nil
}

// Out opens the GPIO called name for output (GPIO); the error asks
// whether this is a Pi at all.
func Out(name string) (gpio.PinOut, error) {
	p, err := GPIO(name)
	if err != nil {
		return nil, fmt.Errorf("%v (is this a Raspberry Pi?)", err)
	}
	return p, nil
}

// SPIAux says SPI bus n of a Pi of kind k is the auxiliary SPI controller
// (Linux drivers/spi/spi-bcm2835aux.c): SPI1 and SPI2 of a Pi 1–4, Zero,
// Zero W and Zero 2 W. It supports only CPHA=0 modes ("master->mode_bits
// = (SPI_CPOL | SPI_CS_HIGH | SPI_NO_CS)") and clears CPOL after every
// message (bcm2835aux_spi_reset_hw writes CNTL0 = CLEARFIFO), so its clock
// idles low between transfers whatever the mode. SPI0 of every Pi, SPI3–6
// of a Pi 4 (spi-bcm2835) and every SPI of a Pi 5 (the RP1's DesignWare
// controllers) are full controllers. Not a Pi: false.
func SPIAux(k Kind, bus int) bool {
	return (bus == 1 || bus == 2) && k >= Pi1 && k <= Pi4
}
