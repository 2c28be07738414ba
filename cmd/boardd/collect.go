package main

import (
	"fmt"
	"io"

	"boardd/sync/collect"
)

func init() {
	register(command{name: "collect", summary: "save the finished games boards publish over MQTT (collect --broker URL --out DIR)", run: runCollect})
}

func runCollect(args []string, stdout, stderr io.Writer) error {
	flags, bf := mqttFlags("collect", "usage: boardd collect --broker URL --out DIR [--user U --password P --prefix boardd]",
		"Saves every game the boards publish on <prefix>/+/games/+, until interrupted.", stderr)
	out := flags.String("out", "", "directory for the games: DIR/<board>/<game id>.pgn4")
	if err := flags.Parse(args); err != nil {
		return err
	}
	if *out == "" || flags.NArg() > 0 {
		return fmt.Errorf("%w: boardd collect --broker URL --out DIR", errUsage)
	}
	ctx, stop := untilInterrupted()
	defer stop()
	return collect.Run(ctx, *bf, *out, stdout, stderr)
}
