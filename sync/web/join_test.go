package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"strings"
	"testing"

	"rsc.io/qr"

	"boardd/internal/lan"
)

// The join view serves the first of the daemon's join addresses as a QR
// code: the PNG's modules, sampled at their centres, are the QR library's
// own code for that URL (the one the terminal draws), inside a white
// four-module quiet zone; /api/join lists every address.
func TestJoinQRCode(t *testing.T) {
	tests := []struct {
		name string
		urls []string
	}{
		{"one address", []string{"http://192.168.1.20:8080/"}},
		{"several, the first drawn", []string{"http://10.0.0.5:8080/", "http://[fd00::20]:8080/", "http://boardpi.local:8080/"}},
		{"https and a long host name", []string{"https://club-board-in-the-back-room.local:8443/"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, ts := newTestServer(t, Config{Join: func() []string { return tc.urls }})
			c := client(t)
			res, body := do(t, c, "GET", ts.URL+"/api/join", "", nil)
			var info joinInfo
			if res.StatusCode != http.StatusOK || json.Unmarshal([]byte(body), &info) != nil || info.URL != tc.urls[0] || strings.Join(info.URLs, " ") != strings.Join(tc.urls, " ") {
				t.Fatalf("/api/join: %d %s", res.StatusCode, body)
			}
			res, body = do(t, c, "GET", ts.URL+"/api/join.png", "", nil)
			if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "image/png" {
				t.Fatalf("/api/join.png: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
			}
			img, err := png.Decode(bytes.NewReader([]byte(body)))
			if err != nil {
				t.Fatal(err)
			}
			want, err := qr.Encode(tc.urls[0], qr.M)
			if err != nil {
				t.Fatal(err)
			}
			if diff := compareModules(img, want); diff != "" {
				t.Error(diff)
			}
		})
	}
}

// compareModules reads img as a QR code of want's size with a four-module
// quiet zone and reports the first module that differs ("" if none).
func compareModules(img image.Image, want *qr.Code) string {
	const quiet = 4
	n := want.Size + 2*quiet
	b := img.Bounds()
	if b.Dx() != b.Dy() || b.Dx() != n*lan.PNGScale {
		return fmt.Sprintf("image %v: want %d×%d px ((modules + quiet zone) × scale)", b, n*lan.PNGScale, n*lan.PNGScale)
	}
	for y := range n {
		for x := range n {
			px := img.At(b.Min.X+x*lan.PNGScale+lan.PNGScale/2, b.Min.Y+y*lan.PNGScale+lan.PNGScale/2)
			dark := color.GrayModel.Convert(px).(color.Gray).Y < 128
			mx, my := x-quiet, y-quiet
			inside := mx >= 0 && my >= 0 && mx < want.Size && my < want.Size
			if dark != (inside && want.Black(mx, my)) {
				return fmt.Sprintf("module (%d,%d) is dark=%v, the QR library's code says %v", mx, my, dark, !dark)
			}
		}
	}
	return ""
}

// A display that listens on this machine only has no join address: both
// routes answer 404 saying what to set.
func TestJoinWithoutAddress(t *testing.T) {
	for _, join := range []func() []string{nil, func() []string { return nil }} {
		_, _, ts := newTestServer(t, Config{Join: join})
		for _, path := range []string{"/api/join", "/api/join.png"} {
			res, body := do(t, client(t), "GET", ts.URL+path, "", nil)
			if res.StatusCode != http.StatusNotFound || !strings.Contains(body, "web.listen: 0.0.0.0:8080") {
				t.Errorf("%s: %d %s", path, res.StatusCode, body)
			}
		}
	}
}
