// Package lan tells the addresses a phone on the club's network can use to
// reach the board, and draws the first of them as a QR code: in the
// terminal (QR) and as an image for the web display's join view (PNG).
package lan

import (
	"fmt"
	"io"
	"net"
	"net/netip"
	"os"
	"slices"
	"strings"

	"rsc.io/qr"
)

// URLs returns the addresses of a server listening on listen
// ("0.0.0.0:8080", "[::]:8080", ":8080", "192.168.1.20:8080") as scheme
// URLs (scheme "http" gives "http://192.168.1.20:8080/"), given the
// machine's interface addresses and host name: for a wildcard listen
// address one URL per non-loopback address (IPv4 first, IPv6 link-local
// addresses left out: a browser cannot use them without a zone), then
// hostname.local for mDNS. A loopback listen address gives only itself:
// nobody else can connect.
func URLs(scheme, listen string, addrs []net.Addr, hostname string) []string {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return nil
	}
	url := func(h string) string {
		return fmt.Sprintf("%s://%s/", scheme, net.JoinHostPort(h, port))
	}
	ip, err := netip.ParseAddr(host)
	wildcard := host == "" || err == nil && ip.IsUnspecified()
	if !wildcard {
		return []string{url(host)}
	}
	var v4, v6 []string
	for _, a := range addrs {
		n, ok := a.(*net.IPNet)
		if !ok {
			continue
		}
		ip, ok := netip.AddrFromSlice(n.IP)
		if !ok {
			continue
		}
		ip = ip.Unmap()
		switch {
		case ip.IsLoopback(), ip.IsLinkLocalUnicast() && ip.Is6(), ip.IsMulticast():
		case ip.Is4(): // 0.0.0.0, and [::] (dual stack on Linux) both take IPv4
			v4 = append(v4, url(ip.String()))
		case host != "0.0.0.0":
			v6 = append(v6, url(ip.String()))
		}
	}
	out := append(v4, v6...)
	if hostname != "" && !strings.Contains(hostname, ".") && hostname != "localhost" {
		out = append(out, url(hostname+".local"))
	}
	return slices.Compact(out)
}

// Join returns the URLs a phone on this machine's networks can open for a
// server listening on listen, the first being the one to draw as a QR
// code; nil when listen is loopback only (nobody else can connect) or
// nothing can reach it. It is URLs with this machine's interface addresses
// and host name, so the terminal and the web page show the same address.
func Join(scheme, listen string) []string {
	if Loopback(listen) {
		return nil
	}
	addrs, _ := net.InterfaceAddrs()
	host, _ := os.Hostname()
	return URLs(scheme, listen, addrs, host)
}

// QRLevel is the error correction of every code this package draws
// (15 %: the terminal's and the web page's codes are the same).
const QRLevel = qr.M

// PNGScale is how many image pixels one module of PNG's code takes.
const PNGScale = 8

// PNG draws text as a QR code in a PNG image: PNGScale pixels per module,
// dark modules black on white, with the four-module quiet zone.
func PNG(text string) ([]byte, error) {
	c, err := qr.Encode(text, QRLevel)
	if err != nil {
		return nil, fmt.Errorf("QR code for %q: %w", text, err)
	}
	c.Scale = PNGScale
	return c.PNG(), nil
}

// Dialable is an address this machine dials to reach a server
// listening on listen: a wildcard host (":1883", "0.0.0.0:1883",
// "[::]:1883") becomes 127.0.0.1; anything else is itself.
func Dialable(listen string) string {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return listen
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port)
}

// Loopback reports whether listen only accepts connections from this
// machine.
func Loopback(listen string) bool {
	host, _, err := net.SplitHostPort(listen)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// QR writes text as a QR code in Unicode half blocks, two modules per
// character cell, with a four-module quiet zone. Light modules are drawn
// as blocks, dark ones as spaces (as qrencode -t UTF8 does), so the code
// reads right on a terminal with a dark background.
func QR(w io.Writer, text string) error {
	c, err := qr.Encode(text, QRLevel)
	if err != nil {
		return fmt.Errorf("QR code for %q: %w", text, err)
	}
	const quiet = 4
	n := c.Size + 2*quiet
	light := func(x, y int) bool {
		x, y = x-quiet, y-quiet
		return x < 0 || y < 0 || x >= c.Size || y >= c.Size || !c.Black(x, y)
	}
	var b strings.Builder
	for y := 0; y < n; y += 2 {
		for x := 0; x < n; x++ {
			top, bottom := light(x, y), y+1 < n && light(x, y+1)
			switch {
			case top && bottom:
				b.WriteRune('█')
			case top:
				b.WriteRune('▀')
			case bottom:
				b.WriteRune('▄')
			default:
				b.WriteByte(' ')
			}
		}
		b.WriteByte('\n')
	}
	_, err = io.WriteString(w, b.String())
	return err
}
