package lan

import (
	"bytes"
	"image/png"
	"net"
	"os"
	"slices"
	"strings"
	"testing"

	"rsc.io/qr"
)

func ipnet(s string) net.Addr {
	ip, n, err := net.ParseCIDR(s)
	if err != nil {
		panic(err)
	}
	n.IP = ip
	return n
}

func TestURLs(t *testing.T) {
	addrs := []net.Addr{ipnet("127.0.0.1/8"), ipnet("192.168.1.20/24"), ipnet("::1/128"), ipnet("fe80::1/64"), ipnet("fd00::20/64"), ipnet("10.0.0.5/8")}
	tests := []struct {
		listen, host string
		want         []string
	}{
		{"0.0.0.0:8080", "boardpi", []string{"http://192.168.1.20:8080/", "http://10.0.0.5:8080/", "http://boardpi.local:8080/"}},
		{"[::]:8080", "boardpi", []string{"http://192.168.1.20:8080/", "http://10.0.0.5:8080/", "http://[fd00::20]:8080/", "http://boardpi.local:8080/"}},
		{":8080", "", []string{"http://192.168.1.20:8080/", "http://10.0.0.5:8080/", "http://[fd00::20]:8080/"}},
		{"127.0.0.1:8080", "boardpi", []string{"http://127.0.0.1:8080/"}},
		{"192.168.1.20:80", "boardpi", []string{"http://192.168.1.20:80/"}},
		{"8080", "boardpi", nil},
	}
	for _, tc := range tests {
		if got := URLs("http", tc.listen, addrs, tc.host); !slices.Equal(got, tc.want) {
			t.Errorf("URLs(%q) = %q\nwant %q", tc.listen, got, tc.want)
		}
	}
	for listen, want := range map[string]bool{"127.0.0.1:8080": true, "localhost:1": true, "[::1]:80": true, "0.0.0.0:8080": false, ":80": false, "x": false} {
		if Loopback(listen) != want {
			t.Errorf("Loopback(%q) = %v", listen, !want)
		}
	}
}

// The drawing read back module by module is the QR code of the text: light
// modules as the upper or lower half of a cell, a four-module light quiet
// zone all round.
func TestQRDrawsEveryModule(t *testing.T) {
	for _, text := range []string{"http://192.168.1.20:8080/", "http://[fd00::20]:8080/"} {
		var b strings.Builder
		if err := QR(&b, text); err != nil {
			t.Fatal(err)
		}
		c, err := qr.Encode(text, qr.M)
		if err != nil {
			t.Fatal(err)
		}
		n := c.Size + 8
		rows := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
		if len(rows) != (n+1)/2 {
			t.Fatalf("%d rows for %d modules", len(rows), n)
		}
		for cy, row := range rows {
			cells := []rune(row)
			if len(cells) != n {
				t.Fatalf("row %d: %d cells, want %d", cy, len(cells), n)
			}
			for x, r := range cells {
				top := r == '█' || r == '▀'
				bottom := r == '█' || r == '▄'
				for i, isLight := range []bool{top, bottom} {
					y := 2*cy + i
					if y >= n {
						continue
					}
					mx, my := x-4, y-4
					want := mx < 0 || my < 0 || mx >= c.Size || my >= c.Size || !c.Black(mx, my)
					if isLight != want {
						t.Fatalf("%s: module (%d,%d) light=%v, want %v", text, mx, my, isLight, want)
					}
				}
			}
		}
	}
}

// Join is URLs on this machine's own addresses and name, nothing for a
// loopback listener; PNG draws the same code as QR (the library's, at
// QRLevel) with PNGScale pixels per module.
func TestJoinAndPNG(t *testing.T) {
	if got := Join("http", "127.0.0.1:8080"); got != nil {
		t.Errorf("Join on loopback = %q, want nothing", got)
	}
	addrs, _ := net.InterfaceAddrs()
	host, _ := os.Hostname()
	if got, want := Join("http", "0.0.0.0:8080"), URLs("http", "0.0.0.0:8080", addrs, host); !slices.Equal(got, want) {
		t.Errorf("Join = %q, want URLs on this machine %q", got, want)
	}
	const url = "http://192.168.1.20:8080/"
	b, err := PNG(url)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	c, _ := qr.Encode(url, QRLevel)
	if n := (c.Size + 8) * PNGScale; img.Bounds().Dx() != n || img.Bounds().Dy() != n {
		t.Fatalf("image %v, want %d px square", img.Bounds(), n)
	}
	for y := range c.Size {
		for x := range c.Size {
			r, _, _, _ := img.At((x+4)*PNGScale+PNGScale/2, (y+4)*PNGScale+PNGScale/2).RGBA()
			if dark := r < 0x8000; dark != c.Black(x, y) {
				t.Fatalf("module (%d,%d) dark=%v, the library's code says %v", x, y, dark, c.Black(x, y))
			}
		}
	}
}

// Dialable turns a wildcard listen address into this machine's.
func TestDialable(t *testing.T) {
	for in, want := range map[string]string{
		":1883":               "127.0.0.1:1883",
		"0.0.0.0:1884":        "127.0.0.1:1884",
		"[::]:8090":           "127.0.0.1:8090",
		"192.168.1.20:1883":   "192.168.1.20:1883",
		"127.0.0.1:0":         "127.0.0.1:0",
		"club-server.local:1": "club-server.local:1",
		"no port":             "no port",
	} {
		if got := Dialable(in); got != want {
			t.Errorf("Dialable(%q) = %q, want %q", in, got, want)
		}
	}
}
