// Package speech announces the game on the board's own audio output, for
// players who do not look at a screen: spoken words ("Green: knight takes
// bishop on l11, check to Red") and short sound cues (a move, an illegal
// move, check, a flag falling, game over: the web page's five). Text
// turns a referee.Message into the sentence and CueFor into the cue; a
// Speaker follows a board's message stream, plays each cue through aplay
// (Debian's alsa-utils) and says each sentence through espeak-ng. What is
// not installed is left out, and New says so: the board plays on.
package speech

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os/exec"
	"strings"
	"time"

	"boardd/referee"
	"boardd/rules/pgn4"
)

// pieceNames are the spoken names of the PGN4 piece letters (D is
// chess.com's one-point queen).
var pieceNames = map[byte]string{'K': "king", 'Q': "queen", 'R': "rook", 'B': "bishop", 'N': "knight", 'P': "pawn", 'D': "queen"}

func pieceName(letter byte) string {
	if n, ok := pieceNames[letter]; ok {
		return n
	}
	return "piece " + string(letter)
}

// and joins names as people say them: "Red", "Red and Blue", "Red, Blue
// and Green".
func and(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// Move says a PGN4 move token in words: "knight takes bishop on l11",
// "pawn to h4", "castles kingside", "pawn to h11, promotes to queen". The
// check and mate marks are left to the caller, who knows which kings.
func Move(token string) (string, error) {
	mv, err := pgn4.ParseMove(token)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	switch mv.Kind {
	case pgn4.CastleShort:
		b.WriteString("castles kingside")
	case pgn4.CastleLong:
		b.WriteString("castles queenside")
	case pgn4.Normal:
		b.WriteString(pieceName(mv.Piece))
		switch {
		case mv.Swap:
			fmt.Fprintf(&b, " swaps places with the pawn on %s", mv.To)
		case mv.Capture:
			victim := byte('P')
			if mv.Captured != 0 {
				victim = mv.Captured
			}
			fmt.Fprintf(&b, " takes %s on %s", pieceName(victim), mv.To)
		default:
			fmt.Fprintf(&b, " to %s", mv.To)
		}
		if mv.Promotion != 0 {
			fmt.Fprintf(&b, ", promotes to %s", pieceName(mv.Promotion))
		}
	default:
		return "", fmt.Errorf("move %q: not a move to announce", token)
	}
	return b.String(), nil
}

// Text is what the board says aloud for a message, or "" for messages it
// keeps quiet about (sensor faults, clocks, tags, …).
func Text(m referee.Message) string {
	switch m.Kind {
	case referee.MsgMove:
		words, err := Move(m.Move)
		if err != nil {
			return m.Seat + ": " + m.Move
		}
		s := m.Seat + ": " + words
		mv, _ := pgn4.ParseMove(m.Move)
		switch {
		case mv.Mate && len(m.Out) > 0:
			s += ", checkmate, " + and(m.Out) + " out"
		case mv.Mate:
			s += ", checkmate"
		case len(m.Checks) > 0:
			s += ", check to " + and(m.Checks)
		}
		return s
	case referee.MsgPromotionChanged:
		if mv, err := pgn4.ParseMove(m.Move); err == nil && mv.Promotion != 0 {
			return m.Seat + ": the promotion is now a " + pieceName(mv.Promotion)
		}
	case referee.MsgRemoteMove:
		if words, err := Move(m.Move); err == nil {
			return m.Seat + " plays from afar: " + words + ". Make the move on the board."
		}
		return m.Seat + " plays from afar: " + m.Move + ". Make the move on the board."
	case referee.MsgIllegal:
		return "Illegal move: put the pieces as the lights show."
	case referee.MsgOutOfTurn:
		return "Not your turn, " + m.Seat + "."
	case referee.MsgResign:
		return m.Seat + " resigns."
	case referee.MsgTimeout:
		return m.Seat + "'s time is up."
	case referee.MsgDrawAgreed:
		return "Draw agreed."
	case referee.MsgWinClaimed:
		return m.Seat + " claims the win."
	case referee.MsgGameOver:
		if m.Result == nil {
			return "Game over."
		}
		if m.Result.Reason == "abandoned" {
			return ""
		}
		if len(m.Result.Winners) == 0 {
			return "Game over: a draw."
		}
		verb := " wins"
		if len(m.Result.Winners) > 1 {
			verb = " win"
		}
		return "Game over: " + and(m.Result.Winners) + verb + "."
	case referee.MsgGameStart:
		if m.Variant != "" {
			return "New game: " + m.Variant + "."
		}
		return "New game."
	}
	return ""
}

// Config sets up a Speaker.
type Config struct {
	// Words says each message's sentence aloud; Cues plays its sound
	// cue. At least one should be set.
	Words, Cues bool
	// Player plays the cues' WAV data from its standard input (default
	// "aplay", run as Player -q -).
	Player string
	// Voice is the synthesizer's voice (espeak-ng -v: "en", "en-gb",
	// "en-us+f3"; default "en").
	Voice string
	// Language is the language of the sentences. Only "en" (English, the
	// default) is written so far.
	Language string
	// Command is the synthesizer (default "espeak-ng"); it is run as
	// Command -v Voice TEXT.
	Command string
	// Log hears what could not be said; nil discards it.
	Log *slog.Logger
}

// Speaker says a board's messages aloud, one at a time, in order.
type Speaker struct {
	cfg        Config
	path       string // the synthesizer, "" without words
	playerPath string // the cue player, "" without cues
	log        *slog.Logger
	// Missing says what was asked for and is not installed (the board
	// goes on without it), for the caller to log.
	Missing []string
}

// ErrNoSynthesizer is returned by New when nothing asked for is
// installed: neither the synthesizer for words nor the player for cues.
var ErrNoSynthesizer = errors.New("speech synthesizer not found")

// New checks the config and finds the programs. A program that is not
// installed is left out and named in Speaker.Missing; when nothing is
// left the error wraps ErrNoSynthesizer and says how to install them.
func New(cfg Config) (*Speaker, error) {
	if !cfg.Words && !cfg.Cues {
		cfg.Words = true // the zero Config: words, as before cues existed
	}
	if cfg.Player == "" {
		cfg.Player = "aplay"
	}
	if cfg.Voice == "" {
		cfg.Voice = "en"
	}
	if cfg.Language == "" {
		cfg.Language = "en"
	}
	if cfg.Command == "" {
		cfg.Command = "espeak-ng"
	}
	if cfg.Language != "en" {
		return nil, fmt.Errorf("speech.language %q: only en (English) is written so far; the voice (speech.voice) may still be any English one", cfg.Language)
	}
	if strings.HasPrefix(cfg.Voice, "-") {
		return nil, fmt.Errorf("speech.voice %q: want a voice name such as en, en-gb or en-us+f3", cfg.Voice)
	}
	s := &Speaker{cfg: cfg, log: cfg.Log}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if cfg.Words {
		if p, err := exec.LookPath(cfg.Command); err == nil {
			s.path = p
		} else {
			s.Missing = append(s.Missing, cfg.Command+" is not installed (Debian: apt-get install espeak-ng): no spoken announcements")
		}
	}
	if cfg.Cues {
		if p, err := exec.LookPath(cfg.Player); err == nil {
			s.playerPath = p
		} else {
			s.Missing = append(s.Missing, cfg.Player+" is not installed (Debian: apt-get install alsa-utils): no sound cues")
		}
	}
	if s.path == "" && s.playerPath == "" {
		return nil, fmt.Errorf("%w: %s; the board plays on without them", ErrNoSynthesizer, strings.Join(s.Missing, "; "))
	}
	return s, nil
}

// Play plays one cue (a name of Cues) and waits until it is played.
func (s *Speaker) Play(ctx context.Context, cue string) error {
	tones, ok := Cues[cue]
	if !ok || s.playerPath == "" {
		return nil
	}
	cmd := exec.CommandContext(ctx, s.playerPath, "-q", "-")
	cmd.Stdin = bytes.NewReader(WAV(tones))
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s: %v: %s", s.cfg.Player, err, strings.TrimSpace(string(out)))
	}
	return nil
}

// Say speaks one sentence and waits until it is said (or ctx ends).
func (s *Speaker) Say(ctx context.Context, text string) error {
	if text == "" || s.path == "" {
		return nil
	}
	cmd := exec.CommandContext(ctx, s.path, "-v", s.cfg.Voice, "--", text)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s: %v: %s", s.cfg.Command, err, strings.TrimSpace(string(out)))
	}
	return nil
}

// Run follows the board's messages from now on, plays each one's cue and
// says each one that has something to say, until ctx ends. Sentences queue up while one is
// said; a board far ahead of the speaker skips to the newest ones (a
// spoken move two minutes late helps nobody).
func (s *Speaker) Run(ctx context.Context, b referee.Board) error {
	_, live, cancel, err := b.Subscribe(0)
	if err != nil {
		return err
	}
	defer func() { cancel() }()
	for {
		select {
		case <-ctx.Done():
			return nil
		case m, ok := <-live:
			if !ok { // fell behind: go on with what comes next
				cancel()
				if _, live, cancel, err = b.Subscribe(0); err != nil {
					return err
				}
				continue
			}
			if time.Since(m.Time) > 30*time.Second && !m.Time.IsZero() {
				continue
			}
			if err := s.Play(ctx, CueFor(m)); err != nil && ctx.Err() == nil {
				s.log.Warn("speech: could not play a cue", "seq", m.Seq, "err", err)
			}
			if err := s.Say(ctx, Text(m)); err != nil && ctx.Err() == nil {
				s.log.Warn("speech: could not say a message", "seq", m.Seq, "err", err)
			}
		}
	}
}
