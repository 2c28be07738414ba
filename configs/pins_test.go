package configs_test

import (
	"strings"
	"testing"

	_ "boardd/app/drivers" // the drivers check their sections
	"boardd/configs"
)

// The config check refuses a wiring that gives one pin two jobs, naming
// the line of the second job's key and both jobs; an SPI mode that loses
// the chain's first bit; and a scan rate the MCP23017s' bus cannot do.
func TestConfigRefusesPinWithTwoJobs(t *testing.T) {
	tests := []struct{ name, yaml, want string }{
		{"documented hc165 + apa102", "sensors:\n  driver: hc165\nleds:\n  driver: apa102\n", ""},
		{"matrix with 74HC595 rows and the columns of the decoder build",
			"sensors:\n  driver: gpiomatrix\n  gpiomatrix:\n    row_spi: /dev/spidev1.0\n    cols: [GPIO17, GPIO27, GPIO22, GPIO23, GPIO24, GPIO25, GPIO4, GPIO16, GPIO19, GPIO20]\n",
			"f.yaml: line 5: sensors.gpiomatrix.cols: GPIO19 has two jobs: SPI1 MISO (the 74HC595 rows, sensors.gpiomatrix.row_spi /dev/spidev1.0) and matrix column 8 (sensors.gpiomatrix.cols GPIO19)"},
		{"latch on the LEDs' clock", "sensors:\n  driver: hc165\n  hc165:\n    latch: GPIO11\nleds:\n  driver: ws2812\n",
			"f.yaml: line 6: leds.ws2812.spi: GPIO11 has two jobs: the 74HC165 latch (sensors.hc165.latch GPIO11) and SPI0 SCLK (the ws2812 LEDs, leds.ws2812.spi /dev/spidev0.0)"},
		{"not a pin", "sensors:\n  driver: hc165\n  hc165:\n    latch: GPIO99\n", `f.yaml: line 4: sensors.hc165.latch: "GPIO99": want a GPIO name`},
		{"LEDs off: SPI0 free for the switches", "sensors:\n  driver: hc165\n  hc165:\n    spi: /dev/spidev0.0\n", ""},
		{"SPI mode 1", "sensors:\n  hc165:\n    spi_mode: 1\n", `f.yaml: line 3: sensors.hc165.spi_mode: "1": want auto`},
		{"SPI mode 0", "sensors:\n  driver: hc165\n  hc165:\n    spi_mode: 0\n", ""},
		{"MCP23017 matrix at 200 Hz on 400 kHz", "sensors:\n  driver: mcp23017\n  rate: 200\n",
			"f.yaml: line 3: sensors.rate: 200 scans per second: 3 MCP23017s as a matrix take about 5.3ms a scan on a 400000 Hz I²C bus, so at most 150 scans per second fit; set sensors.rate: 100 or lower"},
		{"MCP23017 matrix at 100 Hz on 400 kHz", "sensors:\n  driver: mcp23017\n  rate: 100\n", ""},
		{"MCP23017 matrix at 100 Hz on the default 100 kHz", "sensors:\n  driver: mcp23017\n  rate: 100\n  mcp23017:\n    bus_hz: 100000\n",
			"f.yaml: line 3: sensors.rate: 100 scans per second: 3 MCP23017s as a matrix take about 18.2ms a scan on a 100000 Hz I²C bus, so at most 43 scans per second fit; set sensors.rate: 25 or lower, or raise the bus to 400 kHz (dtparam=i2c_arm_baudrate=400000 in config.txt and sensors.mcp23017.bus_hz: 400000)"},
		{"MCP23017 direct: too few switches for any board", "sensors:\n  driver: mcp23017\n  rate: 200\n  mcp23017:\n    mode: direct\n    addrs: [\"0x20\", \"0x21\"]\n",
			"f.yaml: line 5: sensors.mcp23017.mode: direct: 2 chips read 14 switches each, 28 in all, but the cross14 board has 160 squares"},
		{"MCP23017 direct with the most chips a bus takes", "sensors:\n  driver: mcp23017\n  mcp23017:\n    mode: direct\n",
			"f.yaml: line 4: sensors.mcp23017.mode: direct: 8 chips read 14 switches each, 112 in all, but the cross14 board has 160 squares, and one I²C bus takes at most 8 chips (112 switches): use mode: matrix (56 switches a chip, 3 chips)"},
		{"bus clock not set", "sensors:\n  mcp23017:\n    bus_hz: 0\n", "f.yaml: line 3: sensors.mcp23017.bus_hz: 0: want"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := configs.Parse("f.yaml", []byte(tc.yaml))
			if tc.want == "" {
				if err != nil {
					t.Errorf("refused: %v", err)
				}
				return
			}
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error %v\nwant %s…", err, tc.want)
			}
		})
	}
}
