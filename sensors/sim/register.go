package sim

import (
	"boardd/configs"
	"boardd/rules/square"
	"boardd/sensors"
	"boardd/sensors/sensorreg"
)

// The driver as boardd knows it: sensors.driver sim, a board of the
// configured shape with the pieces of sensorreg.Env.Start on it, played by
// switch scripts.
func init() {
	sensorreg.Register(&sensorreg.Driver{
		Name:      "sim",
		Simulated: true,
		Open: func(d *configs.Daemon, env sensorreg.Env) (sensors.Source, func(), error) {
			board := d.Squares()
			if board == square.Cross() {
				return New(env.Start, env.Now), nil, nil
			}
			b, err := NewOn(board, env.Start, env.Now)
			return b, nil, err
		},
	})
}
