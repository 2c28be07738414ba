package rules

// Notes: decisions the players make between two turns that are not turns
// themselves, kept with the game and written to PGN4 as comments after the
// move they follow, from which Replay (and the live board's journal)
// carries them out again through Game.ApplyNote. A mode's hook makes them
// (AddNote, AddTurnNote) and reads them back (Hook.ApplyNote):
//
//   - blocking double chess (package rules/blocking): an announcement of a
//     move into check, the partner's reply, a claimed stalemate, an agreed
//     draw of one game ("Green announces n7-n6", "Yellow replies I
//     Accept", "Green claims stalemate", "Red and Yellow agree a draw").
//   - Chess4, Method 2 (package rules/chess4): the permanent choice of the
//     army a player keeps when he eliminates a second opponent ("Blue
//     keeps Yellow's army").
//
// A takeback restores the notes with the turns: the notes made before a
// turn stay, except those that belong to the turn they led to (an
// announcement and its replies, AddTurnNote), which go with it.

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
	// withTurn: the note belongs to the turn it precedes (AddTurnNote).
	withTurn bool
}

// Notes returns the game's notes so far, in order.
func (g *Game) Notes() []Note { return append([]Note(nil), g.notes...) }

// ApplyNote carries out a note as Notes writes it (a PGN4 comment). It
// reports false for text that is no note of the game's mode.
func (g *Game) ApplyNote(text string) (bool, error) {
	return g.v.hook(OnNote).ApplyNote(g, text)
}

// note records a note and keeps the current snapshot current.
func (g *Game) note(text string) { g.addNote(Note{After: len(g.records), Text: text}) }

// addNote records x and keeps the current snapshot current.
func (g *Game) addNote(x Note) {
	g.notes = grow(g.notes, x)
	g.resnap()
}

// grow appends x to a copy of s's elements when s has no room, never in
// place: a snapshot's slices are never changed.
func grow[T any](s []T, x T) []T { return append(s[:len(s):len(s)], x) }

// resnap brings the snapshot of the current state (the last one) up to
// date after a change that is not a turn.
func (g *Game) resnap() {
	g.snaps[len(g.snaps)-1] = g.snapshot()
}

// takebackNotes returns the notes to keep when the turn after n records is
// taken back: those of the restored state, less the notes that belong to
// the undone turn (AddTurnNote: blocking double's announcement and
// replies), counted back from the last while they are such (a note of
// another kind, such as a claim or an agreed draw, stops the count: those
// before it stay with it).
func takebackNotes(notes []Note, n int) []Note {
	cut := len(notes)
	for cut > 0 {
		x := notes[cut-1]
		if x.After < n || !x.withTurn {
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
