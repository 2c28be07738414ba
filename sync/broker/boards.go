package broker

import (
	"errors"
	"strings"
	"sync"

	mqtt "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/packets"
)

// BoardClientPrefix starts the client id of a board's mirror:
// "boardd-<board>" (sync/mqtt's DefaultClientID).
const BoardClientPrefix = "boardd-"

// Enrollment keeps which key each board name belongs to, for a board
// account (User.Boards). A board logs in with the account's name, the
// account's password followed by ":" and its own key, and the client id
// BoardClientPrefix + its name. The first key a name comes with is the
// name's (trust on first use); from then on only that key joins as that
// board, until the name is released (the club hub's `boardd hub forget`).
//
// Such a client publishes only under <prefix>/<name>/ (Config.Prefix),
// never a command to a board (<prefix>/<name>/cmd/<command>, where its
// answers cmd/<command>/result are allowed), and reads only under
// <prefix>/<name>/. No client of another account may use the client id
// of an enrolled board, so nobody pushes the board off.
type Enrollment interface {
	// Enroll checks key against name's: nil when it is the name's key or
	// the name had none (and now has this one); ErrOtherKey when the name
	// belongs to another key; any other error (a name that cannot be
	// one, too many boards) refuses the client too.
	Enroll(name, key string) error
	// Enrolled reports whether name has a key.
	Enrolled(name string) bool
}

// ErrOtherKey is Enrollment.Enroll's answer for a board name that joined
// with another key: the client is refused with CONNACK "identifier
// rejected" (MQTT 3.1.1 code 2; a wrong password is "not authorised"),
// which the board's mirror explains.
var ErrOtherKey = errors.New("the board name is enrolled with another key")

// boardLogins are the board account's CONNECTs checked in OnConnect and
// not yet through OnConnectAuthenticate.
type boardLogins struct {
	mu sync.Mutex
	ok map[*mqtt.Client]bool
}

func (b *boardLogins) set(cl *mqtt.Client, ok bool) {
	b.mu.Lock()
	if b.ok == nil {
		b.ok = map[*mqtt.Client]bool{}
	}
	b.ok[cl] = ok
	b.mu.Unlock()
}

func (b *boardLogins) take(cl *mqtt.Client) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	ok := b.ok[cl]
	delete(b.ok, cl)
	return ok
}

// boardName is the board a client id names, "" for another id.
func boardName(clientID string) string {
	name, ok := strings.CutPrefix(clientID, BoardClientPrefix)
	if !ok {
		return ""
	}
	return name
}

// OnConnect checks a board account's CONNECT (throttled like every
// password): the account's password, and the board's key against the
// name its client id gives. A name enrolled with another key is refused
// here with "identifier rejected", so the board can tell the director what
// to do; every other outcome is left to OnConnectAuthenticate.
func (a *auth) OnConnect(cl *mqtt.Client, pk packets.Packet) error {
	name := string(pk.Connect.Username)
	u, ok := a.users[name]
	if !ok || u.Boards == nil {
		return nil
	}
	board := boardName(cl.ID)
	pass := string(pk.Connect.Password)
	secret, key, _ := cutLast(pass, ":")
	var enrollErr error
	ok, wait := a.failures.Attempt(cl.Net.Remote, func() bool {
		if !samePassword(secret, u.Password) || key == "" || board == "" {
			return false
		}
		enrollErr = u.Boards.Enroll(board, key)
		return enrollErr == nil
	})
	switch {
	case wait > 0 || ok:
		a.boardOK.set(cl, ok) // taken by OnConnectAuthenticate, which runs next
		return nil
	case errors.Is(enrollErr, ErrOtherKey):
		a.log.Warn("mqtt broker: a board name joined with another key refused (if the board's state was wiped, release the name)", "board", board, "remote", cl.Net.Remote)
		_ = a.srv.SendConnack(cl, packets.ErrClientIdentifierNotValid, false, nil)
		return packets.ErrClientIdentifierNotValid
	case enrollErr != nil:
		a.log.Warn("mqtt broker: a board refused", "board", board, "remote", cl.Net.Remote, "error", enrollErr)
		_ = a.srv.SendConnack(cl, packets.ErrClientIdentifierNotValid, false, nil)
		return packets.ErrClientIdentifierNotValid
	case board == "":
		a.log.Warn("mqtt broker: a board account's client without a board's client id refused", "client_id", cl.ID, "want", BoardClientPrefix+"<board>", "remote", cl.Net.Remote)
	case key == "":
		a.log.Warn("mqtt broker: a board account's client without the board's key refused", "board", board, "remote", cl.Net.Remote)
	}
	a.boardOK.set(cl, false)
	return nil
}

// cutLast cuts s around the last sep.
func cutLast(s, sep string) (before, after string, found bool) {
	if i := strings.LastIndex(s, sep); i >= 0 {
		return s[:i], s[i+len(sep):], true
	}
	return s, "", false
}

// boardACL is OnACLCheck for a client of a board account: its own
// board's topics only, and no command.
func (a *auth) boardACL(cl *mqtt.Client, topic string, write bool) bool {
	board := boardName(cl.ID)
	leaf, ok := strings.CutPrefix(topic, a.prefix+"/"+board+"/")
	if board == "" || !ok {
		return false
	}
	if write && (leaf == "cmd" || strings.HasPrefix(leaf, "cmd/") && !strings.HasSuffix(leaf, "/result")) {
		return false
	}
	if write {
		return true
	}
	return a.sessions.keeps(cl)
}

// heldByBoard reports whether id is the client id of an enrolled board,
// which only that board (its account, its key) may use.
func (a *auth) heldByBoard(id string) bool {
	board := boardName(id)
	return board != "" && a.boards != nil && a.boards.Enrolled(board)
}
