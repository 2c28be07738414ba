package main

import (
	"fmt"
	"io"

	"boardd/internal/lan"
)

// greetLAN prints, for a web display that listens beyond this machine,
// every address a phone on the network can open and a QR code of the
// first; on localhost (go run's default) it prints nothing.
func greetLAN(w io.Writer, scheme, webAddr string) {
	urls := lan.Join(scheme, webAddr)
	if len(urls) == 0 {
		return
	}
	fmt.Fprintln(w, "  phones on this network: open one of")
	for _, u := range urls {
		fmt.Fprintf(w, "    %s\n", u)
	}
	fmt.Fprintf(w, "  or scan (%s):\n", urls[0])
	if err := lan.QR(w, urls[0]); err != nil {
		fmt.Fprintf(w, "  (%v)\n", err)
	}
}
