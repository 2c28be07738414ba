package pins

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
)

// Every wiring docs/hardware.md gives as `boardd sensors` flags, with the
// LEDs on SPI0 as docs/hardware-leds.md wires them, gives no pin two jobs
// (the decoder build also with SPI1 off, as its text says).
func TestDocumentedWiringsUseEachPinOnce(t *testing.T) {
	data, err := os.ReadFile("../../docs/hardware.md")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(data)), " ") // flags wrap across lines
	flags := regexp.MustCompile("Flags: `(--driver [^`]*)`").FindAllStringSubmatch(text, -1)
	if len(flags) != 4 {
		t.Fatalf("found %d wirings' flags in docs/hardware.md, want 4 (hc165, gpiomatrix with decoder and with 74HC595 rows, mcp23017)", len(flags))
	}
	for _, f := range flags {
		args := strings.Fields(strings.NewReplacer("[", "", "]", "").Replace(f[1]))
		opt := map[string]string{}
		for i := 0; i < len(args); i++ {
			if k := args[i]; strings.HasPrefix(k, "--") {
				if i+1 < len(args) && !strings.HasPrefix(args[i+1], "--") {
					i++
					opt[k] = args[i]
				} else {
					opt[k] = ""
				}
			}
		}
		var w Wiring
		must(t, w.SPI("/dev/spidev0.0", "the LEDs", "leds.spi"))
		switch opt["--driver"] {
		case "hc165":
			must(t, w.SPI(opt["--spi"], "the 74HC165 chain", "--spi"))
			must(t, w.GPIO(opt["--latch"], "latch", "--latch"))
		case "gpiomatrix":
			if opt["--row-spi"] != "" {
				must(t, w.SPI(opt["--row-spi"], "rows", "--row-spi"))
			}
			for i, r := range splitComma(opt["--rows"]) {
				must(t, w.GPIO(r, fmt.Sprintf("row %d", i), "--rows"))
			}
			must(t, w.GPIO(opt["--decoder-enable"], "enable", "--decoder-enable"))
			for i, c := range splitComma(opt["--cols"]) {
				must(t, w.GPIO(c, fmt.Sprintf("column %d", i), "--cols"))
			}
		case "mcp23017":
			must(t, w.I2C(opt["--i2c"], "the MCP23017s", "--i2c"))
		default:
			t.Errorf("unknown driver in %q", f[1])
		}
		if c := w.Conflicts(); len(c) > 0 {
			t.Errorf("docs/hardware.md: %s\n%v", f[1], c)
		}
	}
}

func splitComma(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}
