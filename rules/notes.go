package rules

// Notes: decisions the players make between two turns that are not turns
// themselves, kept with the game and written to PGN4 as comments after the
// move they follow, from which Replay (and the live board's journal)
// carries them out again through Game.ApplyNote. Two modes have them:
//
//   - Double (blocking double chess, blocking.go): an announcement of a
//     move into check, the partner's reply, a claimed stalemate, an agreed
//     draw of one game ("Green announces n7-n6", "Yellow replies I
//     Accept", "Green claims stalemate", "Red and Yellow agree a draw").
//   - Chess4, Method 2 (package rules/chess4): the permanent choice of the army a
//     player keeps when he eliminates a second opponent ("Blue keeps
//     Yellow's army").
//
// A takeback restores the notes with the turns: the notes made before a
// turn stay, except an announcement and its replies, which go with the
// turn they led to.

// Note is something that happened between two turns and is not a turn
// itself: an announcement, a reply, a claimed stalemate, an agreed draw, a
// kept army.
type Note struct {
	// After is the number of records (turns) played before it.
	After int
	// Text is the note as PGN4 comments write it ("Green announces
	// n7-n6", "Blue replies I Accept", "Green claims stalemate", "Red and
	// Yellow agree a draw", "Blue keeps Yellow's army").
	Text string
}

// Notes returns the game's notes so far, in order.
func (g *Game) Notes() []Note { return append([]Note(nil), g.notes...) }

// ApplyNote carries out a note as Notes writes it (a PGN4 comment). It
// reports false for text that is no note of the game's mode.
func (g *Game) ApplyNote(text string) (bool, error) {
	return g.v.hook(OnNote).ApplyNote(g, text)
}

// note records a note and keeps the current snapshot current.
func (g *Game) note(text string) {
	g.notes = grow(g.notes, Note{After: len(g.records), Text: text})
	g.resnap()
}

// resnap brings the snapshot of the current state (the last one) up to
// date after a change that is not a turn.
func (g *Game) resnap() {
	g.snaps[len(g.snaps)-1] = g.snapshot()
}

// takebackNotes returns the notes to keep when the turn after n records is
// taken back: those of the restored state, less the undone turn's
// announcement and replies (the protocol notes at its turn count after
// anything that settled, such as a claim or an agreed draw: those before
// a claim stay with it).
func takebackNotes(notes []Note, n int) []Note {
	cut := len(notes)
	for cut > 0 {
		x := notes[cut-1]
		if x.After < n || !protocolNote(x.Text) {
			break
		}
		cut--
	}
	return notes[:cut:cut]
}

// seatByName finds a seat by its name ("Red").
func seatByName(name string) (Seat, bool) {
	for s := Seat(0); s < NumSeats; s++ {
		if s.String() == name {
			return s, true
		}
	}
	return NoSeat, false
}
