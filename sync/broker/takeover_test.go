package broker

import (
	"fmt"
	"testing"
	"time"
)

// TestSameIDAgainKeepsItsMessages: a client that comes back with the same
// id (a restarted collector, paho reconnecting after a dropped line, a
// second connection that takes the session over) receives what it
// subscribes to, every time. Before the takeover guard, mochi-mqtt v2.7.9
// let the old connection's clean-up remove the new one from its client
// table now and then, and the new client never heard a message.
func TestSameIDAgainKeepsItsMessages(t *testing.T) {
	b := start(t, Config{})
	url := "tcp://" + b.Addr()
	pub := mustDial(t, url, "board", "board-secret")
	rounds := 200
	if testing.Short() {
		rounds = 50
	}
	for _, mode := range []string{"after a disconnect", "taking over a live connection"} {
		t.Run(mode, func(t *testing.T) {
			old, err := dialAs(url, "same-id", "", "reader", "reader-secret", "")
			if err != nil {
				t.Fatal(err)
			}
			subscribe(t, old, "games/+")
			for i := 0; i < rounds; i++ {
				if mode == "after a disconnect" {
					old.Disconnect(0)
				}
				c, err := dialAs(url, "same-id", "", "reader", "reader-secret", "")
				if err != nil {
					t.Fatalf("round %d: %v", i, err)
				}
				col := subscribe(t, c, "games/+")
				want := fmt.Sprintf("games/%d", i)
				if tok := pub.Publish(want, 1, false, "pgn"); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
					t.Fatalf("publish: %v", tok.Error())
				}
				col.waitFor(t, want+"=pgn")
				old = c
			}
			old.Disconnect(0)
		})
	}
}
