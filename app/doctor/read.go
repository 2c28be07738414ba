package doctor

import (
	"fmt"
	"time"

	"boardd/sensors"
)

// ReadRepeatedly reads src n times, every pause, so a flickering chain
// shows too; the error counts the failed reads and wraps the first (its
// Hint, if any, names the chip and wire).
func ReadRepeatedly(src sensors.Source, n int, pause time.Duration) error {
	var f sensors.Frame
	var first error
	failed := 0
	for i := range n {
		if i > 0 {
			time.Sleep(pause)
		}
		if err := src.Read(&f); err != nil {
			failed++
			if first == nil {
				first = err
			}
		}
	}
	if first != nil {
		return fmt.Errorf("%d of %d reads failed, the first: %w", failed, n, first)
	}
	return nil
}
