package botseat

import (
	"testing"

	"boardd/engine"
	"boardd/referee/gametags"
)

// The referee checks a new game's Bots tag with its own bound on the
// levels (it imports no engine): it must be the engine's.
func TestBotLevelsAgree(t *testing.T) {
	if gametags.MaxBotLevel != engine.MaxLevel {
		t.Fatalf("gametags.MaxBotLevel %d, engine.MaxLevel %d: a Bots tag the referee takes must be one the bot can play", gametags.MaxBotLevel, engine.MaxLevel)
	}
}
