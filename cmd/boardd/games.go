package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"boardd/app/catalog"
	"boardd/configs"
	"boardd/internal/printable"
	"boardd/rules/notation"
	"boardd/sync/archive"
)

func init() {
	register(command{name: "games", summary: "list, show or export the archived games (games list|show|export)", run: runGames})
}

func runGames(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: boardd games list|show|export [--dir DIR] …", errUsage)
	}
	sub := args[0]
	fs := newFlags("games "+sub, stderr)
	dir := fs.String("dir", "", "the archive directory (default: games/ in the state directory the service uses: the config's state_dir, $STATE_DIRECTORY, /var/lib/boardd for the packaged config, else ./boardd-state)")
	cfgPath := fs.String("config", "", "the daemon's config file, for its state_dir (default: "+configs.PackagedConfig+" when it is there, as the service reads it)")
	event := fs.String("event", "", "only games of this event")
	player := fs.String("player", "", "only games with a player whose name contains this")
	date := fs.String("date", "", "only games whose date starts with this (2026-11)")
	notationName := fs.String("notation", archiveNotation, "export: pgn4 (the archive's files as they are) or chess4 (Chess4's notation)")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if *dir == "" {
		cfg, err := serviceConfig(*cfgPath, stderr)
		if err != nil {
			return fmt.Errorf("%w (--dir DIR reads an archive directory without a config)", err)
		}
		*dir = (&archive.Recorder{Dir: cfg.StateDir}).Store().Dir
		fmt.Fprintf(stderr, "boardd games: reading %s, in the state directory %s (%s)\n", *dir, cfg.StateDir, cfg.StateDirFrom())
	}
	st := archive.Store{Dir: *dir}
	if sub == "show" && fs.NArg() == 1 && strings.ContainsRune(fs.Arg(0), filepath.Separator) {
		// A path to a PGN4 file, wherever it is.
		data, err := os.ReadFile(fs.Arg(0))
		if err != nil {
			return fmt.Errorf("games show: %w", err)
		}
		_, err = stdout.Write(data)
		return err
	}
	items, bad, err := st.List(archive.Filter{Event: *event, Player: *player, Date: *date})
	if err != nil {
		return permissionHint(err)
	}
	for _, b := range bad {
		fmt.Fprintln(stderr, "warning:", b)
	}
	switch sub {
	case "list":
		// An index written by an older boardd, or by hand, may hold control
		// characters: a terminal must not run them.
		e := printable.Escape
		for _, it := range items {
			fmt.Fprintf(stdout, "%s  %-10s %-16s r%-3s board %-3s %-8s %s  %s\n", e(it.File), e(it.Date), e(it.Event), e(it.Round), e(it.Board), e(it.Variant), e(it.Result), e(it.Players))
		}
		fmt.Fprintf(stdout, "%d games in %s\n", len(items), *dir)
		if len(items) == 0 {
			if _, err := os.Stat(*dir); errors.Is(err, os.ErrPermission) {
				fmt.Fprintf(stderr, "%v\n", permissionHint(err))
			} else if err != nil {
				fmt.Fprintf(stderr, "%s does not exist: boardd run keeps finished games in its state directory's games/ (give --dir DIR or --config FILE)\n", *dir)
			}
		}
		return nil
	case "show":
		if fs.NArg() != 1 {
			return fmt.Errorf("%w: boardd games show FILE", errUsage)
		}
		data, err := os.ReadFile(filepath.Join(*dir, filepath.Base(fs.Arg(0))))
		if err != nil {
			return fmt.Errorf("games show: %w (boardd games list shows the files of %s; a path such as ./game.pgn4 shows that file)", permissionHint(err), *dir)
		}
		lines := strings.SplitAfter(string(data), "\n")
		for i, l := range lines {
			lines[i] = printable.Escape(strings.TrimSuffix(l, "\n")) + l[len(strings.TrimSuffix(l, "\n")):]
		}
		_, err = io.WriteString(stdout, strings.Join(lines, ""))
		return err
	case "export":
		to, err := notation.ByName(*notationName)
		if err != nil {
			return fmt.Errorf("%w: --%v", errUsage, err)
		}
		// One file with every selected game, blank lines between: what a
		// tournament director sends on.
		for i, it := range items {
			data, err := os.ReadFile(filepath.Join(*dir, it.File))
			if err != nil {
				return permissionHint(err)
			}
			if to.Name() != archiveNotation {
				if data, err = convert(data, to); err != nil {
					return fmt.Errorf("%s: %w", it.File, err)
				}
			}
			if i > 0 {
				fmt.Fprintln(stdout)
			}
			stdout.Write(data)
		}
		return nil
	}
	return fmt.Errorf("%w: unknown games command %q: want list, show or export", errUsage, sub)
}

// archiveNotation is the notation of the archive's files: exported in
// it, they are copied as they are.
const archiveNotation = "pgn4"

// convert replays an archived game and writes it in the notation to,
// with its tags (Chess4's notation names Red, Blue, Yellow and Green's
// players White, Silver, Black and Gold).
func convert(data []byte, to notation.Notation) ([]byte, error) {
	from, err := notation.ByName(archiveNotation)
	if err != nil {
		return nil, err
	}
	r, err := from.Read(string(data), notation.Options{Lookup: catalog.Variant})
	if err != nil {
		return nil, err
	}
	text, err := to.Write(r.Game, r.Tags)
	return []byte(text), err
}

// serviceConfig reads the config whose state directory a command reads:
// the one given, else the packaged config when it is there (the one the
// service runs with), else the defaults. An unreadable packaged config
// is said, not silently passed over.
func serviceConfig(path string, stderr io.Writer) (configs.Daemon, error) {
	if path == "" {
		f, err := os.Open(configs.PackagedConfig)
		switch {
		case err == nil:
			f.Close()
			path = configs.PackagedConfig
		case !errors.Is(err, os.ErrNotExist):
			fmt.Fprintf(stderr, "boardd: %v: using the defaults (give --config FILE)\n", err)
		}
	}
	if path == "" {
		return configs.Defaults(), nil
	}
	return configs.Load(path)
}

// permissionHint adds, to a permission error on the state directory,
// how to get in: the service's files belong to its user.
func permissionHint(err error) error {
	if errors.Is(err, os.ErrPermission) {
		return fmt.Errorf("%w (the service's state belongs to the user boardd: run the command with sudo, or join the group boardd with `sudo usermod -aG boardd $USER` and log in again)", err)
	}
	return err
}
