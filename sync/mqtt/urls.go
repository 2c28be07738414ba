package mqtt

import (
	"fmt"
	"net/url"
	"strings"
)

// Brokers is a list of broker URLs, one account for all: what
// `boardd run --hub URL,URL` and `boardd hub --broker URL,URL` take. The
// client connects to the first it reaches, in order, and moves on to the
// next when the one it had is gone (paho's server list).
type Brokers struct {
	// URLs are the brokers without credentials, in the order given.
	URLs []string
	// User and Password are the account, from the URLs that carry one.
	User, Password string
}

// String is the URLs joined with commas, as ClientOptions takes them.
func (b Brokers) String() string { return strings.Join(b.URLs, ",") }

// ParseBrokers reads a comma-separated list of broker URLs (spaces
// around the commas allowed). A URL may carry the account
// (mqtt://user:password@host:port); the URLs that carry one must carry
// the same, since a client logs in to every broker of the list alike.
// Errors say which URL is wrong.
func ParseBrokers(list string) (Brokers, error) {
	var b Brokers
	haveUser := false
	for i, raw := range strings.Split(list, ",") {
		raw = strings.TrimSpace(raw)
		u, err := url.Parse(raw)
		if err != nil || u.Host == "" {
			return Brokers{}, fmt.Errorf("broker URL %d of %q: want scheme://host:port, like tcp://club-server:1883", i+1, RedactList(list))
		}
		switch u.Scheme {
		case "tcp", "mqtt", "ws", "ssl", "tls", "mqtts", "tcps", "wss":
		default:
			return Brokers{}, fmt.Errorf("broker URL %s: unknown scheme %q (want mqtt, tcp, ssl, ws or wss)", u.Redacted(), u.Scheme)
		}
		if u.User != nil {
			user := u.User.Username()
			pw, _ := u.User.Password()
			if haveUser && (user != b.User || pw != b.Password) {
				return Brokers{}, fmt.Errorf("broker URL %s: another account than the URLs before it; a client logs in to every broker of the list with one account", u.Redacted())
			}
			b.User, b.Password, haveUser = user, pw, true
			u.User = nil
		}
		b.URLs = append(b.URLs, u.String())
	}
	return b, nil
}

// RedactList is a comma-separated list of URLs with their passwords
// hidden, for logs, errors and greetings.
func RedactList(list string) string {
	parts := strings.Split(list, ",")
	for i, p := range parts {
		if u, err := url.Parse(strings.TrimSpace(p)); err == nil {
			parts[i] = u.Redacted()
		} else {
			parts[i] = "…"
		}
	}
	return strings.Join(parts, ",")
}
