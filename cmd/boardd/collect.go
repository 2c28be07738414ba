package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"boardd/sync/collect"
	"boardd/sync/mqttclient"
)

func init() {
	register(command{name: "collect", summary: "save the finished games boards publish over MQTT (collect --broker URL --out DIR)", run: runCollect})
}

func runCollect(args []string, stdout, stderr io.Writer) error {
	flags := newFlags("collect", stderr)
	bf := mqttclient.BindFlags(flags)
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
	return collect.Run(ctx, *bf, *out, stdout, stderr)
}
