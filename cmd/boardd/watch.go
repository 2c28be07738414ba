package main

import (
	"fmt"
	"io"

	"boardd/app/termview"
	"boardd/sync/mqtt"
)

func init() {
	register(command{name: "watch", summary: "draw a board's game in the terminal from MQTT (watch --broker URL --board ID)", run: runWatch})
}

func runWatch(args []string, stdout, stderr io.Writer) error {
	flags, bf := mqttFlags("watch", "usage: boardd watch --broker URL --board ID [--user U --password P --prefix boardd --color]",
		"Draws the board on every state it publishes, with each event's text below, until interrupted.", stderr)
	board := flags.String("board", "", "the board's id")
	color := flags.Bool("color", false, "draw the LED colours and redraw in place (ANSI terminal)")
	if err := flags.Parse(args); err != nil {
		return err
	}
	if *board == "" || flags.NArg() > 0 {
		return fmt.Errorf("%w: boardd watch --broker URL --board ID", errUsage)
	}
	if err := mqtt.CheckID("board", *board); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	ctx, stop := untilInterrupted()
	defer stop()
	return termview.Watch(ctx, *bf, *board, *color, stdout, stderr)
}
