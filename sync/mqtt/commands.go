package mqtt

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"strings"
	"unicode/utf8"

	"boardd/referee"
)

// commands answers the commands that arrive on cmd/+, one at a time in
// arrival order. It runs until the Mirror stops.
func (m *Mirror) commands() {
	defer m.wg.Done()
	for {
		select {
		case <-m.ctx.Done():
			return
		case in := <-m.cmds:
			m.answer(in)
		}
	}
}

// answer carries out one command and publishes the reply. A panic in the
// board is logged and answered as an error instead of taking the daemon
// down.
func (m *Mirror) answer(in inbound) {
	var replyTopic string
	var r referee.Reply
	func() {
		defer func() {
			if p := recover(); p != nil {
				m.log.Error("mqtt: command panicked", "topic", in.topic, "panic", p, "stack", string(debug.Stack()))
				r = referee.Reply{OK: false, Error: "internal error while carrying out the command; see the daemon's log"}
			}
		}()
		if in.retained {
			replyTopic = m.resultTopic(in.topic)
			r = referee.Reply{Error: "retained command ignored: commands must be published without the retain flag (clear it by publishing an empty retained message to " + in.topic + ")"}
			return
		}
		replyTopic, r = m.handle(m.ctx, in.topic, in.payload)
	}()
	m.commandsDone.Add(1)
	if replyTopic == "" {
		return
	}
	data, _ := json.Marshal(r)
	if err := m.send(m.ctx, replyTopic, false, data); err != nil && m.ctx.Err() == nil {
		m.log.Warn("mqtt: command reply not published", "topic", replyTopic, "error", err)
	}
}

// resultTopic is where the reply to a command topic goes, or "" when the
// topic is not one of this board's command topics.
func (m *Mirror) resultTopic(topic string) string {
	name, ok := strings.CutPrefix(topic, m.t.cmd)
	if !ok || strings.ContainsAny(name, "/+#\x00") || !utf8.ValidString(name) {
		return ""
	}
	return topic + "/result"
}

// handle carries out the command published on topic and returns its reply
// and the topic to publish it on ("" when topic is not a command topic of
// this board: nobody to answer). It always returns a reply: OK, or an
// error that says what was wrong. A command with an id it has answered
// before (of the last answeredKept) gets the same reply again and is
// not carried out twice.
func (m *Mirror) handle(ctx context.Context, topic string, payload []byte) (replyTopic string, r referee.Reply) {
	replyTopic = m.resultTopic(topic)
	if replyTopic == "" {
		return "", referee.Reply{Error: fmt.Sprintf("topic %q is not a command topic: want %s<name>", clip(topic), m.t.cmd)}
	}
	name := strings.TrimPrefix(topic, m.t.cmd)
	c, err := referee.ParseCommand(name, payload)
	if err != nil {
		return replyTopic, referee.Reply{ID: probeID(payload), Error: err.Error()}
	}
	// A command sent again (its reply lost on the way, or delivered
	// twice) is answered as the first time, not carried out again.
	if r, ok := m.answered.get(topic, c.ID); ok {
		m.repeated.Add(1)
		return replyTopic, r
	}
	switch c.Name {
	case referee.CmdReplay:
		r = m.replay(ctx, *c.From)
	case referee.CmdState:
		if err := m.publishSnapshot(ctx, true); err != nil {
			r = referee.Reply{Error: "state: not republished: " + err.Error()}
		} else {
			r = referee.Reply{OK: true}
		}
	default:
		dctx, cancel := context.WithTimeout(ctx, doTimeout)
		r = m.src.Do(dctx, c)
		cancel()
	}
	if r.ID == "" {
		r.ID = c.ID
	}
	if !r.OK && r.Error == "" {
		r.Error = c.Name + ": refused (the board gave no reason)"
	}
	m.answered.put(topic, c.ID, r)
	return replyTopic, r
}

// replay republishes the kept messages from Seq from on events, in order,
// as one block: live events wait until it is done. From 0 is everything
// the board keeps (Subscribe's 0 would be none).
func (m *Mirror) replay(ctx context.Context, from uint64) referee.Reply {
	var backlog []referee.Message
	if from == 0 {
		s, err := referee.Resume(m.src, 1)
		if err != nil {
			return referee.Reply{Error: fmt.Sprintf("replay from %d: %v", from, err)}
		}
		backlog = s.Backlog
		s.Cancel()
	} else {
		b, _, cancel, err := m.src.Subscribe(from)
		if err != nil {
			return referee.Reply{Error: fmt.Sprintf("replay from %d: %v", from, err)}
		}
		backlog = b
		cancel()
	}
	if !m.isOpen() {
		return referee.Reply{Error: fmt.Sprintf("replay from %d: not connected to the broker", from)}
	}
	m.pubMu.Lock()
	defer m.pubMu.Unlock()
	var last uint64
	for _, msg := range backlog {
		data := m.encode(msg)
		if data == nil {
			continue
		}
		if err := m.send(ctx, m.t.events, false, data); err != nil {
			return referee.Reply{Error: fmt.Sprintf("replay from %d: interrupted at %d: %v; ask again", from, msg.Seq, err)}
		}
		last = msg.Seq
	}
	// Seq says how far the block went: a subscriber that lacks some of it
	// lost them on the way (a broker drops messages to a client that
	// does not keep up) and asks again.
	return referee.Reply{OK: true, Seq: last}
}

// probeID returns the "id" of a payload ParseCommand refused, if it has a
// usable one, so even an error reply can be matched to its command.
func probeID(payload []byte) string {
	var p struct {
		ID string `json:"id"`
	}
	if json.Unmarshal(payload, &p) != nil || len(p.ID) > 64 || !utf8.ValidString(p.ID) {
		return ""
	}
	return p.ID
}

func clip(s string) string {
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}
