package systest

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand"
	"net"
	"net/http"
	"net/http/cookiejar"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
	"github.com/gorilla/websocket"
	"github.com/mochi-mqtt/server/v2/packets"

	"boardd/internal/connlimit"
	"boardd/internal/testio"
	"boardd/referee"
	"boardd/rules/square"
	"boardd/sync/broker"
	"boardd/sync/web"
)

var soakCalm = flag.Bool("soak.calm", false, "TestHostileSoak: play and measure without the attacks (the control run)")

var hostileSoak = flag.Duration("soak.hostile", 0, "TestHostileSoak: run issue 28's attacks together against a live board for this long while a game is played (the README's run: 10m)")

// TestHostileSoak runs the attacks of issue 28 together against the real
// daemon (a process, simulated switches, the built-in broker on TCP and
// WebSocket, the web display) while a game is played on its switches:
// unfinished 1 MiB CONNECTs, silent MQTT and WebSocket connections, pages
// of another origin, idle HTTP keep-alives, requests whose headers or
// body trickle, event streams opened by the
// hundred, password guessing cycling 400 addresses on the web and over
// MQTT, read-only sessions left behind, and clients taking other
// accounts' client ids. Throughout, every move played must be
// acknowledged and kept,
// the owner's page, state and commands must answer within 1 s, the
// owner's event stream must stay open, the club's bridge must never be
// pushed off, and the daemon's file handles must stay within its caps.
// It reports the daemon's memory and handles and the owner's times.
func TestHostileSoak(t *testing.T) {
	if *hostileSoak == 0 {
		t.Skip("a soak: run with -soak.hostile=10m")
	}
	base := t.TempDir()
	dir := filepath.Join(base, "state")
	os.MkdirAll(dir, 0o755)
	mqttAddr := testio.FreeAddr(t)
	config := filepath.Join(base, "boardd.yaml")
	os.WriteFile(config, []byte(fmt.Sprintf(`board: hostile
state_dir: %s
sensors:
  quiet: 120ms
  listen: 127.0.0.1:0
mqtt:
  embedded:
    listen: "%s"
    allow_anonymous: true
    users:
      - {name: club-bridge, password: bridge-secret-pw, write: true}
      - {name: display, password: display-secret-pw}
web:
  listen: 127.0.0.1:0
  password: fault-injection-pw
`, dir, mqttAddr)), 0o644)
	// The harness's own look at the board (webState, /metrics) opens a
	// connection each time: a kept-alive one may be closed to make room
	// for the attack's, as a browser's is.
	dt := http.DefaultTransport.(*http.Transport)
	dt.DisableKeepAlives = true
	defer func() { dt.DisableKeepAlives = false }()
	p := startProc(t, config)
	f := &faultRun{t: t, rnd: rand.New(rand.NewSource(time.Now().UnixNano())), dir: dir, p: p, states: map[uint64]string{}}
	f.observe()

	// The owner: a laptop that logged in before the attack, with the
	// board's page open (its event stream).
	owner := ownerClient(t, "127.0.0.5", p.web)
	streamCtx, stopStream := context.WithCancel(context.Background())
	defer stopStream()
	var streamEvents, streamReopens, streamRefused atomic.Int64
	ownerStream := &http.Client{Jar: owner.Jar, Transport: owner.Transport} // no timeout: a stream lasts
	go func() {
		for streamCtx.Err() == nil {
			req, _ := http.NewRequestWithContext(streamCtx, "GET", "http://"+p.web+"/api/events", nil)
			res, err := ownerStream.Do(req)
			if err != nil {
				continue
			}
			if res.StatusCode != 200 {
				streamRefused.Add(1)
				res.Body.Close()
				time.Sleep(100 * time.Millisecond)
				continue
			}
			sc := bufio.NewScanner(res.Body)
			for sc.Scan() {
				if strings.HasPrefix(sc.Text(), "event: ") {
					streamEvents.Add(1)
				}
			}
			res.Body.Close()
			if streamCtx.Err() == nil {
				streamReopens.Add(1)
			}
		}
	}()
	// The club's bridge, connected throughout.
	bridge := pahoClient(t, "tcp://"+mqttAddr, "club-bridge", "club-bridge", "bridge-secret-pw", true)
	defer bridge.Disconnect(0)

	calmRSS, calmFDs := procFigures(p.cmd.Process.Pid)
	ctx, stop := context.WithTimeout(context.Background(), *hostileSoak)
	defer stop()
	a := &attack{ctx: ctx, t: t, web: p.web, mqtt: mqttAddr}
	if !*soakCalm {
		a.run()
	}

	// Play, look and measure until the time is up.
	var times []time.Duration
	slow, retried := 0, 0
	var maxRSS, maxFDs int
	for ctx.Err() == nil {
		for _, req := range []func() (*http.Response, error){
			func() (*http.Response, error) { return owner.Get("http://" + p.web + "/") },
			func() (*http.Response, error) { return owner.Get("http://" + p.web + "/api/state") },
			func() (*http.Response, error) {
				r, _ := http.NewRequest("POST", "http://"+p.web+"/api/cmd/state", strings.NewReader(`{}`))
				r.Header.Set(web.RequestHeader, "1")
				return owner.Do(r)
			},
		} {
			start := time.Now()
			res, err := req()
			if err != nil && (errors.Is(err, syscall.ECONNRESET) || errors.Is(err, io.EOF)) {
				// Its kept-alive connection was closed to make room as it
				// sent: a browser sends the request again at once.
				retried++
				res, err = req()
			}
			took := time.Since(start)
			if err != nil || res.StatusCode != 200 {
				t.Errorf("the owner's request during the attack: %v %v", err, res)
				slow++
			} else {
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
			}
			times = append(times, took)
			if took > time.Second {
				slow++
			}
		}
		setUp(t, f)
		before := f.unanswered
		f.move()
		if f.unanswered > before { // say what the board saw: the hands' timing on a loaded machine, or the attack
			st := webState(t, p.web)
			t.Logf("unanswered move: status %s, message %q, lifted %q, wrong %v, missing %v; the daemon's log ends:\n%s",
				st.Status, st.Message, st.Lifted, st.Wrong, st.Missing, tail(p.out.String(), 2000))
		}
		rss, fds := procFigures(p.cmd.Process.Pid)
		maxRSS, maxFDs = max(maxRSS, rss), max(maxFDs, fds)
		time.Sleep(200 * time.Millisecond)
	}
	a.wg.Wait()
	f.observe()
	stopStream()
	metrics := f.metric("boardd_http_connections_evicted_total") + " HTTP connections evicted, " +
		f.metric("boardd_broker_connections_evicted_total") + " MQTT connections evicted, " +
		f.metric("boardd_web_logins_failed_total") + " web and " + f.metric("boardd_broker_auth_failed_total") + " MQTT guesses checked"

	slices.Sort(times)
	t.Logf("hostile soak %v: %d moves played, %d acknowledged, %d lost, %d games; owner's requests: %d (%d sent again after a reset), median %v, max %v, %d over 1 s or failed; "+
		"owner's stream: %d events, %d reopened, %d refused; attacks: %s; %s; daemon: %.1f MB and %d file handles before the attack, at most %.1f MB and %d during it",
		*hostileSoak, f.moves, f.ackedTotal, f.lost, f.games, len(times), retried, times[len(times)/2], times[len(times)-1], slow,
		streamEvents.Load(), streamReopens.Load(), streamRefused.Load(), a.report(), metrics, float64(calmRSS)/1024, calmFDs, float64(maxRSS)/1024, maxFDs)
	if f.lost != 0 {
		t.Errorf("%d acknowledged moves lost: want 0", f.lost)
	}
	// Every move played must be taken (move says so for each that is not):
	// the moves the board left in a silent correction after a new game's
	// set-up were a referee fault, found here and fixed.
	if f.ackedTotal == 0 || f.unanswered > 0 {
		t.Errorf("%d of %d moves acknowledged (%d unanswered): want every one", f.ackedTotal, f.moves, f.unanswered)
	}
	if slow > 0 {
		t.Errorf("%d of the owner's requests took over 1 s or failed", slow)
	}
	if streamReopens.Load() > 0 || streamRefused.Load() > 0 {
		t.Errorf("the owner's event stream ended %d times and was refused %d times", streamReopens.Load(), streamRefused.Load())
	}
	if !bridge.IsConnectionOpen() {
		t.Error("the club's bridge was pushed off")
	}
	if n := a.takeovers.Load(); n > 0 {
		t.Errorf("%d CONNECTs with another account's client id were accepted", n)
	}
	if bound := web.DefaultHTTPMaxConns + broker.DefaultMaxConns + connlimit.Reserve; maxFDs > bound {
		t.Errorf("the daemon held %d file handles, over its caps' %d", maxFDs, bound)
	}
}

// attack runs the attackers until ctx ends.
type attack struct {
	ctx       context.Context
	t         *testing.T
	web, mqtt string
	wg        sync.WaitGroup

	connects, silent, ws, wsRefused, keepalives, slow, streams, streamsRefused, guesses, sessions, takeovers atomic.Int64
}

func (a *attack) report() string {
	return fmt.Sprintf("%d unfinished 1 MiB CONNECTs, %d silent MQTT connections, %d silent WebSocket ones, %d other-origin pages refused, "+
		"%d idle keep-alives, %d slow requests, %d event streams opened (%d refused), %d guesses sent, %d sessions left behind, %d client ids taken",
		a.connects.Load(), a.silent.Load(), a.ws.Load(), a.wsRefused.Load(), a.keepalives.Load(), a.slow.Load(), a.streams.Load(), a.streamsRefused.Load(),
		a.guesses.Load(), a.sessions.Load(), a.takeovers.Load())
}

// from is the n-th attacking address (127.0.16.0/20: other machines).
func from(n int) string { return fmt.Sprintf("127.0.%d.%d", 16+n/250%16, 1+n%250) }

// dial connects from an attacking address.
func (a *attack) dial(n int, addr string) (net.Conn, error) {
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from(n))}, Timeout: 5 * time.Second}
	return d.DialContext(a.ctx, "tcp", addr)
}

// hold keeps c open until the daemon closes it or the attack ends.
func (a *attack) hold(c net.Conn) {
	stop := context.AfterFunc(a.ctx, func() { c.Close() })
	defer stop()
	io.Copy(io.Discard, c)
	c.Close()
}

// loop runs n copies of f until the attack ends; each is told its number.
func (a *attack) loop(n int, f func(i, round int)) {
	for i := range n {
		a.wg.Go(func() {
			for round := 0; a.ctx.Err() == nil; round++ {
				f(i, round)
			}
		})
	}
}

func (a *attack) run() {
	// Unfinished CONNECTs announcing 1 MiB.
	a.loop(10, func(i, round int) {
		c, err := a.dial(i*7+round, a.mqtt)
		if err != nil {
			return
		}
		c.Write(append([]byte{0x10, 0xff, 0xff, 0x3f}, make([]byte, 1000)...))
		a.connects.Add(1)
		a.hold(c)
		time.Sleep(10 * time.Millisecond)
	})
	// Silent MQTT connections, piling up: past the caps they push each
	// other out.
	a.loop(4, func(i, round int) {
		c, err := a.dial(1000+i*97+round, a.mqtt)
		if err != nil {
			return
		}
		a.silent.Add(1)
		a.wg.Go(func() { a.hold(c) })
		time.Sleep(5 * time.Millisecond)
	})
	// WebSocket: silent clients, and pages of another origin.
	a.loop(20, func(i, round int) {
		d := websocket.Dialer{Subprotocols: []string{"mqtt"}, NetDialContext: func(ctx context.Context, _, addr string) (net.Conn, error) {
			return a.dial(2000+i*5+round, addr)
		}}
		h := http.Header{}
		if round%2 == 0 {
			h.Set("Origin", "http://evil.example")
		}
		c, res, err := d.DialContext(a.ctx, "ws://"+a.web+"/mqtt", h)
		if err != nil {
			if res != nil && res.StatusCode == http.StatusForbidden {
				a.wsRefused.Add(1)
			}
			time.Sleep(50 * time.Millisecond)
			return
		}
		a.ws.Add(1)
		a.hold(c.NetConn())
	})
	// Idle HTTP keep-alives, piling up.
	a.loop(4, func(i, round int) {
		c, err := a.dial(3000+i*97+round, a.web)
		if err != nil {
			return
		}
		fmt.Fprintf(c, "GET /api/state HTTP/1.1\r\nHost: board\r\n\r\n")
		a.keepalives.Add(1)
		a.wg.Go(func() { a.hold(c) })
		time.Sleep(5 * time.Millisecond)
	})
	// Slow requests: headers a byte at a time, and logins whose body
	// stops coming.
	a.loop(4, func(i, round int) {
		c, err := a.dial(3500+i*13+round, a.web)
		if err != nil {
			return
		}
		if round%2 == 0 {
			fmt.Fprintf(c, "POST /api/login HTTP/1.1\r\nHost: board\r\nContent-Length: 1000\r\n\r\n{\"pass")
		} else {
			fmt.Fprintf(c, "GET / HTTP/1.1\r\nHo")
		}
		a.slow.Add(1)
		a.wg.Go(func() { a.hold(c) })
		time.Sleep(20 * time.Millisecond)
	})
	// Event streams by the hundred, from 10 addresses.
	a.loop(100, func(i, round int) {
		c, err := a.dial(4000+i%10, a.web)
		if err != nil {
			return
		}
		fmt.Fprintf(c, "GET /api/events HTTP/1.1\r\nHost: board\r\n\r\n")
		line, _ := bufio.NewReader(c).ReadString('\n')
		if strings.Contains(line, " 200 ") {
			a.streams.Add(1)
			a.hold(c)
			return
		}
		a.streamsRefused.Add(1)
		c.Close()
		time.Sleep(100 * time.Millisecond)
	})
	// Guessing passwords from 400 addresses, on the web and over MQTT.
	a.loop(8, func(i, round int) {
		n := 5000 + (i*1000+round)%400
		c := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{DialContext: func(ctx context.Context, _, addr string) (net.Conn, error) {
			return a.dial(n, addr)
		}}}
		res, err := c.Post("http://"+a.web+"/api/login", "application/json", strings.NewReader(fmt.Sprintf(`{"password":"guess-%d-%d"}`, i, round)))
		if err == nil {
			if res.StatusCode == 200 {
				a.t.Error("a guessed password logged in")
			}
			res.Body.Close()
		}
		c.CloseIdleConnections()
		a.guesses.Add(1)
	})
	a.loop(8, func(i, round int) {
		c, err := a.dial(5000+(i*1000+round)%400, a.mqtt)
		if err != nil {
			return
		}
		c.Write(rawConnect(fmt.Sprintf("guess-%d", i), "club-bridge", fmt.Sprintf("guess-%d-%d", i, round), true))
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		c.Read(make([]byte, 4))
		c.Close()
		a.guesses.Add(1)
	})
	// Read-only sessions left behind.
	a.loop(4, func(i, round int) {
		c := paho.NewClient(paho.NewClientOptions().AddBroker("tcp://" + a.mqtt).SetClientID(fmt.Sprintf("left-%d-%d", i, round)).
			SetUsername("display").SetPassword("display-secret-pw").SetCleanSession(false).SetAutoReconnect(false).
			SetDialer(&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from(6000 + i))}}))
		if tok := c.Connect(); tok.WaitTimeout(5*time.Second) && tok.Error() == nil {
			c.Subscribe("boardd/#", 1, nil).WaitTimeout(5 * time.Second)
			c.Disconnect(0)
			a.sessions.Add(1)
		}
		time.Sleep(50 * time.Millisecond)
	})
	// Taking the bridge's and the board's client ids.
	a.loop(2, func(i, round int) {
		id := []string{"club-bridge", "boardd-hostile"}[i]
		c, err := a.dial(7000+i, a.mqtt)
		if err != nil {
			return
		}
		c.Write(rawConnect(id, "display", "display-secret-pw", false))
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		ack := make([]byte, 4)
		if _, err := io.ReadFull(c, ack); err == nil && ack[3] == 0 {
			a.takeovers.Add(1)
		}
		c.Close()
		time.Sleep(200 * time.Millisecond)
	})
}

// rawConnect encodes an MQTT 3.1.1 CONNECT.
func rawConnect(id, user, pass string, clean bool) []byte {
	pk := packets.Packet{
		FixedHeader:     packets.FixedHeader{Type: packets.Connect},
		ProtocolVersion: 4,
		Connect: packets.ConnectParams{
			ProtocolName: []byte("MQTT"), Clean: clean, Keepalive: 60, ClientIdentifier: id,
			UsernameFlag: true, Username: []byte(user), PasswordFlag: true, Password: []byte(pass),
		},
	}
	var buf bytes.Buffer
	pk.ConnectEncode(&buf)
	return buf.Bytes()
}

// ownerClient is the owner's browser at a loopback address of its own,
// logged in.
func ownerClient(t *testing.T, ip, webAddr string) *http.Client {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	c := &http.Client{Jar: jar, Timeout: 10 * time.Second, Transport: &http.Transport{DialContext: d.DialContext}}
	res, err := c.Post("http://"+webAddr+"/api/login", "application/json", strings.NewReader(`{"password":"fault-injection-pw"}`))
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("the owner's login: %v %v", err, res)
	}
	res.Body.Close()
	return c
}

// pahoClient connects an MQTT client or fails the test.
func pahoClient(t *testing.T, url, id, user, pass string, clean bool) paho.Client {
	t.Helper()
	c := paho.NewClient(paho.NewClientOptions().AddBroker(url).SetClientID(id).SetUsername(user).SetPassword(pass).
		SetCleanSession(clean).SetAutoReconnect(false))
	if tok := c.Connect(); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatalf("%s connecting: %v", user, tok.Error())
	}
	return c
}

// procFigures reads a process's resident memory (KiB) and its open file
// handles.
func procFigures(pid int) (rssKiB, fds int) {
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid)); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
				rssKiB, _ = strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			}
		}
	}
	if es, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid)); err == nil {
		fds = len(es)
	}
	return
}

// tail is the end of s, at most n bytes.
func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// setUp puts the pieces where the board wants them after a new game: it
// lifts what stands where it should not and places what is missing, on
// the simulated switches, and waits until the board is in step.
func setUp(t *testing.T, f *faultRun) {
	t.Helper()
	st := webState(t, f.p.web)
	if len(st.Wrong)+len(st.Missing) == 0 || st.Lifted != "" || st.Status == "paused" {
		return
	}
	var steps []referee.Touch
	for _, sq := range st.Wrong {
		q, err := square.Parse(sq)
		if err != nil {
			t.Fatal(err)
		}
		steps = append(steps, referee.Touch{Square: q, Lift: true})
	}
	for _, sq := range st.Missing {
		q, err := square.Parse(sq)
		if err != nil {
			t.Fatal(err)
		}
		steps = append(steps, referee.Touch{Square: q})
	}
	if err := playSteps(f.p.sim, steps); err != nil {
		t.Fatalf("setting the pieces up: %v", err)
	}
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if st := webState(t, f.p.web); len(st.Wrong)+len(st.Missing) == 0 {
			return
		}
	}
	t.Errorf("after setting the pieces up the board still wants corrections")
}
