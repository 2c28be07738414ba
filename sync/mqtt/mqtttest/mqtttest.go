// Package mqtttest runs a real mosquitto for tests, with a password file,
// an optional TLS listener and certificates made on the spot: the MQTT
// mirror's tests and the daemon's use it. Tests skip where mosquitto is
// not installed, and fail in CI (CI=true), where .ci/run installs it.
package mqtttest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"boardd/internal/testio"
)

// User is an account in mosquitto's password file.
type User struct{ Name, Password string }

// WriteCerts makes a CA and a server certificate for 127.0.0.1 signed by
// it, as ca.pem, server.pem and server.key in dir.
func WriteCerts(t testing.TB, dir string) {
	t.Helper()
	key := func() *ecdsa.PrivateKey {
		k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	write := func(name, kind string, der []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), pem.EncodeToMemory(&pem.Block{Type: kind, Bytes: der}), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Now()
	caKey := key()
	ca := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "boardd test CA"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, ca, ca, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, _ = x509.ParseCertificate(caDER)
	srvKey := key()
	srv := &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)},
		KeyUsage:    x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	srvDER, err := x509.CreateCertificate(rand.Reader, srv, ca, &srvKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(srvKey)
	if err != nil {
		t.Fatal(err)
	}
	write("ca.pem", "CERTIFICATE", caDER)
	write("server.pem", "CERTIFICATE", srvDER)
	write("server.key", "EC PRIVATE KEY", keyDER)
}

// Mosquitto runs /usr/sbin/mosquitto with a config in a temporary
// directory: a password file, no anonymous access, no persistence.
type Mosquitto struct {
	t       testing.TB
	dir     string
	Port    int
	TLSPort int // 0: no TLS listener
	cmd     *exec.Cmd
	exited  chan struct{}
}

// Path finds mosquitto, or skips the test (fails it on CI).
func Path(t testing.TB) string {
	t.Helper()
	for _, p := range []string{"/usr/sbin/mosquitto", "mosquitto"} {
		if path, err := exec.LookPath(p); err == nil {
			if _, err := exec.LookPath("mosquitto_passwd"); err == nil {
				return path
			}
		}
	}
	msg := "mosquitto or mosquitto_passwd is not installed (Debian: apt-get install mosquitto mosquitto-clients); the tests against a real broker need them"
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// Start starts mosquitto with these users; with certDir it adds a TLS
// listener using ca.pem, server.pem and server.key from there (see
// WriteCerts); extra is added to its configuration. It is killed when the
// test ends.
func Start(t testing.TB, users []User, certDir string, extra ...string) *Mosquitto {
	bin := Path(t)
	m := &Mosquitto{t: t, dir: t.TempDir(), Port: testio.FreePort(t)}
	pw := filepath.Join(m.dir, "passwd")
	for i, u := range users {
		args := []string{"-b", pw, u.Name, u.Password}
		if i == 0 {
			args = append([]string{"-c"}, args...)
		}
		if out, err := exec.Command("mosquitto_passwd", args...).CombinedOutput(); err != nil {
			t.Fatalf("mosquitto_passwd: %v: %s", err, out)
		}
	}
	conf := fmt.Sprintf("per_listener_settings false\nallow_anonymous false\npassword_file %s\npersistence false\nlog_dest stderr\nlog_type error\nlog_type warning\nlistener %d 127.0.0.1\n", pw, m.Port)
	if certDir != "" {
		m.TLSPort = testio.FreePort(t)
		conf += fmt.Sprintf("listener %d 127.0.0.1\ncafile %s\ncertfile %s\nkeyfile %s\n", m.TLSPort,
			filepath.Join(certDir, "ca.pem"), filepath.Join(certDir, "server.pem"), filepath.Join(certDir, "server.key"))
	}
	if os.Getuid() == 0 {
		conf += "user root\n" // stay root, so the files in the test's directory stay readable
	}
	conf += strings.Join(extra, "") // bridge sections come last
	if err := os.WriteFile(filepath.Join(m.dir, "mosquitto.conf"), []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	m.cmd = exec.Command(bin, "-c", filepath.Join(m.dir, "mosquitto.conf"))
	m.Restart()
	t.Cleanup(m.Kill)
	return m
}

// URL is the plain listener's address, tcp://127.0.0.1:PORT.
func (m *Mosquitto) URL() string { return fmt.Sprintf("tcp://127.0.0.1:%d", m.Port) }

// TLSURL is the TLS listener's address, ssl://127.0.0.1:PORT.
func (m *Mosquitto) TLSURL() string { return fmt.Sprintf("ssl://127.0.0.1:%d", m.TLSPort) }

// Restart starts mosquitto again after Kill (and at first).
func (m *Mosquitto) Restart() {
	m.cmd = exec.Command(m.cmd.Path, m.cmd.Args[1:]...)
	m.cmd.Stdout = io.Discard
	m.cmd.Stderr = &tlogWriter{t: m.t}
	if err := m.cmd.Start(); err != nil {
		m.t.Fatalf("start mosquitto: %v", err)
	}
	m.exited = make(chan struct{})
	go func(c *exec.Cmd, done chan struct{}) { c.Wait(); close(done) }(m.cmd, m.exited)
	for _, p := range []int{m.Port, m.TLSPort} {
		if p != 0 {
			waitListening(m.t, p, m.exited)
		}
	}
}

// Kill kills mosquitto (SIGKILL: no goodbye to its clients).
func (m *Mosquitto) Kill() {
	if m.cmd == nil || m.cmd.Process == nil {
		return
	}
	m.cmd.Process.Kill()
	<-m.exited
}

type tlogWriter struct{ t testing.TB }

func (w *tlogWriter) Write(p []byte) (int, error) {
	w.t.Logf("mosquitto: %s", strings.TrimSpace(string(p)))
	return len(p), nil
}

func waitListening(t testing.TB, port int, exited chan struct{}) {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			t.Fatal("mosquitto exited at start (see its log above)")
		default:
		}
		c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err == nil {
			c.Close()
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("mosquitto does not listen on port %d", port)
}
