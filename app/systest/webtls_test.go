package systest

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"boardd/app/board"
	"boardd/configs"
	"boardd/sync/mqtt/mqtttest"
)

// With web.tls_cert and web.tls_key the display is served over HTTPS
// only, and the login cookie is Secure.
func TestRunWebOverTLS(t *testing.T) {
	certs := t.TempDir()
	mqtttest.WriteCerts(t, certs)
	cfg := configs.Defaults()
	cfg.StateDir = t.TempDir()
	cfg.MQTT.Disabled = true
	cfg.Web.Listen, cfg.Web.Password = "127.0.0.1:0", "club-pw"
	cfg.Web.TLSCert, cfg.Web.TLSKey = filepath.Join(certs, "server.pem"), filepath.Join(certs, "server.key")
	var out strings.Builder
	d, err := board.Start(context.Background(), cfg, &out, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if !strings.Contains(out.String(), "https://"+d.WebAddr+"/") {
		t.Errorf("the greeting does not give the https address:\n%s", out.String())
	}
	ca, err := os.ReadFile(filepath.Join(certs, "ca.pem"))
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(ca)
	c := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	res, err := c.Post("https://"+d.WebAddr+"/api/login", "application/json", strings.NewReader(`{"password":"club-pw"}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	cookies := res.Cookies()
	if res.StatusCode != 200 || len(cookies) != 1 || !cookies[0].Secure || !cookies[0].HttpOnly {
		t.Errorf("login over HTTPS: %d, cookies %v; want one Secure, HttpOnly session cookie", res.StatusCode, cookies)
	}
	plain := &http.Client{Timeout: 10 * time.Second}
	if res, err := plain.Get("http://" + d.WebAddr + "/api/state"); err == nil {
		res.Body.Close()
		if res.StatusCode == 200 {
			t.Error("plain HTTP is answered on the HTTPS port")
		}
	}
}
