package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

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
	dir := fs.String("dir", "archive", "the archive directory")
	event := fs.String("event", "", "only games of this event")
	player := fs.String("player", "", "only games with a player whose name contains this")
	date := fs.String("date", "", "only games whose date starts with this (2026-11)")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	st := archive.Store{Dir: *dir}
	items, bad, err := st.List(archive.Filter{Event: *event, Player: *player, Date: *date})
	if err != nil {
		return err
	}
	for _, b := range bad {
		fmt.Fprintln(stderr, "warning:", b)
	}
	switch sub {
	case "list":
		for _, it := range items {
			fmt.Fprintf(stdout, "%s  %-10s %-16s r%-3s board %-3s %-8s %s  %s\n", it.File, it.Date, it.Event, it.Round, it.Board, it.Variant, it.Result, it.Players)
		}
		fmt.Fprintf(stdout, "%d games\n", len(items))
		return nil
	case "show":
		if fs.NArg() != 1 {
			return fmt.Errorf("%w: boardd games show FILE", errUsage)
		}
		data, err := os.ReadFile(filepath.Join(*dir, filepath.Base(fs.Arg(0))))
		if err != nil {
			return err
		}
		_, err = stdout.Write(data)
		return err
	case "export":
		// One file with every selected game, blank lines between: what a
		// tournament director sends on.
		for i, it := range items {
			data, err := os.ReadFile(filepath.Join(*dir, it.File))
			if err != nil {
				return err
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
