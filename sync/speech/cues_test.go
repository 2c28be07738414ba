package speech

import (
	"context"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"boardd/referee"
	"boardd/referee/streamtest"
)

func TestCueFor(t *testing.T) {
	for _, tc := range []struct {
		m    referee.Message
		want string
	}{
		{referee.Message{Kind: referee.MsgMove, Move: "h2-h4"}, "move"},
		{referee.Message{Kind: referee.MsgMove, Move: "Qe13xh4+", Checks: []string{"Red"}}, "check"},
		{referee.Message{Kind: referee.MsgIllegal}, "illegal"},
		{referee.Message{Kind: referee.MsgOutOfTurn}, "illegal"},
		{referee.Message{Kind: referee.MsgTimeout}, "flag"},
		{referee.Message{Kind: referee.MsgGameOver, Result: &referee.ResultInfo{Reason: "checkmate"}}, "over"},
		{referee.Message{Kind: referee.MsgGameOver, Result: &referee.ResultInfo{Reason: "abandoned"}}, ""},
		{referee.Message{Kind: referee.MsgSensorFault}, ""},
		{referee.Message{Kind: referee.MsgTags}, ""},
	} {
		if got := CueFor(tc.m); got != tc.want {
			t.Errorf("CueFor(%s) = %q, want %q", tc.m.Kind, got, tc.want)
		}
		if tc.want != "" && len(Cues[tc.want]) == 0 {
			t.Errorf("cue %q has no tones", tc.want)
		}
	}
}

func TestWAV(t *testing.T) {
	for name, tones := range Cues {
		b := WAV(tones)
		var secs float64
		for _, t := range tones {
			secs += t.Seconds
		}
		data := binary.LittleEndian.Uint32(b[40:44])
		if string(b[0:4]) != "RIFF" || string(b[8:16]) != "WAVEfmt " || string(b[36:40]) != "data" ||
			binary.LittleEndian.Uint32(b[4:8]) != uint32(len(b)-8) || int(data) != len(b)-44 ||
			binary.LittleEndian.Uint32(b[24:28]) != sampleRate || binary.LittleEndian.Uint16(b[34:36]) != 16 {
			t.Errorf("%s: not a 16-bit PCM WAV: % x", name, b[:44])
		}
		if got := float64(data) / 2 / sampleRate; got < secs-0.01 || got > secs+0.01 {
			t.Errorf("%s: %.3f s of sound, want %.3f", name, got, secs)
		}
	}
}

// Cues go to aplay's standard input; what is not installed is named and
// left out.
func TestSpeakerPlaysCues(t *testing.T) {
	dir := t.TempDir()
	got := filepath.Join(dir, "played")
	player := filepath.Join(dir, "fake-aplay")
	os.WriteFile(player, []byte("#!/bin/sh\necho \"$@ $(wc -c)\" >> "+got+"\n"), 0o755)

	s, err := New(Config{Cues: true, Player: player})
	if err != nil || len(s.Missing) != 0 {
		t.Fatalf("cues only: %v %v", err, s.Missing)
	}
	b := streamtest.New(referee.State{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- s.Run(ctx, b) }()
	waitSubscribed(b)
	now := time.Now()
	b.Emit(referee.Message{Time: now, Kind: referee.MsgMove, Seat: "Red", Move: "h2-h4"})
	b.Emit(referee.Message{Time: now, Kind: referee.MsgSensorFault})
	b.Emit(referee.Message{Time: now, Kind: referee.MsgTimeout, Seat: "Blue"})
	want := "-q - " + strconv.Itoa(len(WAV(Cues["move"]))) + "\n-q - " + strconv.Itoa(len(WAV(Cues["flag"]))) + "\n"
	var played []byte
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if played, _ = os.ReadFile(got); string(played) == want {
			break
		}
	}
	cancel()
	<-done
	if string(played) != want {
		t.Errorf("aplay ran with\n%s\nwant\n%s", played, want)
	}

	s, err = New(Config{Words: true, Cues: true, Command: "no-such-espeak", Player: player})
	if err != nil || len(s.Missing) != 1 || !strings.Contains(s.Missing[0], "no spoken announcements") {
		t.Errorf("words missing, cues there: %v %q", err, s.Missing)
	}
	_, err = New(Config{Words: true, Cues: true, Command: "no-such-espeak", Player: "no-such-aplay"})
	if !errors.Is(err, ErrNoSynthesizer) || !strings.Contains(err.Error(), "apt-get install alsa-utils") || !strings.Contains(err.Error(), "apt-get install espeak-ng") {
		t.Errorf("nothing installed: %v", err)
	}
}
