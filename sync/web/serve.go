package web

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"boardd/internal/connlimit"
)

// HTTPLimits bound the connections of the daemon's HTTP port (the page,
// the API, the event streams and MQTT over WebSocket share it); zero
// fields take the defaults.
type HTTPLimits struct {
	// MaxConns caps the connections open at once (default 1024, or half
	// the file handles left after connlimit.Reserve when the process's
	// file limit is lower).
	MaxConns int
	// MaxConnsPerAddress caps the connections of one client address
	// (default 32: a browser opens about six, a club's TV and phones each
	// have their own address).
	MaxConnsPerAddress int
	// HeaderTimeout is how long a client may take to send a request's
	// headers, the first one included (default 10 s).
	HeaderTimeout time.Duration
	// IdleTimeout is how long a kept-alive connection may wait for its
	// next request (default 30 s).
	IdleTimeout time.Duration
}

// The HTTP defaults (HTTPLimits).
const (
	DefaultHTTPMaxConns           = 1024
	DefaultHTTPMaxConnsPerAddress = 32
	DefaultHeaderTimeout          = 10 * time.Second
	DefaultIdleTimeout            = 30 * time.Second
	// MaxHeaderBytes bounds a request's headers.
	MaxHeaderBytes = 16 << 10
)

func (l HTTPLimits) withDefaults() HTTPLimits {
	if l.MaxConns <= 0 {
		l.MaxConns = connlimit.TotalFor(DefaultHTTPMaxConns, 0.5, 0)
	}
	if l.MaxConnsPerAddress <= 0 {
		l.MaxConnsPerAddress = DefaultHTTPMaxConnsPerAddress
	}
	if l.HeaderTimeout <= 0 {
		l.HeaderTimeout = DefaultHeaderTimeout
	}
	if l.IdleTimeout <= 0 {
		l.IdleTimeout = DefaultIdleTimeout
	}
	return l
}

// Listener is the HTTP port, capped: see Listen.
type Listener struct {
	*connlimit.Listener
	limits HTTPLimits
}

// Listen opens the HTTP port on addr with its connections capped per
// address and in total. Connections that have sent nothing yet and
// kept-alive ones between requests make room for newcomers, the oldest
// first, so silent connections cannot keep the owner from the page. Wrap
// it in TLS if need be and serve it with HTTPServer.
func Listen(addr string, lim HTTPLimits) (*Listener, error) {
	lim = lim.withDefaults()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	return &Listener{
		Listener: connlimit.Listen(ln, connlimit.New(connlimit.Config{PerAddress: lim.MaxConnsPerAddress, Total: lim.MaxConns})),
		limits:   lim,
	}, nil
}

// Counts returns the connections open now and those refused or closed to
// make room.
func (l *Listener) Counts() connlimit.Counts { return l.Limiter().Counts() }

// HTTPServer returns an http.Server for h on ln: requests' headers must
// come within HeaderTimeout and be at most MaxHeaderBytes, kept-alive
// connections close after IdleTimeout, and ln learns which connections
// are idle: new ones (net/http calls a connection active only once its
// request's headers are all in, so one still sending them is idle too)
// and kept-alive ones between requests. If s is not nil, its event streams end when the server shuts
// down. log receives the server's own errors (TLS handshakes that fail,
// clients gone early) at debug level; nil discards them.
func HTTPServer(h http.Handler, ln *Listener, s *Server, log *slog.Logger) *http.Server {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	srv := &http.Server{
		Handler: h,
		ConnContext: func(ctx context.Context, c net.Conn) context.Context {
			return context.WithValue(ctx, connKey{}, c) // readBody marks it idle while a body trickles in
		},
		ReadHeaderTimeout: ln.limits.HeaderTimeout,
		IdleTimeout:       ln.limits.IdleTimeout,
		MaxHeaderBytes:    MaxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelDebug),
		ConnState: func(c net.Conn, st http.ConnState) {
			switch st {
			case http.StateNew, http.StateIdle:
				connlimit.SetIdle(c, true)
			case http.StateActive, http.StateHijacked:
				connlimit.SetIdle(c, false)
			}
		},
	}
	if s != nil {
		srv.RegisterOnShutdown(func() { s.Close() }) // an event stream never goes idle by itself
	}
	return srv
}

// connKey keys a request's connection in its context (HTTPServer).
type connKey struct{}

// readBody reads a request's body of at most limit bytes. While it comes
// in, the connection counts as idle, as one still sending its headers
// does: a crowd of requests trickling their bodies (ServeHTTP gives them
// 10 s) cannot hold the port's connections against the owner.
func readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	c, _ := r.Context().Value(connKey{}).(net.Conn)
	if c != nil {
		connlimit.SetIdle(c, true)
		defer connlimit.SetIdle(c, false)
	}
	return io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
}
