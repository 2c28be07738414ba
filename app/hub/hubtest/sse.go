package hubtest

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"strings"
)

// Event is one Server-Sent Event.
type Event struct {
	ID, Name, Data string
}

// Events reads the event stream at url (sending lastID as Last-Event-ID
// unless empty) and hands on each event until ctx ends or the stream
// does; the channel then closes. The error is about opening it.
func Events(ctx context.Context, url, lastID string) (<-chan Event, error) {
	_, out, err := EventsHeader(ctx, url, lastID)
	return out, err
}

// EventsHeader is Events, and returns the response's header too.
func EventsHeader(ctx context.Context, url, lastID string) (http.Header, <-chan Event, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, nil, err
	}
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, nil, err
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, nil, fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	out := make(chan Event, 256)
	go func() {
		defer close(out)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 64<<10), 4<<20)
		var ev Event
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if ev.Name != "" || ev.Data != "" {
					select {
					case out <- ev:
					case <-ctx.Done():
						return
					}
				}
				ev = Event{}
			case strings.HasPrefix(line, "id: "):
				ev.ID = line[4:]
			case strings.HasPrefix(line, "event: "):
				ev.Name = line[7:]
			case strings.HasPrefix(line, "data: "):
				ev.Data = line[6:]
			}
		}
	}()
	return resp.Header, out, nil
}
