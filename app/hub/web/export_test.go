package web

import "time"

// SetWriteTimeout sets how long a stream's client may take to accept a
// write before it is dropped.
func SetWriteTimeout(h *Handler, d time.Duration) { h.timing.write = d }
