package main

import (
	"context"

	"boardd/internal/catalog"

	"boardd/configs"
	"boardd/rules"
	"boardd/sync/botseat"
)

// gameTags are the first game's tags: game.tags plus the bot seats of
// game.seats (the Bots tag, and the seats made remote).
func gameTags(cfg configs.Daemon) map[string]string {
	levels, _ := cfg.Game.BotLevels() // checked with the config
	bots := map[rules.Seat]int{}
	for s := rules.Seat(0); s < rules.NumSeats; s++ {
		if n, ok := levels[s.String()]; ok {
			bots[s] = n
		}
	}
	if len(bots) == 0 {
		return cfg.Game.Tags
	}
	return botseat.SeatTags(cfg.Game.Tags, bots)
}

// startBots plays the bot seats of every game on this board: those the
// game's Bots tag names (game.seats, the New game dialog, new_game).
func (d *boardDaemon) startBots(ctx context.Context) {
	cfg := botseat.Config{Lookup: catalog.Variant, MoveTime: d.cfg.Bot.MoveTime, Nice: d.cfg.Bot.Nice,
		HashMB: d.cfg.Bot.HashMB, Resign: d.cfg.Bot.Resign, Logger: d.log.With("part", "bot")}
	if cfg.Nice == 0 {
		cfg.Nice = -1 // 0 in the config: leave the priority alone
	}
	d.goRun("bot", func() error { return botseat.Run(ctx, d.live, cfg) })
}
