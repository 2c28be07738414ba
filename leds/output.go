package leds

import (
	"fmt"
	"math"
)

// Output turns frames into strip pixels: global brightness, gamma
// correction, and a current budget. The zero value is not usable; use
// NewOutput.
type Output struct {
	m        *Map
	gamma    [256]uint8
	budgetMA float64 // the LEDs may draw at most this, in mA
	chanMA   float64 // one channel of one LED at full: mA
	idleMA   float64 // one LED, dark: mA
}

// Power describes the LEDs' supply for the current budget.
type Power struct {
	// MaxAmps is what the LED supply may deliver to the strip (after the
	// Pi and margins). 0 means no limit.
	MaxAmps float64
	// ChannelMilliamps is one colour channel of one LED at full duty:
	// about 20 mA for WS2812B and APA102 (60 mA per LED at full white).
	ChannelMilliamps float64
	// IdleMilliamps is one dark LED's own consumption (about 1 mA).
	IdleMilliamps float64
}

// DefaultPower is a 5 V / 4 A supply for 5050 LEDs: 160 LEDs at full white
// would draw 9.6 A, so full-white frames are dimmed to fit.
var DefaultPower = Power{MaxAmps: 4, ChannelMilliamps: 20, IdleMilliamps: 1}

// NewOutput prepares an output for map m with the given gamma (2.2 to 2.8
// suits LEDs; 1 disables correction) and power supply.
func NewOutput(m *Map, gamma float64, p Power) (*Output, error) {
	if m == nil || m.Len() == 0 {
		return nil, fmt.Errorf("leds: empty LED map")
	}
	if gamma < 1 || gamma > 4 {
		return nil, fmt.Errorf("leds: gamma %.2f: want 1 (none) to 4", gamma)
	}
	if p.MaxAmps < 0 || p.ChannelMilliamps < 0 || p.IdleMilliamps < 0 {
		return nil, fmt.Errorf("leds: negative power figures")
	}
	o := &Output{m: m, budgetMA: p.MaxAmps * 1000, chanMA: p.ChannelMilliamps, idleMA: p.IdleMilliamps}
	for i := range o.gamma {
		o.gamma[i] = uint8(math.Round(255 * math.Pow(float64(i)/255, gamma)))
	}
	return o, nil
}

// Len is the number of pixels Render writes.
func (o *Output) Len() int { return o.m.Len() }

// Render writes f into px (len(px) >= o.Len()) in strip order: each square's
// colour scaled by the frame's brightness, gamma-corrected, and the whole
// frame dimmed evenly if its estimated draw exceeds the budget. It returns
// the estimated current in amps after dimming. It does not allocate.
func (o *Output) Render(f *Frame, px []Color) float64 {
	px = px[:o.m.n]
	for i := range px {
		px[i] = Off
	}
	br := uint32(f.Brightness)
	var sum uint32
	for s, idx := range o.m.index {
		if idx == 0 {
			continue
		}
		c := f.Colors[s]
		c = Color{
			o.gamma[uint32(c.R)*br/255],
			o.gamma[uint32(c.G)*br/255],
			o.gamma[uint32(c.B)*br/255],
		}
		px[idx-1] = c
		sum += uint32(c.R) + uint32(c.G) + uint32(c.B)
	}
	draw := float64(sum)/255*o.chanMA + float64(o.m.n)*o.idleMA
	if o.budgetMA > 0 && draw > o.budgetMA {
		avail := o.budgetMA - float64(o.m.n)*o.idleMA
		if avail < 0 {
			avail = 0
		}
		k := avail / (draw - float64(o.m.n)*o.idleMA)
		scale := uint32(k * 65536)
		var after uint32
		for i, c := range px {
			c = Color{uint8(uint32(c.R) * scale >> 16), uint8(uint32(c.G) * scale >> 16), uint8(uint32(c.B) * scale >> 16)}
			px[i] = c
			after += uint32(c.R) + uint32(c.G) + uint32(c.B)
		}
		draw = float64(after)/255*o.chanMA + float64(o.m.n)*o.idleMA
	}
	return draw / 1000
}
