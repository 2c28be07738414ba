// Package collect saves the finished games boards publish over MQTT
// (<prefix>/<board>/games/<id>) as PGN4 files, one directory per board:
// what boardd collect runs on a club's server.
package collect

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	paho "github.com/eclipse/paho.mqtt.golang"

	"boardd/sync/mqtt"
	"boardd/sync/mqttclient"
)

// Run subscribes to every board's finished games and writes each to
// dir/<board>/<game>.pgn4 until ctx ends. A game already saved with the
// same text is left alone; new and changed files are reported on stdout.
func Run(ctx context.Context, br mqttclient.Broker, dir string, stdout, stderr io.Writer) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	prefix := strings.TrimSuffix(br.Prefix, "/")
	filter := prefix + "/+/" + mqtt.TopicGames + "/+"
	type game struct {
		topic string
		pgn   []byte
	}
	games := make(chan game, 256)
	c, err := br.Connect(mqttclient.ClientID("collect"), func(c paho.Client) error {
		err := mqttclient.Subscribe(c, map[string]byte{filter: 1}, func(_ paho.Client, m paho.Message) {
			select {
			case games <- game{m.Topic(), m.Payload()}:
			case <-ctx.Done():
			}
		})
		if err == nil {
			fmt.Fprintf(stderr, "collecting %s from %s into %s\n", filter, br.URL, dir)
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
			path, what, err := SaveGame(dir, prefix, g.topic, g.pgn)
			switch {
			case err != nil:
				fmt.Fprintf(stderr, "collect: %v\n", err)
			case what != "":
				fmt.Fprintf(stdout, "%s %s\n", what, path)
			}
		}
	}
}

// SaveGame writes one game published on topic <prefix>/<board>/games/<id>.
// It returns the file and "new" or "updated", or "" when the file already
// holds this text (or the payload is empty: a retained game cleared).
func SaveGame(dir, prefix, topic string, pgn []byte) (path, what string, err error) {
	board, leaf, ok := mqtt.SplitTopic(prefix, topic)
	id, game := strings.CutPrefix(leaf, mqtt.TopicGames+"/")
	if !ok || !game || strings.Contains(id, "/") {
		return "", "", fmt.Errorf("topic %q is not %s/<board>/games/<id>", topic, prefix)
	}
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
