package main

import (
	"context"
	"errors"

	"boardd/sync/speech"
)

// startSpeech says the game aloud when the config asks for it
// (speech.on). A board without espeak-ng logs that once and plays on; a
// config espeak-ng cannot use (an unwritten language) is an error.
func (d *boardDaemon) startSpeech(ctx context.Context) error {
	c := d.cfg.Speech
	if !c.On {
		return nil
	}
	sp, err := speech.New(speech.Config{Voice: c.Voice, Language: c.Language, Log: d.log.With("part", "speech")})
	if errors.Is(err, speech.ErrNoSynthesizer) {
		d.log.Warn("speech.on: no spoken announcements", "reason", err.Error())
		return nil
	}
	if err != nil {
		return err
	}
	d.goRun("speech", func() error { return sp.Run(ctx, d.live) })
	return nil
}
