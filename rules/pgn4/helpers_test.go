package pgn4

import "boardd/rules/square"

type squareT = square.Square

func mustSquare(name string) square.Square {
	s, err := square.Parse(name)
	if err != nil {
		panic(err)
	}
	return s
}
