package broker

import (
	"slices"
	"sync"
	"time"

	mqtt "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/packets"
)

// SessionLimits bound what the persistent sessions of one kind of account
// hold while their clients are away (MQTT 3 clean session off, MQTT 5 a
// session expiry above 0).
type SessionLimits struct {
	// Expiry is how long a session is kept after its client went.
	Expiry time.Duration
	// Messages is how many messages are kept for it meanwhile; later ones
	// are not kept for it (the client catches up with the retained state
	// and the board's replay command).
	Messages int
	// PerUser is how many such sessions one account may have; past it
	// the one whose client went first is dropped.
	PerUser int
}

// The default session limits per kind of account. Anonymous clients keep
// no session: theirs ends with the connection.
var (
	DefaultReaderSessions = SessionLimits{Expiry: time.Hour, Messages: 256, PerUser: 8}
	DefaultWriterSessions = SessionLimits{Expiry: 24 * time.Hour, Messages: 4096, PerUser: 8}
)

func (l SessionLimits) orDefault(d SessionLimits) SessionLimits {
	if l.Expiry <= 0 {
		l.Expiry = d.Expiry
	}
	if l.Messages <= 0 {
		l.Messages = d.Messages
	}
	if l.PerUser <= 0 {
		l.PerUser = d.PerUser
	}
	return l
}

// sessions is the mochi hook that keeps persistent sessions within their
// account's SessionLimits: it drops a message for a session over its
// count (OnACLCheck, asked before mochi stores a message for a client),
// and its sweep drops sessions past their expiry or their account's
// number.
type sessions struct {
	mqtt.HookBase
	srv    *mqtt.Server
	limits func(user string) (SessionLimits, bool) // the account's limits; false: keep no session
	kick   chan struct{}                           // a client went: sweep soon
	stop   chan struct{}
	done   sync.WaitGroup
}

func newSessions(srv *mqtt.Server, limits func(string) (SessionLimits, bool)) *sessions {
	s := &sessions{srv: srv, limits: limits, kick: make(chan struct{}, 1), stop: make(chan struct{})}
	s.done.Add(1)
	go s.loop()
	return s
}

// ID implements mqtt.Hook.
func (s *sessions) ID() string { return "boardd-session-limits" }

// Provides implements mqtt.Hook.
func (s *sessions) Provides(b byte) bool { return b == mqtt.OnDisconnect || b == mqtt.OnPacketEncode }

// OnPacketEncode tells an MQTT 5 client in its CONNACK the session expiry
// it got (its account's, when it asked for more; 0 for an anonymous
// client): mochi announces only its server-wide maximum, and a client
// told nothing keeps to what it asked for.
func (s *sessions) OnPacketEncode(cl *mqtt.Client, pk packets.Packet) packets.Packet {
	if pk.FixedHeader.Type == packets.Connack && cl.Properties.ProtocolVersion == 5 && pk.ReasonCode == 0 &&
		cl.Properties.Props.SessionExpiryIntervalFlag {
		pk.Properties.SessionExpiryInterval = cl.Properties.Props.SessionExpiryInterval
		pk.Properties.SessionExpiryIntervalFlag = true
	}
	return pk
}

// keeps answers whether a message may be stored for cl: not for an away
// client whose session holds its account's count already. (The auth
// hook asks it: mochi takes the first hook that allows a read.)
func (s *sessions) keeps(cl *mqtt.Client) bool {
	if !cl.Closed() {
		return true
	}
	lim, ok := s.limits(string(cl.Properties.Username))
	return ok && cl.State.Inflight.Len() < lim.Messages
}

// OnDisconnect asks for a sweep.
func (s *sessions) OnDisconnect(*mqtt.Client, error, bool) {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

func (s *sessions) loop() {
	defer s.done.Done()
	t := time.NewTicker(10 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
		case <-s.kick:
		}
		s.sweep(time.Now())
	}
}

func (s *sessions) close() {
	close(s.stop)
	s.done.Wait()
}

// sweep drops the sessions of away clients that are past their expiry or
// past their account's number (those whose clients went first) at the
// time now. It answers how many it dropped.
func (s *sessions) sweep(at time.Time) int {
	now := at.Unix()
	away := map[string][]*mqtt.Client{}
	dropped := 0
	for _, cl := range s.srv.Clients.GetAll() {
		gone := cl.StopTime()
		if gone == 0 || !cl.Closed() || cl.Net.Inline {
			continue
		}
		user := string(cl.Properties.Username)
		lim, ok := s.limits(user)
		if !ok || gone+int64(lim.Expiry/time.Second) < now {
			s.drop(cl)
			dropped++
			continue
		}
		away[user] = append(away[user], cl)
	}
	for user, cls := range away {
		lim, _ := s.limits(user)
		if len(cls) <= lim.PerUser {
			continue
		}
		slices.SortFunc(cls, func(a, b *mqtt.Client) int { return int(b.StopTime() - a.StopTime()) }) // newest first
		for _, cl := range cls[lim.PerUser:] {
			s.drop(cl)
			dropped++
		}
	}
	return dropped
}

// drop forgets an away client's session, as mochi does when one expires.
func (s *sessions) drop(cl *mqtt.Client) {
	if now, ok := s.srv.Clients.Get(cl.ID); !ok || now != cl || !cl.Closed() {
		return // came back meanwhile
	}
	s.srv.Log.Debug("mqtt broker: session dropped", "client", cl.ID, "user", string(cl.Properties.Username), "held", cl.State.Inflight.Len())
	cl.ClearInflights()
	s.srv.UnsubscribeClient(cl)
	s.srv.Clients.Delete(cl.ID)
}

// keepNoSession makes cl's session end with its connection (an anonymous
// client's).
func keepNoSession(cl *mqtt.Client) {
	cl.Properties.Clean = true
	cl.Properties.Props.SessionExpiryInterval = 0
	cl.Properties.Props.SessionExpiryIntervalFlag = true
}

// capSessionExpiry lowers an MQTT 5 client's own session expiry to its
// account's (an MQTT 3 client's is the sweep's to enforce).
func capSessionExpiry(cl *mqtt.Client, lim SessionLimits) {
	if cl.Properties.ProtocolVersion == 5 && cl.Properties.Props.SessionExpiryInterval > uint32(lim.Expiry/time.Second) {
		cl.Properties.Props.SessionExpiryInterval = uint32(lim.Expiry / time.Second)
		cl.Properties.Props.SessionExpiryIntervalFlag = true
	}
}
