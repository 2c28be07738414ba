package pins

import (
	"fmt"
	"testing"
)

// The overlays README's defaults, and the parameters that move, add or
// drop a pin.
func TestOverlayPins(t *testing.T) {
	tests := []struct {
		line string
		want string // GPIO:signal …
	}{
		{"spi1-1cs", "19:SPI1 MISO 20:SPI1 MOSI 21:SPI1 SCLK 18:SPI1 CE0"},
		{"spi1-3cs", "19:SPI1 MISO 20:SPI1 MOSI 21:SPI1 SCLK 18:SPI1 CE0 17:SPI1 CE1 16:SPI1 CE2"},
		{"spi1-3cs,cs2_pin=26", "19:SPI1 MISO 20:SPI1 MOSI 21:SPI1 SCLK 18:SPI1 CE0 17:SPI1 CE1 26:SPI1 CE2"},
		{"spi0-1cs,no_miso", "10:SPI0 MOSI 11:SPI0 SCLK 8:SPI0 CE0"},
		{"spi6-2cs", "19:SPI6 MISO 20:SPI6 MOSI 21:SPI6 SCLK 18:SPI6 CE0 27:SPI6 CE1"},
		{"w1-gpio", "4:1-Wire data"},
		{"w1-gpio,gpiopin=16", "16:1-Wire data"},
		{"w1-gpio-pullup", "4:1-Wire data 5:1-Wire pull-up"},
		{"i2c3", "4:I2C3 SDA 5:I2C3 SCL"},
		{"i2c3,pins_2_3", "2:I2C3 SDA 3:I2C3 SCL"},
		{"i2c6", "22:I2C6 SDA 23:I2C6 SCL"},
		{"i2c-gpio,i2c_gpio_sda=5,i2c_gpio_scl=6", "5:I²C in software SDA 6:I²C in software SCL"},
		{"uart2", "0:UART2 TXD 1:UART2 RXD"},
		{"uart5,ctsrts", "12:UART5 TXD 13:UART5 RXD 14:UART5 CTS 15:UART5 RTS"},
		{"pwm-2chan,pin=12,pin2=13", "12:PWM PWM0 13:PWM PWM1"},
		{"audremap,pins_18_19", "18:PWM audio on the header left 19:PWM audio on the header right"},
		{"hifiberry-dacplus", "18:the I²S sound card hifiberry-dacplus I2S BCLK 19:the I²S sound card hifiberry-dacplus I2S LRCLK 20:the I²S sound card hifiberry-dacplus I2S DIN 21:the I²S sound card hifiberry-dacplus I2S DOUT"},
		{"sdio,bus_width=1,gpios_22_25", "22:SDIO CLK 23:SDIO CMD 24:SDIO DAT0 25:SDIO DAT1"},
		{"gpio-shutdown", "3:a shutdown button in"},
		{"act-led", ""},
		{"act-led,gpio=17", "17:the activity LED out"},
	}
	for _, tc := range tests {
		name, params := ParseOverlay(tc.line)
		_, ps, known := Overlay(name, params)
		got := ""
		for i, p := range ps {
			if i > 0 {
				got += " "
			}
			got += fmt.Sprintf("%d:%s", p.GPIO, p.Signal)
		}
		if !known || got != tc.want {
			t.Errorf("%s: %q (known %v), want %q", tc.line, got, known, tc.want)
		}
	}
	if _, _, known := Overlay("vc4-kms-v3d", nil); known {
		t.Error("vc4-kms-v3d takes no header pins, but is listed")
	}
	if !OverlayParam("w1-gpio", "gpiopin") || OverlayParam("w1-gpio", "spi") || !OverlayParam("i2c3", "pins_2_3") {
		t.Error("OverlayParam")
	}
	if fmt.Sprint(BaseParam("i2s")) != "[{18 I2S BCLK } {19 I2S LRCLK } {20 I2S DIN } {21 I2S DOUT }]" || len(BaseParam("spi")) != 5 || BaseParam("audio") != nil {
		t.Errorf("BaseParam: %v %v", BaseParam("i2s"), BaseParam("spi"))
	}
}

// Enabling an SPI device's bus names its own line: SPI1 is not enabled by
// dtparam=spi=on.
func TestEnableSPI(t *testing.T) {
	for dev, want := range map[string]string{
		"/dev/spidev1.0": "enable SPI1: add `dtoverlay=spi1-1cs` to /boot/firmware/config.txt, then run `sudo reboot`",
		"/dev/spidev1.2": "enable SPI1: add `dtoverlay=spi1-3cs` to /boot/firmware/config.txt, then run `sudo reboot`",
		"/dev/spidev0.0": "enable SPI0: add `dtparam=spi=on` to /boot/firmware/config.txt, then run `sudo reboot`",
		"SPI6.0":         "enable SPI6: add `dtoverlay=spi6-1cs` to /boot/firmware/config.txt, then run `sudo reboot`",
	} {
		if got := EnableSPI(dev); got != want {
			t.Errorf("%s: %q, want %q", dev, got, want)
		}
	}
}
