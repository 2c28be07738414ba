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

func sqr(name string) square.Square { return mustSquare(name) }

func join(x []string) string {
	s := ""
	for i, t := range x {
		if i > 0 {
			s += " .. "
		}
		s += t
	}
	return s
}
