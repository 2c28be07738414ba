package mqtt

import "boardd/referee"

// answeredKept is how many answered commands a board remembers by id: a
// sender re-sends a command that got no reply within seconds
// (mqttclient), and a board answers at most a few commands a second.
const answeredKept = 256

// answered remembers the replies to the last commands a board carried
// out, by command topic and id, so that a command sent again (its reply
// lost, or the command itself delivered twice) is answered with the
// same reply instead of being carried out twice. Commands without an id
// are not remembered: each is carried out. Only the command goroutine
// uses it.
type answered struct {
	replies map[string]referee.Reply
	order   []string // keys, oldest first, at most answeredKept
}

func answeredKey(topic, id string) string { return topic + "\x00" + id }

// get returns the reply to the command with id on topic, if it was
// carried out and is still remembered.
func (a *answered) get(topic, id string) (referee.Reply, bool) {
	if id == "" {
		return referee.Reply{}, false
	}
	r, ok := a.replies[answeredKey(topic, id)]
	return r, ok
}

// put remembers r as the reply to the command with id on topic,
// forgetting the oldest beyond answeredKept.
func (a *answered) put(topic, id string, r referee.Reply) {
	if id == "" {
		return
	}
	if a.replies == nil {
		a.replies = map[string]referee.Reply{}
	}
	k := answeredKey(topic, id)
	if _, ok := a.replies[k]; !ok {
		if len(a.order) == answeredKept {
			delete(a.replies, a.order[0])
			a.order = append(a.order[:0], a.order[1:]...)
		}
		a.order = append(a.order, k)
	}
	a.replies[k] = r
}
