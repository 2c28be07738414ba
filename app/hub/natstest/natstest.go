// Package natstest starts a throw-away NATS cluster for tests: N
// nats-server processes (Debian's nats-server) on free loopback ports,
// each with its own directory, routes to the others, JetStream and MQTT
// on, and the accounts the test asks for; a node can be stopped, killed
// with SIGKILL and started again on the same ports and store, and the
// cluster is stopped and removed when the test ends.
//
// The node's configuration is the one a league runs
// (configs/league/nats-node*.conf) with test ports and a test directory:
// Conf writes both.
//
// Without nats-server installed (apt-get install nats-server) the test
// is skipped with a message, except in CI (CI=true), where it fails.
package natstest

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
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

// League are the accounts of a league's cluster for boards publishing
// under prefix (boardd): "board" publishes its stream and the replies
// to commands but no command, and reads its commands; "hub" reads every
// board and sends the commands; "viewer" only reads.
func League(prefix, boardPW, hubPW, viewerPW string) []User {
	sub := "$MQTT.sub.>"
	return []User{
		{Name: "board", Password: boardPW, Publish: []string{prefix + ".>"}, PublishDeny: []string{prefix + ".*.cmd.*"},
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

// Cluster is a running throw-away NATS cluster.
type Cluster struct {
	t     testing.TB
	bin   string
	dir   string
	Nodes []*Node
	mu    sync.Mutex
}

// Path finds nats-server ($BOARDD_NATS_SERVER, the PATH, /usr/sbin), or
// skips the test (fails it in CI).
func Path(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("BOARDD_NATS_SERVER"); p != "" {
		return p
	}
	if p, err := exec.LookPath("nats-server"); err == nil {
		return p
	}
	if _, err := os.Stat("/usr/sbin/nats-server"); err == nil {
		return "/usr/sbin/nats-server"
	}
	err := "natstest: nats-server is not installed (not on the PATH, no /usr/sbin/nats-server): apt-get install nats-server, or set BOARDD_NATS_SERVER"
	if os.Getenv("CI") == "true" {
		t.Fatal(err)
	}
	t.Skip(err)
	return ""
}

// Start starts a cluster of n nodes with users (stopped and removed when
// t ends) and returns once every node answers as healthy, JetStream
// included.
func Start(t testing.TB, n int, users ...User) *Cluster {
	t.Helper()
	bin := Path(t)
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
			nd := &Node{Name: "n" + strconv.Itoa(i), Client: freePort(t), Route: freePort(t), MQTT: freePort(t), HTTP: freePort(t)}
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

func (c *Cluster) startAll(users []User) error {
	for _, nd := range c.Nodes {
		if err := os.MkdirAll(nd.dir, 0o755); err != nil {
			return err
		}
		nc := NodeConf{Name: nd.Name, Host: "127.0.0.1", Client: nd.Client, Route: nd.Route, MQTT: nd.MQTT,
			Monitor: fmt.Sprintf("127.0.0.1:%d", nd.HTTP), Store: filepath.Join(nd.dir, "jetstream"), Users: users}
		for _, o := range c.Nodes {
			if o != nd {
				nc.Routes = append(nc.Routes, fmt.Sprintf("nats-route://127.0.0.1:%d", o.Route))
			}
		}
		if err := os.WriteFile(nd.conf, []byte(Conf(nc)), 0o600); err != nil {
			return err
		}
		if err := c.launch(nd); err != nil {
			return err
		}
	}
	for _, nd := range c.Nodes {
		if err := c.waitHealthy(nd, 60*time.Second); err != nil {
			return err
		}
	}
	return nil
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
	fmt.Fprintf(&b, "cluster {\n  name: league\n  listen: \"%s:%d\"\n  routes: [\n", n.Host, n.Route)
	for _, r := range n.Routes {
		fmt.Fprintf(&b, "    %s\n", r)
	}
	fmt.Fprintf(&b, "  ]\n}\n\n")
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
func (c *Cluster) waitHealthy(nd *Node, limit time.Duration) error {
	url := fmt.Sprintf("http://127.0.0.1:%d/healthz", nd.HTTP)
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
		if err = c.waitHealthy(nd, 60*time.Second); err == nil {
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

func freePort(t testing.TB) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}
