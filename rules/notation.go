package rules

import "strings"

// MoveText writes m, a legal move of the side to move, in chess.com's PGN4
// long algebraic form: piece letter (none for pawns), from square, '-' or
// 'x' plus the captured piece's letter (none for pawns), to square,
// promotion ("=Q", or "=D" for FFA's one-point queen), then one '+' per
// king newly in check after the move. "O-O" and "O-O-O" for castling.
// Mate marks ('#') belong to the game layer. The essay's partner pawn
// swap writes '~' where a capture writes 'x' ("e5~f6": the pawn on e5
// changes places with the partner's pawn on f6, or, in the en passant
// form, passes it to the empty f6).
func (p *Position) MoveText(m Move) string {
	var b strings.Builder
	if c, short := m.IsCastle(); c {
		if short {
			b.WriteString("O-O")
		} else {
			b.WriteString("O-O-O")
		}
	} else {
		pc := p.board[m.from()]
		if k := pc.Kind(); k != Pawn {
			b.WriteByte(k.Letter())
		}
		b.WriteString(m.From().String())
		victim := p.board[m.to()]
		if sw, _ := m.IsSwap(); sw {
			b.WriteByte('~') // the essay's partner pawn swap: nothing is captured
		} else if m.IsEnPassant() {
			b.WriteByte('x')
		} else if victim != NoPiece {
			b.WriteByte('x')
			if k := victim.Kind(); k != Pawn {
				b.WriteByte(k.Letter())
			}
		} else {
			b.WriteByte('-')
		}
		b.WriteString(m.To().String())
		if k := m.Promotion(); k != NoKind {
			b.WriteByte('=')
			if p.v.PromotedWorthOne && k == Queen {
				b.WriteByte('D')
			} else {
				b.WriteByte(k.Letter())
			}
		}
	}
	n := p.newChecks(m)
	for i := 0; i < n; i++ {
		b.WriteByte('+')
	}
	return b.String()
}

// newChecks counts the '+' marks of m: the kings of other playing seats
// in check after m that either were not in check before it (a check
// discovered for a third seat counts too) or are now attacked by the
// mover's own pieces, as chess.com marks them.
func (p *Position) newChecks(m Move) int {
	mover := p.turn
	var before [NumSeats]bool
	for s := Seat(0); s < NumSeats; s++ {
		before[s] = s != mover && !p.out[s] && p.InCheck(s)
	}
	u := p.Make(m)
	n := 0
	for s := Seat(0); s < NumSeats; s++ {
		if s == mover || p.out[s] || p.king[s] == 0 || !p.InCheck(s) {
			continue
		}
		if !before[s] || p.attackedBy(int(p.king[s]), mover) {
			n++
		}
	}
	p.Unmake(m, u)
	return n
}

// attackedBy reports whether a live piece of seat by attacks cell t.
func (p *Position) attackedBy(t int, by Seat) bool {
	for _, c := range p.plist[by][:p.pcount[by]] {
		if !p.board[c].Dead() && p.pieceAttacks(int(c), t) {
			return true
		}
	}
	return false
}
