package broker

import (
	"fmt"
	"net"
	"sync/atomic"
	"time"

	"boardd/internal/connlimit"
)

// The limits a client meets before it has logged in, and the packets it
// may send after. Config overrides the first two.
const (
	// DefaultConnectTimeout is how long a new connection may take to send
	// its whole CONNECT (Config.ConnectTimeout).
	DefaultConnectTimeout = 10 * time.Second
	// DefaultMaxConnectBytes bounds a CONNECT packet
	// (Config.MaxConnectBytes): a client id, a user name, a password and
	// a small last will fit many times over.
	DefaultMaxConnectBytes = 16 << 10
	// MaxReaderPacketBytes bounds a packet from a client that may not
	// publish (a read-only user or an anonymous one): its SUBSCRIBEs are
	// small, and its PUBLISHes are dropped anyway.
	MaxReaderPacketBytes = 64 << 10
	// DefaultMaxConns is the default total of MQTT connections (TCP and
	// WebSocket together), lowered when the file limit is low
	// (connlimit.TotalFor, a quarter of the handles left after the
	// reserve).
	DefaultMaxConns = 512
	// DefaultMaxConnsPerAddress is how many MQTT connections one client
	// address may hold by default.
	DefaultMaxConnsPerAddress = 16
)

// errPacketTooLarge ends a connection whose client announced a packet
// over its limit, before the broker reads (or allocates) it.
type errPacketTooLarge struct {
	size, limit int
	first       bool
}

func (e errPacketTooLarge) Error() string {
	if e.first {
		return fmt.Sprintf("mqtt: a CONNECT of %d bytes is over the limit of %d before logging in", e.size, e.limit)
	}
	return fmt.Sprintf("mqtt: a packet of %d bytes is over this client's limit of %d", e.size, e.limit)
}

// frameConn watches the MQTT packets a client sends, below mochi's
// reader: the first packet (the CONNECT) may be at most connectMax bytes
// and must arrive before the deadline set when the connection came; every
// later one at most limit bytes (lowered for readers once they log in).
// A packet over its limit ends the connection as soon as its length is
// known, before anything is allocated for it. Only mochi's one reading
// goroutine calls Read.
type frameConn struct {
	net.Conn
	connectMax int
	limit      atomic.Int64
	busy       func() // the client logged in: its connection is no longer idle

	// the parser's state
	first    bool // the first packet is not complete yet
	state    int  // 0: fixed header byte next; 1: in the length; 2: in the body
	length   int
	mult     int
	lenBytes int
	left     int
}

func newFrameConn(c net.Conn, connectMax int, timeout time.Duration, busy func()) *frameConn {
	f := &frameConn{Conn: c, connectMax: connectMax, first: true, busy: busy}
	f.limit.Store(MaxPacketBytes)
	_ = c.SetDeadline(time.Now().Add(timeout)) // mochi sets the keepalive's once the CONNECT is in
	return f
}

// NetConn returns the connection underneath (connlimit.SetIdle finds its
// slot through it).
func (f *frameConn) NetConn() net.Conn { return f.Conn }

// setLimit sets the size limit of the packets after the CONNECT.
func (f *frameConn) setLimit(n int) { f.limit.Store(int64(n)) }

func (f *frameConn) Read(p []byte) (int, error) {
	n, err := f.Conn.Read(p)
	for i := 0; i < n; {
		switch f.state {
		case 0:
			f.state, f.length, f.mult, f.lenBytes = 1, 0, 1, 0
			i++
		case 1:
			b := p[i]
			i++
			f.length += int(b&0x7f) * f.mult
			f.mult *= 128
			f.lenBytes++
			if b&0x80 != 0 {
				if f.lenBytes == 4 {
					return 0, fmt.Errorf("mqtt: malformed packet length")
				}
				continue
			}
			limit := int(f.limit.Load())
			if f.first {
				limit = f.connectMax
			}
			if f.length+1 > limit { // mochi's own count: the length and one header byte
				return 0, errPacketTooLarge{size: f.length + 1, limit: limit, first: f.first}
			}
			f.state, f.left = 2, f.length
			if f.left == 0 {
				f.state, f.first = 0, false
			}
		case 2:
			k := min(f.left, n-i)
			i += k
			f.left -= k
			if f.left == 0 {
				f.state, f.first = 0, false
			}
		}
	}
	return n, err
}

// frameListener hands mochi its TCP connections capped (connlimit) and
// watched (frameConn).
type frameListener struct {
	*connlimit.Listener
	connectMax int
	timeout    time.Duration
}

func (l *frameListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return newFrameConn(c, l.connectMax, l.timeout, func() { connlimit.SetIdle(c, false) }), nil
}

// loggedIn tells a client's connection that it has logged in: it is no
// longer one that may be closed to make room, and its packets may be as
// large as its account allows.
func loggedIn(c net.Conn, write bool) {
	for c != nil {
		if f, ok := c.(*frameConn); ok {
			if !write {
				f.setLimit(MaxReaderPacketBytes)
			}
			if f.busy != nil {
				f.busy()
			}
			return
		}
		u, ok := c.(interface{ NetConn() net.Conn })
		if !ok {
			return
		}
		c = u.NetConn()
	}
}
