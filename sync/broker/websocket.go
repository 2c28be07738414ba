package broker

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gorilla/websocket"
	"github.com/mochi-mqtt/server/v2/listeners"
)

// WebsocketHandler returns an http.Handler that speaks MQTT over
// WebSocket (subprotocol "mqtt", binary frames), for browsers and for the
// daemon's HTTP port (mount it at /mqtt). Clients log in as over TCP,
// under the same limits: their connections count with the TCP ones
// (Config.MaxConns, MaxConnsPerAddress) and they must send their CONNECT
// in time and within its size. A browser page may connect only from the
// daemon's own origin or one of Config.Origins (403 otherwise), so
// another site a visitor has open cannot use the board through them;
// clients that are not browsers send no Origin and go on to the MQTT
// login.
func (b *Broker) WebsocketHandler() http.Handler {
	origins := map[string]bool{}
	for _, o := range b.cfg.Origins {
		origins[strings.ToLower(strings.TrimSuffix(o, "/"))] = true
	}
	return &wsHandler{b: b, up: websocket.Upgrader{
		Subprotocols:    []string{"mqtt"},
		ReadBufferSize:  4096,
		WriteBufferSize: 4096,
		CheckOrigin:     func(r *http.Request) bool { return originAllowed(r, origins) },
		Error: func(w http.ResponseWriter, r *http.Request, status int, reason error) {
			if status == http.StatusForbidden {
				reason = fmt.Errorf("MQTT over WebSocket from origin %q refused: only the board's own pages may connect", r.Header.Get("Origin"))
			}
			http.Error(w, reason.Error(), status)
		},
	}}
}

// originAllowed lets through a request without an Origin header (not a
// browser), one from the page's own host, and the listed origins.
func originAllowed(r *http.Request, extra map[string]bool) bool {
	o := r.Header.Get("Origin")
	if o == "" {
		return true
	}
	u, err := url.Parse(o)
	if err != nil {
		return false
	}
	return strings.EqualFold(u.Host, r.Host) || extra[strings.ToLower(o)]
}

type wsHandler struct {
	b  *Broker
	up websocket.Upgrader
}

func (h *wsHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h.b.ws.closed.Load() {
		http.Error(w, "the MQTT broker is shut down", http.StatusServiceUnavailable)
		return
	}
	var ws *websocket.Conn
	slot := h.b.conns.Acquire(r.RemoteAddr, func() {
		if ws != nil {
			ws.Close()
		}
	})
	if slot == nil {
		w.Header().Set("Retry-After", "10")
		http.Error(w, "too many MQTT connections: try again later", http.StatusServiceUnavailable)
		return
	}
	defer slot.Release()
	c, err := h.up.Upgrade(w, r, nil) // writes its own error response
	if err != nil {
		return
	}
	ws = c
	slot.SetIdle(true) // until it logs in
	c.SetReadLimit(MaxPacketBytes + 8)
	conn := newFrameConn(&wsConn{Conn: c.UnderlyingConn(), c: c}, h.b.cfg.MaxConnectBytes, h.b.cfg.ConnectTimeout, func() { slot.SetIdle(false) })
	defer conn.Close()
	if err := h.b.srv.EstablishConnection(wsListenerID, conn); err != nil && !errors.Is(err, io.EOF) {
		h.b.log.Debug("mqtt websocket client gone", "remote", r.RemoteAddr, "error", err)
	}
}

// wsListener registers the WebSocket clients with the server, so that
// closing the server disconnects them too. Connections come from
// wsHandler, not from Serve.
type wsListener struct {
	closed atomic.Bool
}

func (l *wsListener) Init(*slog.Logger) error     { return nil }
func (l *wsListener) Serve(listeners.EstablishFn) {}
func (l *wsListener) ID() string                  { return wsListenerID }
func (l *wsListener) Address() string             { return "/mqtt" }
func (l *wsListener) Protocol() string            { return "ws" }
func (l *wsListener) Close(closeClients listeners.CloseFn) {
	if l.closed.CompareAndSwap(false, true) { // once, as mochi's own listeners
		closeClients(wsListenerID)
	}
}

// errTextFrame is returned for a text frame: MQTT over WebSocket is binary.
var errTextFrame = errors.New("mqtt over websocket: text frame received, want binary")

// wsConn is a WebSocket connection as a net.Conn carrying a byte stream:
// reads run across binary messages, each write is one binary message.
// Deadlines and addresses are the underlying TCP connection's.
type wsConn struct {
	net.Conn
	c  *websocket.Conn
	r  io.Reader // the message being read, or nil
	mu sync.Mutex
}

func (ws *wsConn) Read(p []byte) (int, error) {
	for {
		if ws.r == nil {
			op, r, err := ws.c.NextReader()
			if err != nil {
				return 0, err
			}
			if op != websocket.BinaryMessage {
				return 0, errTextFrame
			}
			ws.r = r
		}
		n, err := ws.r.Read(p)
		if errors.Is(err, io.EOF) {
			ws.r = nil
			err = nil
			if n == 0 {
				continue // an empty message, or the end of one: read the next
			}
		}
		return n, err
	}
}

func (ws *wsConn) Write(p []byte) (int, error) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if err := ws.c.WriteMessage(websocket.BinaryMessage, p); err != nil {
		return 0, err
	}
	return len(p), nil
}

func (ws *wsConn) Close() error { return ws.c.Close() }
