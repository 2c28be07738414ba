package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"time"

	"boardd/app/catalog"
	"boardd/engine"
	"boardd/sync/botseat"
	"boardd/sync/mqtt"
	"boardd/sync/mqttclient"
)

func init() {
	register(command{name: "bot", summary: "play a seat of a board over MQTT with the bot (bot --broker URL --board ID --seat Green)", run: runBot})
}

func runBot(args []string, stdout, stderr io.Writer) error {
	flags, bf := mqttFlags("bot", "usage: boardd bot --broker URL --board ID --seat Green [--level N --movetime 2s --hand 1s --user U --password P --prefix boardd]",
		"Plays one seat of the board as a remote seat until interrupted: it makes the seat remote, and on its turn sends its move (cmd/move), which the board lights for a person to make.", stderr)
	board := flags.String("board", "", "the board's id")
	seatName := flags.String("seat", "", "the seat the bot plays: Red, Blue, Yellow or Green")
	level := flags.Int("level", 3, "strength, 1 (a beginner) to 5 (the strongest the time allows)")
	movetime := flags.Duration("movetime", 2*time.Second, "time per move when the game has no clocks (with clocks the bot plans its time on the seat's clock)")
	hand := flags.Duration("hand", engine.DefaultHand, "with clocks: how long a person takes to make the bot's lit move on the board (the seat's clock runs meanwhile; 0 to 1m)")
	hash := flags.Int("hash-mb", 64, "the transposition table, megabytes")
	resign := flags.Bool("resign", false, "resign a hopeless Teams game (level 3 or more)")
	if err := flags.Parse(args); err != nil {
		return err
	}
	if *board == "" || *seatName == "" || flags.NArg() > 0 {
		return fmt.Errorf("%w: boardd bot --broker URL --board ID --seat Green", errUsage)
	}
	if err := mqtt.CheckID("board", *board); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	seats, err := botseat.ParseBots(*seatName)
	if err != nil || len(seats) != 1 {
		return fmt.Errorf("%w: --seat %q: want Red, Blue, Yellow or Green", errUsage, *seatName)
	}
	if *level < 1 || *level > engine.MaxLevel {
		return fmt.Errorf("%w: --level %d: want 1 to %d", errUsage, *level, engine.MaxLevel)
	}
	if *hand < 0 || *hand > time.Minute {
		return fmt.Errorf("%w: --hand %v: want 0 to 1m, how long a person takes to make the bot's move (1s is usual)", errUsage, *hand)
	}
	for s := range seats {
		seats[s] = *level
	}
	ctx, stop := untilInterrupted()
	defer stop()
	return playBot(ctx, *bf, *board, botseat.Config{Lookup: catalog.Variant, Seats: seats, MoveTime: *movetime, HandTime: *hand, HashMB: *hash, Resign: *resign,
		Logger: slog.New(slog.NewTextHandler(stderr, nil))}, stderr)
}

// playBot plays cfg.Seats of a board over MQTT until ctx ends.
func playBot(ctx context.Context, bf mqttclient.Broker, board string, cfg botseat.Config, stderr io.Writer) error {
	src, err := mqttclient.Dial(ctx, bf, board)
	if err != nil {
		return err
	}
	defer src.Close()
	fmt.Fprintf(stderr, "bot playing %s on board %s at %s\n", botseat.FormatBots(cfg.Seats), board, bf.URL)
	return botseat.Run(ctx, src, cfg)
}

// compile-time check: an MQTT board is a bot's source.
var _ botseat.Source = (*mqttclient.Board)(nil)
