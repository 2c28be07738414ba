// Package natstest starts a throw-away NATS cluster for tests: N
// nats-server processes (the version nats-server/go.mod pins: Path) on
// free loopback ports, each with its own directory, routes to the
// others, JetStream and MQTT on, and the accounts the test asks for; a
// node can be stopped, killed with SIGKILL and started again on the
// same ports and store, and the cluster is stopped and removed when the
// test ends.
//
// The node's configuration is the one a league runs
// (configs/league/nats-node*.conf) with test ports and a test directory:
// Conf writes both.
//
// Without a nats-server to run (Path) the test is skipped with a
// message, except in CI (CI=true), where it fails.
package natstest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"boardd/internal/testio"
)

// User is an account of the cluster: its password and what it may do.
// An MQTT topic a/b/c is the NATS subject a.b.c; a subscription to a/#
// is two, a and a.>; and an MQTT client with QoS 1 subscriptions needs
// to subscribe to $MQTT.sub.> (the subjects its JetStream consumers
// deliver on). Empty lists allow everything.
type User struct {
	Name, Password string
	// Publish and Subscribe are the subjects allowed, PublishDeny and
	// SubscribeDeny those refused among them.
	Publish, PublishDeny, Subscribe, SubscribeDeny []string
}

// BoardUser is the league's account of the boards: not "board", the
// name of a club hub's own board account, to which a board adds its key
// (mqtt.JoinPassword), which NATS does not know.
const BoardUser = "boards"

// League are the accounts of a league's cluster for boards publishing
// under prefix (boardd): BoardUser publishes a board's stream and the replies
// to commands but no command, and reads its commands; "hub" reads every
// board and sends the commands; "viewer" only reads.
func League(prefix, boardPW, hubPW, viewerPW string) []User {
	sub := "$MQTT.sub.>"
	return []User{
		{Name: BoardUser, Password: boardPW, Publish: []string{prefix + ".>"}, PublishDeny: []string{prefix + ".*.cmd.*"},
			Subscribe: []string{prefix + ".*.cmd.*", sub}},
		{Name: "hub", Password: hubPW, Publish: []string{prefix + ".*.cmd.*"},
			Subscribe: []string{prefix, prefix + ".>", sub}},
		{Name: "viewer", Password: viewerPW, PublishDeny: []string{">"},
			Subscribe: []string{prefix, prefix + ".>", sub}},
	}
}

// Node is one nats-server of the cluster.
type Node struct {
	// Name is its server_name (n1, n2, …).
	Name string
	// Client, Route, MQTT and HTTP are its loopback ports: NATS
	// clients, the cluster's routes, MQTT clients, monitoring.
	Client, Route, MQTT, HTTP int

	dir    string
	conf   string
	cmd    *exec.Cmd
	exited chan struct{}
}

// MQTTURL is the node's MQTT address as a client URL (tcp://127.0.0.1:PORT).
func (n *Node) MQTTURL() string { return fmt.Sprintf("tcp://127.0.0.1:%d", n.MQTT) }

// Running reports whether the node's process is up.
func (n *Node) Running() bool { return n.cmd != nil }

// Pid is the node's process id (0 when it is not running), to measure
// its CPU and memory.
func (n *Node) Pid() int {
	if n.cmd == nil {
		return 0
	}
	return n.cmd.Process.Pid
}

// Cluster is a running throw-away NATS cluster.
type Cluster struct {
	t     testing.TB
	bin   string
	dir   string
	Nodes []*Node
	mu    sync.Mutex
	// mqttUser is who connects to see that a node takes MQTT clients.
	mqttUser User
}

// Path finds the nats-server to run: $BOARDD_NATS_SERVER; else the
// version pinned in nats-server/go.mod beside this package (Pinned); else
// Debian's (on the PATH or in /usr/sbin: 2.9.10 on bookworm, whose
// JetStream stalls after a few node kills, docs/league.md). With none it
// skips the test (fails it in CI).
func Path(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("BOARDD_NATS_SERVER"); p != "" {
		return p
	}
	p, perr := Pinned()
	if perr == nil {
		return p
	}
	for _, p := range []string{"nats-server", "/usr/sbin/nats-server"} {
		if p, err := exec.LookPath(p); err == nil {
			t.Logf("natstest: the pinned nats-server cannot be built (%v); running %s", perr, p)
			return p
		}
	}
	err := fmt.Sprintf("natstest: no nats-server: the pinned one cannot be built (%v), and none is installed (not on the PATH, no /usr/sbin/nats-server); set BOARDD_NATS_SERVER", perr)
	if os.Getenv("CI") == "true" {
		t.Fatal(err)
	}
	t.Skip(err)
	return ""
}

var pinned struct {
	once sync.Once
	path string
	err  error
}

// Pinned builds the nats-server whose version nats-server/go.mod beside
// this package pins (a tool of that module: go tool -n nats-server) into
// the go command's build cache, once per process, and returns its path.
// It needs the go command and the module (from the module cache or the
// module proxy); run from inside the boardd module (as tests are).
func Pinned() (string, error) {
	pinned.once.Do(func() {
		gomod, err := exec.Command("go", "env", "GOMOD").Output()
		if err != nil {
			pinned.err = fmt.Errorf("go env GOMOD: %w", err)
			return
		}
		root := filepath.Dir(strings.TrimSpace(string(gomod)))
		dir := filepath.Join(root, "app", "hub", "natstest", "nats-server")
		out, err := exec.Command("go", "-C", dir, "tool", "-n", "nats-server").CombinedOutput()
		if err != nil {
			pinned.err = fmt.Errorf("go -C %s tool -n nats-server: %v: %s", dir, err, bytes.TrimSpace(out))
			return
		}
		pinned.path = strings.TrimSpace(string(out))
	})
	return pinned.path, pinned.err
}

// Start starts a cluster of n nodes with users (stopped and removed when
// t ends) and returns once every node answers as healthy, JetStream
// included.
func Start(t testing.TB, n int, users ...User) *Cluster {
	t.Helper()
	bin := Path(t)
	if v, err := exec.Command(bin, "--version").Output(); err == nil { // which one ran, in the test's log
		t.Logf("natstest: %s (%s)", bytes.TrimSpace(v), bin)
	}
	dir, err := os.MkdirTemp("", "boardd-natstest-")
	if err != nil {
		t.Fatal(err)
	}
	c := &Cluster{t: t, bin: bin, dir: dir}
	t.Cleanup(func() {
		for _, nd := range c.Nodes {
			c.stop(nd, syscall.SIGKILL) // nothing to keep
		}
		os.RemoveAll(dir)
	})
	for try := 0; ; try++ {
		c.Nodes = nil
		for i := 1; i <= n; i++ {
			nd := &Node{Name: "n" + strconv.Itoa(i), Client: testio.FreePort(t), Route: testio.FreePort(t), MQTT: testio.FreePort(t), HTTP: testio.FreePort(t)}
			nd.dir = filepath.Join(dir, nd.Name)
			nd.conf = filepath.Join(nd.dir, "nats.conf")
			c.Nodes = append(c.Nodes, nd)
		}
		err := c.startAll(users)
		if err == nil {
			return c
		}
		for _, nd := range c.Nodes {
			c.stop(nd, syscall.SIGKILL)
		}
		if try >= 2 || !strings.Contains(err.Error(), "address already in use") {
			t.Fatal(err)
		}
		// a port was taken meanwhile: others
	}
}

// writeConf writes nd's configuration with users.
func (c *Cluster) writeConf(nd *Node, users []User) error {
	nc := NodeConf{Name: nd.Name, Host: "127.0.0.1", Client: nd.Client, Route: nd.Route, MQTT: nd.MQTT,
		Monitor: fmt.Sprintf("127.0.0.1:%d", nd.HTTP), Store: filepath.Join(nd.dir, "jetstream"), Users: users}
	for _, o := range c.Nodes {
		if o != nd {
			nc.Routes = append(nc.Routes, fmt.Sprintf("nats-route://127.0.0.1:%d", o.Route))
		}
	}
	return os.WriteFile(nd.conf, []byte(Conf(nc)), 0o600)
}

func (c *Cluster) startAll(users []User) error {
	for _, nd := range c.Nodes {
		if err := os.MkdirAll(nd.dir, 0o755); err != nil {
			return err
		}
		if err := c.writeConf(nd, users); err != nil {
			return err
		}
		if err := c.launch(nd); err != nil {
			return err
		}
	}
	for _, nd := range c.Nodes {
		if err := c.waitHealthy(nd, "", 60*time.Second); err != nil {
			return err
		}
	}
	// NATS makes its MQTT streams at the first MQTT connection, and
	// cannot make them (replicated on three nodes) with a node down:
	// a cluster that lost a node before any MQTT client came would take
	// none until the node is back. A league's cluster has long had its
	// first client when a node fails; so has this one.
	if len(users) > 0 {
		c.mqttUser = users[0]
	}
	for _, nd := range c.Nodes {
		if err := mqttOnce(nd, c.mqttUser, 60*time.Second); err != nil {
			return err
		}
	}
	return nil
}

// mqttOnce connects an MQTT client to nd as u, trying until limit.
func mqttOnce(nd *Node, u User, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		o := paho.NewClientOptions().AddBroker(nd.MQTTURL()).SetUsername(u.Name).SetPassword(u.Password).
			SetClientID("natstest-" + nd.Name).SetProtocolVersion(4).SetCleanSession(true).SetAutoReconnect(false).
			SetConnectTimeout(10 * time.Second)
		c := paho.NewClient(o)
		tok := c.Connect()
		tok.WaitTimeout(15 * time.Second)
		err := tok.Error()
		if err == nil && c.IsConnected() {
			c.Disconnect(0)
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("natstest: node %s takes no MQTT client within %s: %v\n%s", nd.Name, limit, err, nd.logTail())
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// NodeConf is what Conf writes for one node.
type NodeConf struct {
	// Name is the server_name, unique in the cluster.
	Name string
	// Host is the address the client, route and MQTT listeners bind.
	Host string
	// Client, Route and MQTT are the ports of NATS clients, the
	// cluster's routes and MQTT clients.
	Client, Route, MQTT int
	// Monitor is the monitoring listener's host:port (/healthz).
	Monitor string
	// Routes are the other nodes' route URLs (nats-route://host:port).
	Routes []string
	// Store is JetStream's directory.
	Store string
	// Users are the accounts; none lets anyone in.
	Users []User
}

// Conf is a node's nats-server configuration: JetStream on, the
// cluster "league" with routes to the others, MQTT on with streams
// replicated on up to three nodes, 1 MB payloads, and the accounts.
// configs/league/nats-node*.conf are written by it (TestSampleConfigs).
func Conf(n NodeConf) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# nats-server node %s of the league's cluster (docs/league.md).\n", n.Name)
	fmt.Fprintf(&b, "server_name: %s\nlisten: \"%s:%d\"\nhttp: %q\n", n.Name, n.Host, n.Client, n.Monitor)
	fmt.Fprintf(&b, "max_payload: 1MB\n\n")
	fmt.Fprintf(&b, "jetstream {\n  store_dir: %q\n  max_memory_store: 64MB\n  max_file_store: 1GB\n}\n\n", n.Store)
	if len(n.Routes) > 0 { // a node alone is no cluster
		fmt.Fprintf(&b, "cluster {\n  name: league\n  listen: \"%s:%d\"\n  routes: [\n", n.Host, n.Route)
		for _, r := range n.Routes {
			fmt.Fprintf(&b, "    %s\n", r)
		}
		fmt.Fprintf(&b, "  ]\n}\n\n")
	}
	fmt.Fprintf(&b, "mqtt {\n  listen: \"%s:%d\"\n  stream_replicas: %d\n}\n", n.Host, n.MQTT, min(len(n.Routes)+1, 3))
	if len(n.Users) > 0 {
		fmt.Fprintf(&b, "\nauthorization {\n  users: [\n")
		for _, u := range n.Users {
			fmt.Fprintf(&b, "    {user: %q, password: %q", u.Name, u.Password)
			var perms []string
			if p := permMap(u.Publish, u.PublishDeny); p != "" {
				perms = append(perms, "publish: "+p)
			}
			if p := permMap(u.Subscribe, u.SubscribeDeny); p != "" {
				perms = append(perms, "subscribe: "+p)
			}
			if len(perms) > 0 {
				fmt.Fprintf(&b, ",\n     permissions: {%s}", strings.Join(perms, ", "))
			}
			fmt.Fprintf(&b, "}\n")
		}
		fmt.Fprintf(&b, "  ]\n}\n")
	}
	return b.String()
}

func permMap(allow, deny []string) string {
	var p []string
	if len(allow) > 0 {
		p = append(p, "allow: "+quoteList(allow))
	}
	if len(deny) > 0 {
		p = append(p, "deny: "+quoteList(deny))
	}
	if len(p) == 0 {
		return ""
	}
	return "{" + strings.Join(p, ", ") + "}"
}

func quoteList(s []string) string {
	q := make([]string, len(s))
	for i, v := range s {
		q[i] = strconv.Quote(v)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// MQTTURLs are the MQTT addresses of every node, in order.
func (c *Cluster) MQTTURLs() []string {
	var urls []string
	for _, nd := range c.Nodes {
		urls = append(urls, nd.MQTTURL())
	}
	return urls
}

// launch starts nd's process.
func (c *Cluster) launch(nd *Node) error {
	logf, err := os.OpenFile(filepath.Join(nd.dir, "nats.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	cmd := exec.Command(c.bin, "-c", nd.conf)
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		logf.Close()
		return fmt.Errorf("natstest: start %s: %w", c.bin, err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); logf.Close(); close(exited) }()
	c.mu.Lock()
	nd.cmd, nd.exited = cmd, exited
	c.mu.Unlock()
	return nil
}

// waitHealthy waits until nd's monitoring answers /healthz with 200
// (JetStream current with the cluster), or its process exits.
func (c *Cluster) waitHealthy(nd *Node, query string, limit time.Duration) error {
	url := fmt.Sprintf("http://127.0.0.1:%d/healthz%s", nd.HTTP, query)
	deadline := time.Now().Add(limit)
	var last string
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			var body bytes.Buffer
			body.ReadFrom(resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				cancel()
				return nil
			}
			last = fmt.Sprintf("%s: %s", resp.Status, strings.TrimSpace(body.String()))
		} else {
			last = err.Error()
		}
		cancel()
		select {
		case <-nd.exited:
			return fmt.Errorf("natstest: node %s exited: %s\n%s", nd.Name, last, nd.logTail())
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("natstest: node %s not healthy within %s: %s\n%s", nd.Name, limit, last, nd.logTail())
		}
	}
}

func (nd *Node) logTail() string {
	b, _ := os.ReadFile(filepath.Join(nd.dir, "nats.log"))
	lines := bytes.Split(bytes.TrimRight(b, "\n"), []byte("\n"))
	if len(lines) > 30 {
		lines = lines[len(lines)-30:]
	}
	return string(bytes.Join(lines, []byte("\n")))
}

// Log is what node i has logged so far.
func (c *Cluster) Log(i int) string {
	b, _ := os.ReadFile(filepath.Join(c.Nodes[i].dir, "nats.log"))
	return string(b)
}

// WaitHealthy waits (limit at most) until every running node answers
// /healthz with 200: every stream and consumer current, the state to
// take the next fault from (R3 survives one node down, not a second
// before the first has caught up).
func (c *Cluster) WaitHealthy(limit time.Duration) {
	c.t.Helper()
	for _, nd := range c.Nodes {
		if !nd.Running() {
			continue
		}
		if err := c.waitHealthy(nd, "", limit); err != nil {
			c.t.Fatal(err)
		}
	}
}

// SetUsers gives every running node these accounts instead (its
// configuration rewritten and reloaded, SIGHUP, as systemctl reload
// does): connected clients keep their connections under the new
// permissions.
func (c *Cluster) SetUsers(users ...User) {
	c.t.Helper()
	for _, nd := range c.Nodes {
		if err := c.writeConf(nd, users); err != nil {
			c.t.Fatal(err)
		}
		c.mu.Lock()
		cmd := nd.cmd
		c.mu.Unlock()
		if cmd != nil {
			cmd.Process.Signal(syscall.SIGHUP)
		}
	}
}

// Kill kills node i with SIGKILL: no goodbye to its clients or routes.
func (c *Cluster) Kill(i int) { c.stop(c.Nodes[i], syscall.SIGKILL) }

// Stop stops node i the way systemd does (SIGTERM; killed after 10 s).
func (c *Cluster) Stop(i int) { c.stop(c.Nodes[i], syscall.SIGTERM) }

func (c *Cluster) stop(nd *Node, sig syscall.Signal) {
	c.mu.Lock()
	cmd, exited := nd.cmd, nd.exited
	nd.cmd = nil
	c.mu.Unlock()
	if cmd == nil {
		return
	}
	cmd.Process.Signal(sig)
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		c.t.Logf("natstest: node %s did not stop within 10 s; killed", nd.Name)
		cmd.Process.Kill()
		<-exited
	}
}

// Restart starts the stopped (or killed) node i again on its ports with
// its store, and waits until it is healthy: caught up with the cluster.
func (c *Cluster) Restart(i int) {
	c.t.Helper()
	nd := c.Nodes[i]
	c.stop(nd, syscall.SIGTERM)
	var err error
	for try := 0; try < 50; try++ { // a port may take a moment to be free
		if err = c.launch(nd); err != nil {
			break
		}
		// Its JetStream server current (/healthz?js-server-only): each
		// stream and consumer catches up in its own time (NATS 2.9 may
		// report a consumer of retained messages "not current" for
		// minutes); and it takes MQTT clients.
		if err = c.waitHealthy(nd, "?js-server-only=true", 60*time.Second); err == nil {
			err = mqttOnce(nd, c.mqttUser, 60*time.Second)
		}
		if err == nil {
			return
		}
		c.stop(nd, syscall.SIGKILL)
		if !strings.Contains(err.Error(), "address already in use") {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	c.t.Fatal(err)
}

// Link is a TCP path from a client to a node that a test can cut, as a
// network cable pulled: its address forwards to the node until Cut
// closes every connection through it and refuses new ones, until
// Restore.
type Link struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	cut    bool
	conns  map[net.Conn]bool
}

// NewLink forwards a loopback address to target (host:port, or a
// tcp:// URL) until t ends.
func NewLink(t testing.TB, target string) *Link {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := &Link{ln: ln, target: strings.TrimPrefix(target, "tcp://"), conns: map[net.Conn]bool{}}
	go l.serve()
	t.Cleanup(func() { ln.Close(); l.Cut() })
	return l
}

// URL is the link's address as a client URL (tcp://127.0.0.1:PORT).
func (l *Link) URL() string { return "tcp://" + l.ln.Addr().String() }

func (l *Link) serve() {
	for {
		c, err := l.ln.Accept()
		if err != nil {
			return
		}
		l.mu.Lock()
		if l.cut {
			l.mu.Unlock()
			c.Close()
			continue
		}
		l.conns[c] = true
		l.mu.Unlock()
		go l.forward(c)
	}
}

func (l *Link) forward(c net.Conn) {
	s, err := net.DialTimeout("tcp", l.target, 5*time.Second)
	if err != nil {
		l.drop(c)
		return
	}
	l.mu.Lock()
	if l.cut {
		l.mu.Unlock()
		s.Close()
		l.drop(c)
		return
	}
	l.conns[s] = true
	l.mu.Unlock()
	done := make(chan struct{}, 2)
	copyAll := func(dst, src net.Conn) {
		buf := make([]byte, 32<<10)
		for {
			n, err := src.Read(buf)
			if n > 0 {
				if _, werr := dst.Write(buf[:n]); werr != nil {
					break
				}
			}
			if err != nil {
				break
			}
		}
		done <- struct{}{}
	}
	go copyAll(s, c)
	go copyAll(c, s)
	<-done
	l.drop(c)
	l.drop(s)
}

func (l *Link) drop(c net.Conn) {
	c.Close()
	l.mu.Lock()
	delete(l.conns, c)
	l.mu.Unlock()
}

// Cut closes every connection through the link and refuses new ones.
func (l *Link) Cut() {
	l.mu.Lock()
	l.cut = true
	conns := l.conns
	l.conns = map[net.Conn]bool{}
	l.mu.Unlock()
	for c := range conns {
		c.Close()
	}
}

// Restore lets connections through again.
func (l *Link) Restore() {
	l.mu.Lock()
	l.cut = false
	l.mu.Unlock()
}

// MQTTClients lists the MQTT clients connected to node i (by client id)
// with their subscriptions as NATS subjects (boardd/+/events is
// boardd.*.events), from the node's monitoring (/connz).
func (c *Cluster) MQTTClients(i int) (map[string][]string, error) {
	resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/connz?subs=true&limit=100000", c.Nodes[i].HTTP))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var connz struct {
		Connections []struct {
			MQTTClient string   `json:"mqtt_client"`
			Subs       []string `json:"subscriptions_list"`
		} `json:"connections"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&connz); err != nil {
		return nil, fmt.Errorf("natstest: node %s's /connz: %w", c.Nodes[i].Name, err)
	}
	out := map[string][]string{}
	for _, cn := range connz.Connections {
		if cn.MQTTClient != "" {
			out[cn.MQTTClient] = cn.Subs
		}
	}
	return out, nil
}

// WaitSubscribed waits (60 s at most) until an MQTT client whose id
// starts with client is connected to node i with a subscription to
// subject.
func (c *Cluster) WaitSubscribed(i int, client, subject string) {
	c.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		clients, err := c.MQTTClients(i)
		for id, subs := range clients {
			if strings.HasPrefix(id, client) && slices.Contains(subs, subject) {
				return
			}
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("natstest: no MQTT client %s… subscribed to %s on node %s within 60 s (%v, %v)", client, subject, c.Nodes[i].Name, clients, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// DropMQTTConsumers deletes every JetStream consumer of the cluster's
// MQTT messages stream ($MQTT_msgs: one per QoS 1 subscription of an
// MQTT client), as the loss of the node a consumer lived on does, with
// the clients' connections left up. It logs in over NATS as admin, a
// user allowed to publish to $JS.API.>, and returns how many it deleted.
func (c *Cluster) DropMQTTConsumers(admin User) (int, error) {
	// Each node's /jsz lists the consumers it holds.
	names := map[string]bool{}
	var nd *Node
	for _, n := range c.Nodes {
		if !n.Running() {
			continue
		}
		nd = n
		resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/jsz?accounts=true&streams=true&consumers=true", n.HTTP))
		if err != nil {
			return 0, err
		}
		var jsz struct {
			Accounts []struct {
				Streams []struct {
					Name      string `json:"name"`
					Consumers []struct {
						Name string `json:"name"`
					} `json:"consumer_detail"`
				} `json:"stream_detail"`
			} `json:"account_details"`
		}
		err = json.NewDecoder(resp.Body).Decode(&jsz)
		resp.Body.Close()
		if err != nil {
			return 0, fmt.Errorf("natstest: node %s's /jsz: %w", n.Name, err)
		}
		for _, a := range jsz.Accounts {
			for _, st := range a.Streams {
				if st.Name == "$MQTT_msgs" {
					for _, cn := range st.Consumers {
						names[cn.Name] = true
					}
				}
			}
		}
	}
	if nd == nil || len(names) == 0 {
		return 0, nil
	}
	conn, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", nd.Client), 5*time.Second)
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	auth, _ := json.Marshal(map[string]any{"user": admin.Name, "pass": admin.Password, "verbose": false, "pedantic": false})
	var b strings.Builder
	fmt.Fprintf(&b, "CONNECT %s\r\nSUB _INBOX.natstest.> 1\r\n", auth)
	for name := range names {
		fmt.Fprintf(&b, "PUB $JS.API.CONSUMER.DELETE.$MQTT_msgs.%s _INBOX.natstest.%d 0\r\n\r\n", name, len(name))
	}
	conn.SetDeadline(time.Now().Add(20 * time.Second))
	if _, err := conn.Write([]byte(b.String())); err != nil {
		return 0, err
	}
	// One answer per request: {"success":true} or an error.
	buf := make([]byte, 64<<10)
	var got strings.Builder
	for strings.Count(got.String(), "MSG _INBOX.natstest.") < len(names) {
		k, err := conn.Read(buf)
		got.Write(buf[:k])
		if strings.Contains(got.String(), "-ERR") {
			return 0, fmt.Errorf("natstest: node %s: %s", nd.Name, got.String())
		}
		if err != nil {
			return 0, fmt.Errorf("natstest: node %s: %w (%s)", nd.Name, err, got.String())
		}
	}
	return strings.Count(got.String(), `"success":true`), nil
}
