package speech

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"boardd/referee"
	"boardd/referee/streamtest"
)

func TestText(t *testing.T) {
	for _, tc := range []struct {
		msg  referee.Message
		want string
	}{
		{referee.Message{Kind: referee.MsgMove, Seat: "Green", Move: "Nm10xBl11+", Checks: []string{"Red"}}, "Green: knight takes bishop on l11, check to Red"},
		{referee.Message{Kind: referee.MsgMove, Seat: "Red", Move: "h2-h4"}, "Red: pawn to h4"},
		{referee.Message{Kind: referee.MsgMove, Seat: "Blue", Move: "e4xf5"}, "Blue: pawn takes pawn on f5"},
		{referee.Message{Kind: referee.MsgMove, Seat: "Yellow", Move: "Qe13xh4++", Checks: []string{"Red", "Blue"}}, "Yellow: queen takes pawn on h4, check to Red and Blue"},
		{referee.Message{Kind: referee.MsgMove, Seat: "Red", Move: "Qd1xKn8#", Out: []string{"Green"}}, "Red: queen takes king on n8, checkmate, Green out"},
		{referee.Message{Kind: referee.MsgMove, Seat: "Red", Move: "O-O"}, "Red: castles kingside"},
		{referee.Message{Kind: referee.MsgMove, Seat: "Blue", Move: "O-O-O+", Checks: []string{"Yellow", "Green", "Red"}}, "Blue: castles queenside, check to Yellow, Green and Red"},
		{referee.Message{Kind: referee.MsgMove, Seat: "Red", Move: "h10-h11=Q"}, "Red: pawn to h11, promotes to queen"},
		{referee.Message{Kind: referee.MsgMove, Seat: "Red", Move: "g7xh8=D"}, "Red: pawn takes pawn on h8, promotes to queen"},
		{referee.Message{Kind: referee.MsgPromotionChanged, Seat: "Red", Move: "h10-h11=N"}, "Red: the promotion is now a knight"},
		{referee.Message{Kind: referee.MsgRemoteMove, Seat: "Blue", Move: "Nb5-d6"}, "Blue plays from afar: knight to d6. Make the move on the board."},
		{referee.Message{Kind: referee.MsgResign, Seat: "Blue", Move: "R"}, "Blue resigns."},
		{referee.Message{Kind: referee.MsgTimeout, Seat: "Green"}, "Green's time is up."},
		{referee.Message{Kind: referee.MsgWinClaimed, Seat: "Red", Points: []int{30, 5, 0, 0}}, "Red claims the win."},
		{referee.Message{Kind: referee.MsgIllegal}, "Illegal move: put the pieces as the lights show."},
		{referee.Message{Kind: referee.MsgGameOver, Result: &referee.ResultInfo{Reason: "checkmate", Winners: []string{"Red", "Yellow"}}}, "Game over: Red and Yellow win."},
		{referee.Message{Kind: referee.MsgGameOver, Result: &referee.ResultInfo{Reason: "last player standing", Winners: []string{"Green"}}}, "Game over: Green wins."},
		{referee.Message{Kind: referee.MsgGameOver, Result: &referee.ResultInfo{Reason: "stalemate", Winners: []string{}}}, "Game over: a draw."},
		{referee.Message{Kind: referee.MsgGameOver, Result: &referee.ResultInfo{Reason: "abandoned"}}, ""},
		{referee.Message{Kind: referee.MsgGameStart, Variant: "teams"}, "New game: teams."},
		// Housekeeping stays quiet.
		{referee.Message{Kind: referee.MsgSensorFault, Square: "e5"}, ""},
		{referee.Message{Kind: referee.MsgClock}, ""},
		{referee.Message{Kind: referee.MsgTags}, ""},
	} {
		if got := Text(tc.msg); got != tc.want {
			t.Errorf("Text(%s %s %s) = %q, want %q", tc.msg.Kind, tc.msg.Seat, tc.msg.Move, got, tc.want)
		}
	}
}

func TestNewWithoutTheSynthesizer(t *testing.T) {
	_, err := New(Config{Command: "no-such-synthesizer-here"})
	if !errors.Is(err, ErrNoSynthesizer) || !strings.Contains(err.Error(), "apt-get install espeak-ng") || !strings.Contains(err.Error(), "plays on") {
		t.Errorf("missing synthesizer: %v", err)
	}
	if _, err := New(Config{Language: "de", Command: "sh"}); err == nil || !strings.Contains(err.Error(), `speech.language "de"`) {
		t.Errorf("an unwritten language: %v", err)
	}
	if _, err := New(Config{Voice: "--help", Command: "sh"}); err == nil || !strings.Contains(err.Error(), "speech.voice") {
		t.Errorf("a voice that is an option: %v", err)
	}
}

// A Speaker runs the synthesizer once per sentence, with the voice, in
// order; messages with nothing to say are skipped.
func TestSpeakerRunsTheSynthesizer(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake synthesizer is a shell script")
	}
	dir := t.TempDir()
	said := filepath.Join(dir, "said")
	fake := filepath.Join(dir, "fake-espeak")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\necho \"$@\" >> "+said+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	s, err := New(Config{Command: fake, Voice: "en-gb"})
	if err != nil {
		t.Fatal(err)
	}
	b := streamtest.New(referee.State{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- s.Run(ctx, b) }()
	waitSubscribed(b)
	now := time.Now()
	b.Emit(referee.Message{Time: now, Kind: referee.MsgMove, Seat: "Red", Move: "h2-h4"})
	b.Emit(referee.Message{Time: now, Kind: referee.MsgSensorFault, Square: "e5"})
	b.Emit(referee.Message{Time: now.Add(-time.Hour), Kind: referee.MsgMove, Seat: "Blue", Move: "b7-c7"}) // stale
	b.Emit(referee.Message{Time: now, Kind: referee.MsgResign, Seat: "Blue"})
	want := "-v en-gb -- Red: pawn to h4\n-v en-gb -- Blue resigns.\n"
	deadline := time.Now().Add(5 * time.Second)
	var got []byte
	for time.Now().Before(deadline) {
		got, _ = os.ReadFile(said)
		if string(got) == want {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("the synthesizer was run with\n%s\nwant\n%s", got, want)
	}
}

// waitSubscribed waits until a Speaker's Run has subscribed to b: it
// follows the messages from then on.
func waitSubscribed(b *streamtest.Board) {
	for subs, _ := b.Watchers(); subs == 0; subs, _ = b.Watchers() {
		time.Sleep(time.Millisecond)
	}
}
