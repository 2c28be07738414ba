package main

import (
	"context"
	"errors"

	"boardd/sync/speech"
)

// startSpeech says the game aloud (speech.on) and plays its sound cues
// (speech.cues) when the config asks for them. What is not installed
// (espeak-ng, aplay) is logged once and the board plays on; a config
// espeak-ng cannot use (an unwritten language) is an error.
func (d *boardDaemon) startSpeech(ctx context.Context) error {
	c := d.cfg.Speech
	if !c.On && !c.Cues {
		return nil
	}
	sp, err := speech.New(speech.Config{Words: c.On, Cues: c.Cues, Voice: c.Voice, Language: c.Language, Log: d.log.With("part", "speech")})
	if errors.Is(err, speech.ErrNoSynthesizer) {
		d.log.Warn("speech: no spoken announcements or sound cues", "reason", err.Error())
		return nil
	}
	if err != nil {
		return err
	}
	for _, m := range sp.Missing {
		d.log.Warn("speech: " + m)
	}
	d.goRun("speech", func() error { return sp.Run(ctx, d.live) })
	return nil
}
