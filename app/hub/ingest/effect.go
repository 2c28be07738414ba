package ingest

import (
	"boardd/app/hub/store"
	"boardd/referee"
	"boardd/sync/archive"
)

// storeMessage is m as the store keeps it, with body, the bytes the board
// published.
func storeMessage(m referee.Message, body []byte) store.Message {
	return store.Message{Board: m.Board, Seq: m.Seq, Game: m.Game, Kind: m.Kind, Time: m.Time, Body: body}
}

// effect is what message m does to the games, inside its transaction: a
// game_start opens a game with its variant and tags, game_over records
// the result, and the rest is read as the board's own game journal reads
// it (archive.JournalEntries): turns, takebacks (a changed promotion or a
// revised move is a takeback and the move, in one message), tags. Kinds
// that change no game (illegal, clock, sensor_fault, …) have none; the
// message itself is stored all the same. A message without a game id has
// no effect either.
func effect(m referee.Message) func(*store.Tx) error {
	if m.Game == "" {
		return nil
	}
	switch m.Kind {
	case referee.MsgGameStart:
		return func(tx *store.Tx) error { return tx.StartGame(m.Variant, m.Start, m.Tags) }
	case referee.MsgGameOver:
		if m.Result == nil {
			return nil
		}
		r := store.Result{Reason: m.Result.Reason, Winners: m.Result.Winners, Points: m.Result.Points, PGN4: m.Result.PGN4}
		return func(tx *store.Tx) error { return tx.Finish(r) }
	}
	entries, err := archive.JournalEntries(m)
	if err != nil || len(entries) == 0 {
		return nil // a note kind without its note: kept as a message, nothing to replay
	}
	return func(tx *store.Tx) error {
		for _, e := range entries {
			var err error
			switch e.Kind {
			case referee.MsgTakeback:
				err = tx.Takeback()
			case referee.MsgTags:
				err = tx.SetTags(e.Tags)
			case referee.MsgMove, referee.MsgResign, referee.MsgTimeout, "claim":
				err = tx.AddTurn(store.Turn{Kind: e.Kind, Seat: e.Seat, Move: m.Move, Coord: e.Move,
					Clocks: e.Clocks, Points: m.Points, FEN4: m.FEN4})
			}
			if err != nil {
				return err
			}
		}
		return nil
	}
}
