package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"boardd/sync/mqtt"

	paho "github.com/eclipse/paho.mqtt.golang"
	"github.com/eclipse/paho.mqtt.golang/packets"
)

func init() {
	register(command{name: "collect", summary: "save the finished games boards publish over MQTT (collect --broker URL --out DIR)", run: runCollect})
}

// brokerFlags are the flags every MQTT client command takes.
type brokerFlags struct {
	url, user, password, prefix *string
	ca, cert, key               *string
}

func addBrokerFlags(flags *flag.FlagSet) brokerFlags {
	return brokerFlags{
		url:      flags.String("broker", "", "the MQTT broker: tcp://host:1883, ssl://host:8883, ws://host:8080/mqtt"),
		user:     flags.String("user", "", "MQTT user name"),
		password: flags.String("password", "", "MQTT password (default: $BOARDD_MQTT_PASSWORD)"),
		prefix:   flags.String("prefix", mqtt.DefaultPrefix, "first topic level of the boards"),
		ca:       flags.String("ca", "", "PEM file of the CA that signed an ssl:// broker's certificate"),
		cert:     flags.String("cert", "", "PEM client certificate, for brokers that want one"),
		key:      flags.String("key", "", "PEM key of the client certificate"),
	}
}

// connect connects to the broker once (so a wrong URL or password is an
// error now) and keeps reconnecting afterwards; onConnect runs on every
// connection and must (re)subscribe.
func (f brokerFlags) connect(clientID string, onConnect func(paho.Client) error) (paho.Client, error) {
	if *f.url == "" {
		return nil, fmt.Errorf("%w: --broker is required (tcp://host:1883)", errUsage)
	}
	pw := *f.password
	if pw == "" {
		pw = os.Getenv("BOARDD_MQTT_PASSWORD")
	}
	opts, err := mqtt.ClientOptions(*f.url, *f.user, pw, mqtt.TLS{CAFile: *f.ca, CertFile: *f.cert, KeyFile: *f.key})
	if err != nil {
		return nil, err
	}
	firstErr := make(chan error, 1)
	opts.SetClientID(clientID).
		SetCleanSession(true).
		SetAutoReconnect(true).
		SetMaxReconnectInterval(10 * time.Second).
		SetConnectTimeout(10 * time.Second).
		SetKeepAlive(30 * time.Second).
		SetOnConnectHandler(func(c paho.Client) {
			err := onConnect(c)
			select {
			case firstErr <- err:
			default:
			}
		})
	c := paho.NewClient(opts)
	tok := c.Connect()
	if !tok.WaitTimeout(15 * time.Second) {
		c.Disconnect(0)
		return nil, fmt.Errorf("connect to %s: no answer within 15 s", *f.url)
	}
	if err := tok.Error(); err != nil {
		if errors.Is(err, packets.ErrorRefusedBadUsernameOrPassword) || errors.Is(err, packets.ErrorRefusedNotAuthorised) {
			who := "no user name"
			if *f.user != "" {
				who = fmt.Sprintf("user %q and that password", *f.user)
			}
			return nil, fmt.Errorf("connect to %s: the broker refused %s (%v): pass the user and password the board printed when it started (\"MQTT broker: … user boardd, password …\") with --user and --password, or $BOARDD_MQTT_PASSWORD", *f.url, who, err)
		}
		return nil, fmt.Errorf("connect to %s: %w", *f.url, err)
	}
	if err := <-firstErr; err != nil {
		c.Disconnect(0)
		return nil, err
	}
	return c, nil
}

func mqttSubscribe(c paho.Client, filters map[string]byte, h paho.MessageHandler) error {
	tok := c.SubscribeMultiple(filters, h)
	if !tok.WaitTimeout(10 * time.Second) {
		return errors.New("subscribe: no answer from the broker within 10 s")
	}
	if err := tok.Error(); err != nil {
		return fmt.Errorf("subscribe: %w", err)
	}
	for f, code := range tok.(*paho.SubscribeToken).Result() {
		if code >= 0x80 {
			return fmt.Errorf("subscribe to %s: refused by the broker (code %#x)", f, code)
		}
	}
	return nil
}

func mqttClientID(what string) string {
	host, _ := os.Hostname()
	return fmt.Sprintf("boardd-%s-%s-%d", what, host, os.Getpid())
}

func runCollect(args []string, stdout, stderr io.Writer) error {
	flags := newFlags("collect", stderr)
	bf := addBrokerFlags(flags)
	out := flags.String("out", "", "directory for the games: DIR/<board>/<game id>.pgn4")
	flags.Usage = func() {
		fmt.Fprintln(stderr, "usage: boardd collect --broker URL --out DIR [--user U --password P --prefix boardd]")
		fmt.Fprintln(stderr, "Saves every game the boards publish on <prefix>/+/games/+, until interrupted.")
		flags.PrintDefaults()
	}
	if err := flags.Parse(args); err != nil {
		return err
	}
	if *out == "" || flags.NArg() > 0 {
		return fmt.Errorf("%w: boardd collect --broker URL --out DIR", errUsage)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return collect(ctx, bf, *out, stdout, stderr)
}

// collect subscribes to every board's finished games and writes each to
// dir/<board>/<game>.pgn4 until ctx ends. A game already saved with the
// same text is left alone; new and changed files are reported on stdout.
func collect(ctx context.Context, bf brokerFlags, dir string, stdout, stderr io.Writer) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	prefix := strings.TrimSuffix(*bf.prefix, "/")
	filter := prefix + "/+/" + mqtt.TopicGames + "/+"
	type game struct {
		topic string
		pgn   []byte
	}
	games := make(chan game, 256)
	c, err := bf.connect(mqttClientID("collect"), func(c paho.Client) error {
		err := mqttSubscribe(c, map[string]byte{filter: 1}, func(_ paho.Client, m paho.Message) {
			select {
			case games <- game{m.Topic(), m.Payload()}:
			case <-ctx.Done():
			}
		})
		if err == nil {
			fmt.Fprintf(stderr, "collecting %s from %s into %s\n", filter, *bf.url, dir)
		} else {
			fmt.Fprintf(stderr, "collect: %v\n", err)
		}
		return err
	})
	if err != nil {
		return err
	}
	defer c.Disconnect(250)
	for {
		select {
		case <-ctx.Done():
			return nil
		case g := <-games:
			path, what, err := saveGame(dir, prefix, g.topic, g.pgn)
			switch {
			case err != nil:
				fmt.Fprintf(stderr, "collect: %v\n", err)
			case what != "":
				fmt.Fprintf(stdout, "%s %s\n", what, path)
			}
		}
	}
}

// saveGame writes one game published on topic <prefix>/<board>/games/<id>.
// It returns the file and "new" or "updated", or "" when the file already
// holds this text (or the payload is empty: a retained game cleared).
func saveGame(dir, prefix, topic string, pgn []byte) (path, what string, err error) {
	rest, ok := strings.CutPrefix(topic, prefix+"/")
	parts := strings.Split(rest, "/")
	if !ok || len(parts) != 3 || parts[1] != mqtt.TopicGames {
		return "", "", fmt.Errorf("topic %q is not %s/<board>/games/<id>", topic, prefix)
	}
	board, id := parts[0], parts[2]
	for _, c := range []struct{ what, id string }{{"board", board}, {"game", id}} {
		if err := mqtt.CheckID(c.what, c.id); err != nil || strings.ContainsAny(c.id, `\:*?"<>|`) {
			return "", "", fmt.Errorf("topic %q: %s id %q cannot be a file name", topic, c.what, c.id)
		}
	}
	if len(bytes.TrimSpace(pgn)) == 0 {
		return "", "", nil
	}
	path = filepath.Join(dir, board, id+".pgn4")
	old, err := os.ReadFile(path)
	switch {
	case err == nil && bytes.Equal(old, pgn):
		return path, "", nil
	case err == nil:
		what = "updated"
	case errors.Is(err, fs.ErrNotExist):
		what = "new"
	default:
		return "", "", err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", "", err
	}
	if err := writeGameFile(path, pgn); err != nil {
		return "", "", err
	}
	return path, what, nil
}

// writeGameFile writes a temporary file beside path, syncs it and
// renames it over path: readers see the old file or the new one, whole.
func writeGameFile(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
