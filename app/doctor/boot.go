package doctor

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"boardd/internal/pi"
	"boardd/internal/pins"
)

// bootConfig is the active lines of config.txt, include files followed,
// [filter] sections applied for this Pi's model.
type bootConfig struct {
	shown    string            // the path as the Pi sees it
	params   map[string]string // base dtparam=…
	overlays []bootOverlay     // dtoverlay=… in order, as the firmware loads them
	unloaded []bootOverlay     // dtoverlay=… lines the firmware loads nothing for on this Pi
	settings map[string]string // other key=value lines
	files    []string          // every file read, as the Pi sees it
}

// bootOverlay is one dtoverlay line with the parameters given on it and
// on the dtparam lines after it.
type bootOverlay struct {
	name   string
	params map[string]string
	line   string // as written: dtoverlay=spi1-3cs,cs2_pin=26
	file   string // the file it is in, as the Pi sees it
}

// maxIncludes bounds include files (a file including itself).
const maxIncludes = 8

func readBootConfig(root, model string, kind pi.Kind) bootConfig {
	b := bootConfig{shown: "/boot/firmware/config.txt", params: map[string]string{}, settings: map[string]string{}}
	for _, p := range []string{"boot/firmware/config.txt", "boot/config.txt"} {
		if _, err := os.Stat(filepath.Join(root, p)); err == nil {
			b.shown = "/" + p
			break
		}
	}
	r := bootReader{b: &b, root: root, model: model, kind: kind, active: true}
	r.read(b.shown, 0)
	return b
}

// bootReader reads config.txt and its include files in order.
type bootReader struct {
	b           *bootConfig
	root, model string
	kind        pi.Kind
	active      bool
	last        *bootOverlay // the overlay a following dtparam may set
}

func (r *bootReader) read(shown string, depth int) {
	f, err := os.Open(filepath.Join(r.root, shown))
	if err != nil || depth > maxIncludes {
		return
	}
	defer f.Close()
	r.b.files = append(r.b.files, shown)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "[") {
			r.active = sectionApplies(strings.Trim(line, "[]"), r.model, r.kind, r.active)
			continue
		}
		if !r.active {
			continue
		}
		if inc, ok := strings.CutPrefix(line, "include "); ok {
			// An included file sits beside config.txt (the boot partition).
			r.read(filepath.Join(filepath.Dir(shown), strings.TrimSpace(inc)), depth+1)
			continue
		}
		key, val, _ := strings.Cut(line, "=")
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		switch key {
		case "dtparam":
			for _, p := range strings.Split(val, ",") {
				k, v, ok := strings.Cut(p, "=")
				if !ok {
					v = "on"
				}
				// A dtparam after a dtoverlay sets that overlay's
				// parameter when the overlay has one by that name.
				if r.last != nil && pins.OverlayParam(r.last.name, k) {
					r.last.params[k] = v
					r.last.line += "," + p
					continue
				}
				r.b.params[k] = v
			}
		case "dtoverlay":
			if val == "" { // a bare dtoverlay= ends the overlay's parameters
				r.last = nil
				continue
			}
			name, params := pins.ParseOverlay(val)
			// The firmware loads another overlay for some on a Pi 5
			// (spi3-1cs is spi3-1cs-pi5 there, on other pins) and none
			// for a bus that Pi does not have on its header.
			loaded, ok := pins.Loaded(name, r.kind == pi.Pi5)
			if !ok {
				r.b.unloaded = append(r.b.unloaded, bootOverlay{name: name, params: params, line: "dtoverlay=" + val, file: shown})
				r.last = nil
				continue
			}
			r.b.overlays = append(r.b.overlays, bootOverlay{name: loaded, params: params, line: "dtoverlay=" + val, file: shown})
			r.last = &r.b.overlays[len(r.b.overlays)-1]
		default:
			r.b.settings[key] = val
		}
	}
}

// sectionApplies tells whether lines after a [filter] of config.txt apply
// on the Pi with this model string and kind; cur is whether the lines
// before it applied. Model filters replace each other and [all] resets
// them (the Raspberry Pi documentation's "conditional filters": [pi0] is
// every Zero, [pi0w] the Zero W and Zero 2 W, [pi02] the Zero 2 W, which
// does not see [pi3]; [pi3+] the 3A+/3B+, which also see [pi3]; [pi400]
// and [cm4] also see [pi4]; [pi500] and [cm5] also see [pi5]). Filters
// this does not know (EDID, gpio, serial numbers, HDMI) leave cur as it
// was.
func sectionApplies(filter, model string, kind pi.Kind, cur bool) bool {
	zero := strings.Contains(model, "Zero")
	zero2 := strings.Contains(model, "Zero 2")
	switch filter {
	case "all":
		return true
	case "none":
		return false
	case "pi0":
		return zero
	case "pi0w":
		return strings.Contains(model, "Zero W") || zero2
	case "pi02":
		return zero2
	case "pi1", "cm1":
		return kind == pi.Pi1 && !zero
	case "pi2":
		return kind == pi.Pi2
	case "pi3", "cm3":
		return kind == pi.Pi3 && !zero2
	case "pi3+":
		return kind == pi.Pi3 && strings.Contains(model, "Plus")
	case "pi4", "cm4", "cm4s", "pi400":
		if filter == "pi400" {
			return strings.Contains(model, "400")
		}
		if filter == "cm4" || filter == "cm4s" {
			return kind == pi.Pi4 && strings.Contains(model, "Compute Module")
		}
		return kind == pi.Pi4
	case "pi5", "pi500", "cm5":
		if filter == "pi500" {
			return strings.Contains(model, "500")
		}
		if filter == "cm5" {
			return kind == pi.Pi5 && strings.Contains(model, "Compute Module")
		}
		return kind == pi.Pi5
	}
	return cur
}

func (b *bootConfig) param(k string) string { return b.params[k] }

func (b *bootConfig) setting(k string) string { return b.settings[k] }

// spiOverlay is the last overlay that enables SPI bus n (spiN-Mcs), or nil.
func (b *bootConfig) spiOverlay(n int) *bootOverlay {
	var out *bootOverlay
	for i, o := range b.overlays {
		var bus, k int
		if _, err := fmt.Sscanf(o.name, "spi%d-%dcs", &bus, &k); err == nil && bus == n {
			out = &b.overlays[i]
		}
	}
	return out
}

// spiChipSelects is how many chip selects config.txt gives SPI bus n (0:
// the bus is off).
func (b *bootConfig) spiChipSelects(n int) int {
	if n == 0 {
		if b.params["spi"] == "on" {
			return 2
		}
		if o := b.spiOverlay(0); o != nil {
			return int(o.name[len("spi0-")] - '0')
		}
		return 0
	}
	if o := b.spiOverlay(n); o != nil {
		return int(o.name[len(fmt.Sprintf("spi%d-", n))] - '0')
	}
	return 0
}
