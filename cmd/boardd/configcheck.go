package main

import (
	"crypto/tls"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"boardd/internal/catalog"

	"boardd/configs"
	"boardd/rules"
	"boardd/sync/mqtt"
)

// configChecks are the checks of a daemon config beyond its keys and
// values (configs.Daemon.Check, which runs the registered drivers' checks
// of their sections and the wiring and LED map files): the ones that need
// a package owning the value or the machine. boardd run and boardd config
// check both load through loadConfig, so they refuse the same files. A new
// check is one more entry here.
var configChecks = []configs.CheckFunc{
	checkBoardID,
	checkGame,
	checkMQTTTLS,
	checkWebTLS,
	checkStateDir,
}

// loadConfig reads and checks a daemon config; path "" is the defaults.
func loadConfig(path string) (configs.Daemon, error) {
	if path == "" {
		return configs.CheckDefaults(configChecks...)
	}
	return configs.Load(path, configChecks...)
}

// checkBoardID: the board id is a topic level and a file name.
func checkBoardID(c *configs.Checking) error {
	if err := mqtt.CheckID("board", c.Config.Board); err != nil {
		return c.Errorf("board", "%v", err)
	}
	return nil
}

// checkGame: the variant exists and fits the board, and game.start is a
// start array's name or a FEN4 the variant can play.
func checkGame(c *configs.Checking) error {
	d := c.Config
	array, fen := rules.SplitStart(d.Game.Start)
	v, err := catalog.Fitting(d.Squares())(d.Game.Variant, array)
	if err != nil {
		key := "game.variant"
		if array != "" {
			key = "game.start"
		}
		return c.Errorf(key, "%s", strings.TrimPrefix(err.Error(), errUsage.Error()+": "))
	}
	if _, err := rules.NewGame(v, fen); err != nil {
		return c.Errorf("game.start", "%q: %v (want a start array's name such as modern, or a FEN4)", d.Game.Start, err)
	}
	return nil
}

// checkMQTTTLS: the TLS files are certificates and keys, and go with the
// broker's URL, exactly as the mirror will read them.
func checkMQTTTLS(c *configs.Checking) error {
	m := c.Config.MQTT
	t := mqtt.TLS{CAFile: m.TLS.CAFile, CertFile: m.TLS.CertFile, KeyFile: m.TLS.KeyFile, InsecureSkipVerify: m.TLS.InsecureSkipVerify}
	if m.Disabled || t.Empty() {
		return nil
	}
	url := m.Broker
	if url == "" {
		url = "tcp://" + dialable(m.Embedded.Listen) // the embedded broker speaks plain MQTT
	}
	if _, err := mqtt.ClientOptions(url, m.Username, m.Password, t); err != nil {
		key := "mqtt.tls"
		switch {
		case strings.Contains(err.Error(), "CA file"):
			key = "mqtt.tls.ca_file"
		case strings.Contains(err.Error(), "client certificate"):
			key = "mqtt.tls.cert_file"
		}
		return c.Errorf(key, "%v", err)
	}
	return nil
}

// checkWebTLS: the web display's certificate and key load as a pair.
func checkWebTLS(c *configs.Checking) error {
	w := c.Config.Web
	if w.TLSCert == "" || w.Listen == "" || w.Listen == "off" {
		return nil
	}
	if _, err := tls.LoadX509KeyPair(w.TLSCert, w.TLSKey); err != nil {
		return c.Errorf("web.tls_cert", "certificate %s with key %s: %v", w.TLSCert, w.TLSKey, err)
	}
	return nil
}

// checkStateDir: the state directory exists and is a writable directory,
// or can be made: its nearest existing parent is one. Nothing is created.
func checkStateDir(c *configs.Checking) error {
	dir := c.Config.StateDir
	abs, err := filepath.Abs(dir)
	if err != nil {
		return c.Errorf("state_dir", "%q: %v", dir, err)
	}
	for p := abs; ; p = filepath.Dir(p) {
		fi, err := os.Stat(p)
		if (errors.Is(err, os.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)) && p != filepath.Dir(p) {
			continue // look at the parent: it names what is in the way
		}
		switch {
		case err != nil:
			return c.Errorf("state_dir", "%q cannot be made: %v", dir, err)
		case !fi.IsDir():
			return c.Errorf("state_dir", "%q cannot be made: %s is a file, not a directory", dir, p)
		case syscall.Access(p, 0x2|0x1) != nil: // W_OK|X_OK
			if p == abs {
				return c.Errorf("state_dir", "%q is not writable by this user: the daemon keeps its journal there", dir)
			}
			return c.Errorf("state_dir", "%q cannot be made: %s is not writable by this user", dir, p)
		}
		return nil
	}
}
