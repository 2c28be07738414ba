package pins

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The header pins that config.txt lines take, from the Raspberry Pi
// kernel's arch/arm/boot/dts/overlays/README ("Name:", "Params:" and the
// defaults it gives for each overlay) and the base DT parameters listed at
// its top. Only the 40-pin header's GPIO 0–27 are listed; pins that exist
// on Compute Modules only (SPI2 on GPIO 40–45, I2C on 44/45) are left out.

// BootPin is one GPIO a config.txt line takes, with what it does there.
type BootPin struct {
	GPIO   int
	Signal string
	// Param is the overlay parameter that moves the pin ("": fixed).
	Param string
}

// ovPin is one pin of an overlay: its signal, its default GPIO (-1: none
// unless param is given), the parameter that moves it, and the boolean
// parameter that adds it (ifSet) or drops it (unless).
type ovPin struct {
	signal string
	gpio   int
	param  string
	ifSet  string
	unless string
}

// ovDef is what one overlay is and takes. choices are pins_A_B parameters
// that move a pair of pins (the first is the default).
type ovDef struct {
	what    string
	pins    []ovPin
	choices []choice
}

type choice struct {
	param string
	gpios [2]int
}

func spiPins(bus, miso, mosi, sclk int, ce ...int) []ovPin {
	out := []ovPin{{signal: "MISO", gpio: miso, unless: "no_miso"}, {signal: "MOSI", gpio: mosi}, {signal: "SCLK", gpio: sclk}}
	for i, g := range ce {
		out = append(out, ovPin{signal: fmt.Sprintf("CE%d", i), gpio: g, param: fmt.Sprintf("cs%d_pin", i)})
	}
	return out
}

func i2c(what string, choices ...choice) ovDef {
	return ovDef{what: what, choices: choices}
}

// i2sPins are the PCM/I²S pins (PCM_CLK, PCM_FS, PCM_DIN, PCM_DOUT) that
// dtparam=i2s=on and every I²S sound card overlay take.
var i2sPins = []ovPin{{signal: "I2S BCLK", gpio: 18}, {signal: "I2S LRCLK", gpio: 19}, {signal: "I2S DIN", gpio: 20}, {signal: "I2S DOUT", gpio: 21}}

var overlays = map[string]ovDef{
	"spi0-1cs": {what: "SPI0", pins: spiPins(0, 9, 10, 11, 8)},
	"spi0-2cs": {what: "SPI0", pins: spiPins(0, 9, 10, 11, 8, 7)},
	"spi0-cs":  {what: "SPI0", pins: spiPins(0, 9, 10, 11, 8, 7)},
	"spi1-1cs": {what: "SPI1", pins: spiPins(1, 19, 20, 21, 18)},
	"spi1-2cs": {what: "SPI1", pins: spiPins(1, 19, 20, 21, 18, 17)},
	"spi1-3cs": {what: "SPI1", pins: spiPins(1, 19, 20, 21, 18, 17, 16)},
	"spi3-1cs": {what: "SPI3", pins: spiPins(3, 1, 2, 3, 0)},
	"spi3-2cs": {what: "SPI3", pins: spiPins(3, 1, 2, 3, 0, 24)},
	"spi4-1cs": {what: "SPI4", pins: spiPins(4, 5, 6, 7, 4)},
	"spi4-2cs": {what: "SPI4", pins: spiPins(4, 5, 6, 7, 4, 25)},
	"spi5-1cs": {what: "SPI5", pins: spiPins(5, 13, 14, 15, 12)},
	"spi5-2cs": {what: "SPI5", pins: spiPins(5, 13, 14, 15, 12, 26)},
	"spi6-1cs": {what: "SPI6", pins: spiPins(6, 19, 20, 21, 18)},
	"spi6-2cs": {what: "SPI6", pins: spiPins(6, 19, 20, 21, 18, 27)},
	// A Pi 5's (bcm2712 only; the firmware loads them for spiN-Mcs there).
	"spi2-1cs-pi5": {what: "SPI2", pins: spiPins(2, 1, 2, 3, 0)},
	"spi2-2cs-pi5": {what: "SPI2", pins: spiPins(2, 1, 2, 3, 0, 24)},
	"spi3-1cs-pi5": {what: "SPI3", pins: spiPins(3, 5, 6, 7, 4)},
	"spi3-2cs-pi5": {what: "SPI3", pins: spiPins(3, 5, 6, 7, 4, 25)},
	"spi5-1cs-pi5": {what: "SPI5", pins: spiPins(5, 13, 14, 15, 12)},
	"spi5-2cs-pi5": {what: "SPI5", pins: spiPins(5, 13, 14, 15, 12, 26)},

	"i2c0": i2c("I2C0", choice{"pins_0_1", [2]int{0, 1}}),
	"i2c1": i2c("I2C1", choice{"pins_2_3", [2]int{2, 3}}),
	"i2c3": i2c("I2C3", choice{"pins_4_5", [2]int{4, 5}}, choice{"pins_2_3", [2]int{2, 3}}),
	"i2c4": i2c("I2C4", choice{"pins_8_9", [2]int{8, 9}}, choice{"pins_6_7", [2]int{6, 7}}),
	"i2c5": i2c("I2C5", choice{"pins_12_13", [2]int{12, 13}}, choice{"pins_10_11", [2]int{10, 11}}),
	"i2c6": i2c("I2C6", choice{"pins_22_23", [2]int{22, 23}}, choice{"pins_0_1", [2]int{0, 1}}),
	"i2c-gpio": {what: "I²C in software", pins: []ovPin{
		{signal: "SDA", gpio: 23, param: "i2c_gpio_sda"}, {signal: "SCL", gpio: 24, param: "i2c_gpio_scl"}}},
	"i2c-rtc-gpio": {what: "an I²C clock chip in software", pins: []ovPin{
		{signal: "SDA", gpio: 23, param: "i2c_gpio_sda"}, {signal: "SCL", gpio: 24, param: "i2c_gpio_scl"}}},

	"w1-gpio":        {what: "1-Wire", pins: []ovPin{{signal: "data", gpio: 4, param: "gpiopin"}}},
	"w1-gpio-pullup": {what: "1-Wire", pins: []ovPin{{signal: "data", gpio: 4, param: "gpiopin"}, {signal: "pull-up", gpio: 5, param: "extpullup"}}},

	"uart0": {what: "UART0", pins: []ovPin{{signal: "TXD", gpio: 14, param: "txd0_pin"}, {signal: "RXD", gpio: 15, param: "rxd0_pin"}}},
	"uart1": {what: "UART1", pins: []ovPin{{signal: "TXD", gpio: 14, param: "txd1_pin"}, {signal: "RXD", gpio: 15, param: "rxd1_pin"}}},
	"uart2": {what: "UART2", pins: []ovPin{{signal: "TXD", gpio: 0}, {signal: "RXD", gpio: 1}, {signal: "CTS", gpio: 2, ifSet: "ctsrts"}, {signal: "RTS", gpio: 3, ifSet: "ctsrts"}}},
	"uart3": {what: "UART3", pins: []ovPin{{signal: "TXD", gpio: 4}, {signal: "RXD", gpio: 5}, {signal: "CTS", gpio: 6, ifSet: "ctsrts"}, {signal: "RTS", gpio: 7, ifSet: "ctsrts"}}},
	"uart4": {what: "UART4", pins: []ovPin{{signal: "TXD", gpio: 8}, {signal: "RXD", gpio: 9}, {signal: "CTS", gpio: 10, ifSet: "ctsrts"}, {signal: "RTS", gpio: 11, ifSet: "ctsrts"}}},
	"uart5": {what: "UART5", pins: []ovPin{{signal: "TXD", gpio: 12}, {signal: "RXD", gpio: 13}, {signal: "CTS", gpio: 14, ifSet: "ctsrts"}, {signal: "RTS", gpio: 15, ifSet: "ctsrts"}}},

	"pwm":       {what: "PWM", pins: []ovPin{{signal: "PWM0", gpio: 18, param: "pin"}}},
	"pwm-2chan": {what: "PWM", pins: []ovPin{{signal: "PWM0", gpio: 18, param: "pin"}, {signal: "PWM1", gpio: 19, param: "pin2"}}},
	"pwm-ir-tx": {what: "infrared out (PWM)", pins: []ovPin{{signal: "out", gpio: 18, param: "gpio_pin"}}},
	"audremap": {what: "PWM audio on the header", choices: []choice{
		{"pins_12_13", [2]int{12, 13}}, {"pins_18_19", [2]int{18, 19}}}},
	"gpio-ir":       {what: "infrared in", pins: []ovPin{{signal: "in", gpio: 18, param: "gpio_pin"}}},
	"gpio-ir-tx":    {what: "infrared out", pins: []ovPin{{signal: "out", gpio: 18, param: "gpio_pin"}}},
	"pps-gpio":      {what: "a PPS time signal", pins: []ovPin{{signal: "in", gpio: 18, param: "gpiopin"}}},
	"gpio-fan":      {what: "a fan switch", pins: []ovPin{{signal: "out", gpio: 12, param: "gpiopin"}}},
	"gpio-shutdown": {what: "a shutdown button", pins: []ovPin{{signal: "in", gpio: 3, param: "gpio_pin"}}},
	"gpio-poweroff": {what: "a power-off signal", pins: []ovPin{{signal: "out", gpio: 26, param: "gpiopin"}}},
	"gpio-key":      {what: "a key", pins: []ovPin{{signal: "in", gpio: 3, param: "gpio"}}},
	"gpio-led":      {what: "an LED", pins: []ovPin{{signal: "out", gpio: 19, param: "gpio"}}},
	"act-led":       {what: "the activity LED", pins: []ovPin{{signal: "out", gpio: -1, param: "gpio"}}},
	"sdio": {what: "SDIO", pins: []ovPin{{signal: "CLK", gpio: 22}, {signal: "CMD", gpio: 23}, {signal: "DAT0", gpio: 24}, {signal: "DAT1", gpio: 25},
		{signal: "DAT2", gpio: 26, unless: "gpios_22_25"}, {signal: "DAT3", gpio: 27, unless: "gpios_22_25"}}},
	"tc358743-audio": {what: "HDMI audio over I²S", pins: i2sPins[:3]},
}

// i2sCards are the sound-card overlays of the README that use the I²S
// (PCM) pins, GPIO 18–21 (some also use I²C1 for their codec).
var i2sCards = []string{
	"adau1977-adc", "adau7002-simple", "allo-boss-dac-pcm512x-audio", "allo-boss2-dac-audio", "allo-digione", "allo-katana-dac-audio",
	"allo-piano-dac-pcm512x-audio", "allo-piano-dac-plus-pcm512x-audio", "applepi-dac", "audioinjector-addons", "audioinjector-isolated-soundcard",
	"audioinjector-ultra", "audioinjector-wm8731-audio", "audiosense-pi", "chipdip-dac", "dionaudio-kiwi", "dionaudio-loco", "dionaudio-loco-v2",
	"fe-pi-audio", "googlevoicehat-soundcard", "hifiberry-amp", "hifiberry-amp100", "hifiberry-amp3", "hifiberry-dac", "hifiberry-dac8x",
	"hifiberry-dacplus", "hifiberry-dacplusadc", "hifiberry-dacplusadcpro", "hifiberry-dacplusdsp", "hifiberry-dacplushd", "hifiberry-digi",
	"hifiberry-digi-pro", "i-sabre-q2m", "i2s-dac", "iqaudio-codec", "iqaudio-dac", "iqaudio-dacplus", "iqaudio-digi-wm8804-audio",
	"justboom-both", "justboom-dac", "justboom-digi", "max98357a", "merus-amp", "pibell", "pifi-40", "pifi-dac-hd", "pifi-dac-zero",
	"pifi-mini-210", "pisound", "proto-codec", "rpi-cirrus-wm5102", "rpi-dac", "rpi-proto", "rra-digidac1-wm8741-audio",
	"superaudioboard", "udrc", "ugreen-dabboard", "wm8960-soundcard",
}

func init() {
	for _, c := range i2sCards {
		overlays[c] = ovDef{what: "the I²S sound card " + c, pins: i2sPins}
	}
}

// pi5Overlays are the overlays the firmware loads in place of others on
// a Pi 5 (the kernel's overlay_map: the RP1 has these buses on other
// pins), and notOnPi5 those it does not load there at all.
var (
	pi5Overlays = map[string]string{
		"spi2-1cs": "spi2-1cs-pi5", "spi2-2cs": "spi2-2cs-pi5",
		"spi3-1cs": "spi3-1cs-pi5", "spi3-2cs": "spi3-2cs-pi5",
		"spi5-1cs": "spi5-1cs-pi5", "spi5-2cs": "spi5-2cs-pi5",
	}
	notOnPi5 = []string{"spi4-1cs", "spi4-2cs", "spi6-1cs", "spi6-2cs"}
)

// Loaded is the overlay the firmware loads for dtoverlay=name: on a Pi 5
// spi3-1cs is spi3-1cs-pi5, and an overlay of a bus the Pi 5 does not
// have on its header (SPI4, SPI6) loads nothing (ok false). Elsewhere
// an overlay made for the Pi 5 only (*-pi5) loads nothing.
func Loaded(name string, pi5 bool) (loaded string, ok bool) {
	if !pi5 {
		return name, !strings.HasSuffix(name, "-pi5")
	}
	if slices.Contains(notOnPi5, name) {
		return "", false
	}
	if n, ok := pi5Overlays[name]; ok {
		return n, true
	}
	return name, true
}

// Overlay returns the header pins dtoverlay=name,params takes, and what
// the overlay is ("SPI1", "1-Wire"); known is false for an overlay this
// table does not list (its pins are not checked). name is the overlay
// loaded (Loaded).
func Overlay(name string, params map[string]string) (what string, pins []BootPin, known bool) {
	d, ok := overlays[name]
	if !ok {
		return "", nil, false
	}
	for _, p := range d.pins {
		if p.ifSet != "" && !isSet(params, p.ifSet) || p.unless != "" && isSet(params, p.unless) {
			continue
		}
		g := p.gpio
		if v, ok := params[p.param]; ok && p.param != "" {
			if n, err := strconv.Atoi(v); err == nil {
				g = n
			}
		}
		if g >= 0 && g <= 27 {
			pins = append(pins, BootPin{GPIO: g, Signal: d.what + " " + p.signal, Param: p.param})
		}
	}
	if len(d.choices) > 0 {
		pair := d.choices[0].gpios
		for _, c := range d.choices[1:] {
			if isSet(params, c.param) {
				pair = c.gpios
			}
		}
		for i, g := range pair {
			pins = append(pins, BootPin{GPIO: g, Signal: fmt.Sprintf("%s %s", d.what, [...]string{"SDA", "SCL"}[i])})
		}
		if strings.HasPrefix(d.what, "PWM") {
			pins[len(pins)-2].Signal, pins[len(pins)-1].Signal = d.what+" left", d.what+" right"
		}
	}
	return d.what, pins, true
}

// OverlayParam says p is a parameter of overlay name (a dtparam line
// after the overlay's dtoverlay line sets it).
func OverlayParam(name, p string) bool {
	d, ok := overlays[name]
	if !ok {
		return false
	}
	return slices.ContainsFunc(d.pins, func(o ovPin) bool { return o.param == p || o.ifSet == p || o.unless == p }) ||
		slices.ContainsFunc(d.choices, func(c choice) bool { return c.param == p })
}

// BaseParam returns the header pins the base DT parameter dtparam=name=on
// takes (spi, i2c_arm, i2c_vc, i2s); nil for the others.
func BaseParam(name string) []BootPin {
	switch name {
	case "spi":
		_, p, _ := Overlay("spi0-2cs", nil)
		return p
	case "i2c_arm", "i2c":
		_, p, _ := Overlay("i2c1", nil)
		return p
	case "i2c_vc":
		_, p, _ := Overlay("i2c0", nil)
		return p
	case "i2s":
		return []BootPin{{GPIO: 18, Signal: "I2S BCLK"}, {GPIO: 19, Signal: "I2S LRCLK"}, {GPIO: 20, Signal: "I2S DIN"}, {GPIO: 21, Signal: "I2S DOUT"}}
	}
	return nil
}

// UARTPins are the pins enable_uart=1 gives the serial console (UART0 or
// the mini UART, whichever is primary): TXD GPIO 14, RXD GPIO 15.
var UARTPins = []BootPin{{GPIO: 14, Signal: "serial console TXD"}, {GPIO: 15, Signal: "serial console RXD"}}

// isSet reads a boolean overlay parameter: given bare, or =on/true/yes/1.
func isSet(params map[string]string, p string) bool {
	v, ok := params[p]
	if !ok {
		return false
	}
	switch strings.ToLower(v) {
	case "", "on", "true", "yes", "1", "okay":
		return true
	}
	return false
}

// ParseOverlay splits a dtoverlay value "name,p1=v1,p2" into its name and
// parameters (a bare parameter has the value "").
func ParseOverlay(val string) (name string, params map[string]string) {
	parts := strings.Split(val, ",")
	params = map[string]string{}
	for _, p := range parts[1:] {
		k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
		params[k] = v
	}
	return strings.TrimSpace(parts[0]), params
}

// Boot adds the pins a config.txt line takes as one claim: who says what
// and where (e.g. "`dtoverlay=spi1-3cs` in /boot/firmware/config.txt"),
// key is the line.
func (w *Wiring) Boot(pins []BootPin, who, key string) {
	if len(pins) == 0 {
		return
	}
	o := w.claim()
	for _, p := range pins {
		w.Jobs = append(w.Jobs, Job{GPIO: p.GPIO, What: fmt.Sprintf("%s (%s)", p.Signal, who), Key: key, owner: o})
	}
}

// BusPins are the GPIOs a driver's SPI device /dev/spidevN.C takes as
// SPI adds them (MISO, MOSI, SCLK and the chip select; both chip selects
// on SPI0), or I²C bus N's SDA and SCL, on the wiring's Pi.
func (w *Wiring) BusPins(b Bus) []int {
	if b.I2C {
		switch b.N {
		case 1:
			return []int{2, 3}
		case 0:
			return []int{0, 1}
		}
		return nil
	}
	s, ok := w.spiBus(b.N)
	if !ok || b.CS >= len(s.ce) {
		return nil
	}
	out := []int{s.miso, s.mosi, s.sclk, s.ce[b.CS]}
	if b.N == 0 {
		out = append(out, s.ce[1])
	}
	return out
}
