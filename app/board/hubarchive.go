package board

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"boardd/rules/pgn4"
	"boardd/sync/archive"
)

// HubArchiveMax bounds the archived games a board sends the hub it joins:
// the newest this many. Each is retained on the hub's broker until the
// broker restarts.
const HubArchiveMax = 200

// hubArchiveSent is the state file naming the archive's files the hub's
// broker acknowledged, one a line.
const hubArchiveSent = "hub-archive-sent"

// hubArchivePace is the pause between two archived games sent.
const hubArchivePace = 20 * time.Millisecond

// sendArchive publishes the board's archived games (its games/
// directory, the newest HubArchiveMax) to the club hub it joined, on
// games/<id>, one at a time, each acknowledged by the hub's broker
// before the next, and each once: hub-archive-sent names those sent, so
// the next start sends only what is new. The hub stores each game it
// does not hold (app/hub/importer): the games played before the board
// joined come along. It returns when all are sent or the board stops.
func (d *Daemon) sendArchive(ctx context.Context) error {
	st := d.rec.Store()
	items, bad, err := st.List(archive.Filter{})
	if err != nil {
		return fmt.Errorf("the archive for the hub: %w", err)
	}
	for _, b := range bad {
		d.log.Warn("the archive for the hub: "+b, "part", "hub")
	}
	if len(items) > HubArchiveMax {
		items = items[len(items)-HubArchiveMax:]
	}
	sentPath := filepath.Join(d.cfg.StateDir, hubArchiveSent)
	sent, err := readLines(sentPath)
	if err != nil {
		return fmt.Errorf("the archive for the hub: %w", err)
	}
	n := 0
	for _, it := range items {
		if sent[it.File] {
			continue
		}
		text, err := os.ReadFile(filepath.Join(st.Dir, it.File))
		if err != nil {
			d.log.Warn("an archived game not sent to the hub", "part", "hub", "file", it.File, "err", err)
			continue
		}
		id := strings.TrimSuffix(it.File, filepath.Ext(it.File))
		if pg, _, err := pgn4.ParseString(string(text)); err == nil && pg.Get("GameId") != "" {
			id = pg.Get("GameId")
		}
		if !d.Hub.PublishGame(id, string(text)) {
			return nil // the board stops
		}
		if err := appendLine(sentPath, it.File); err != nil {
			return fmt.Errorf("the archive for the hub: %w", err)
		}
		n++
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(hubArchivePace):
		}
	}
	if n > 0 {
		d.log.Info("archived games sent to the hub", "part", "hub", "games", n)
	}
	return nil
}

// readLines reads a file of lines into a set; a missing file is empty.
func readLines(path string) (map[string]bool, error) {
	out := map[string]bool{}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" {
			out[l] = true
		}
	}
	return out, sc.Err()
}

func appendLine(path, line string) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(line + "\n"); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
