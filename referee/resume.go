package referee

import (
	"errors"
	"fmt"
)

// This file is the event stream's contract beside the Board interface:
// the typed error Subscribe returns when it no longer keeps what is asked
// for, and Resume, the one way a consumer (MQTT, the web display) picks
// up the stream from a Seq, at the start or after its live channel was
// closed for falling behind. referee/streamtest fakes a Board with the
// same rules.

// NotKeptError is Subscribe's error when the messages from From are no
// longer kept (the board's memory and its stream log start later).
// Oldest is the oldest message the board still keeps: subscribing from
// it works until the board forgets more.
type NotKeptError struct {
	From, Oldest uint64
}

// Error says what is missing and where the board's history starts.
func (e *NotKeptError) Error() string {
	return fmt.Sprintf("messages from %d are no longer kept (the oldest is %d)", e.From, e.Oldest)
}

// Subscription is a subscription made by Resume: Subscribe's results,
// and Lost when the messages asked for were no longer kept.
type Subscription struct {
	Backlog []Message
	Live    <-chan Message
	Cancel  func()
	// Lost says which messages were no longer kept: From is the Seq
	// asked for, Oldest the oldest kept at the last attempt (nil when
	// nothing was lost). Backlog and Live then start at Oldest.
	Lost *NotKeptError
}

// resumeTries bounds Resume's attempts: each one after the first follows
// a NotKeptError, so the board forgot messages in between.
const resumeTries = 8

// Resume subscribes to b from from: 1 for everything kept, the last Seq
// seen + 1 to pick up after it, 0 for the board's next message (as
// Subscribe). When the board no longer keeps from, Resume goes on from
// the oldest message it keeps (the consumer loses only what the board
// forgot: MQTT; the web display sends a gap event first) and reports the
// loss in Subscription.Lost. Numbers the board skipped are no loss
// (Subscribe starts after them). Any other error, or a board that keeps
// forgetting what it just said it kept, is returned.
func Resume(b Board, from uint64) (Subscription, error) {
	var lost *NotKeptError
	at := from
	for range resumeTries {
		backlog, live, cancel, err := b.Subscribe(at)
		if err == nil {
			return Subscription{Backlog: backlog, Live: live, Cancel: cancel, Lost: lost}, nil
		}
		var nk *NotKeptError
		if !errors.As(err, &nk) {
			return Subscription{}, err
		}
		lost = &NotKeptError{From: from, Oldest: nk.Oldest}
		at = nk.Oldest
	}
	return Subscription{}, fmt.Errorf("subscribing from %d: the board forgets its messages faster than they can be read (%d tries): %w", from, resumeTries, lost)
}
