// Package session keeps the login sessions of boardd's web pages (the
// board's own display, the club hub's director and viewers): a random
// token in an HttpOnly, SameSite=Strict cookie, kept on the server only
// as its hash with an expiry, in a table of bounded size (the oldest
// session goes first), and the request header every changing request
// must carry (a cross-site form cannot set it).
//
// A Table is a map and not safe for concurrent use: its owner holds its
// own lock around every call (so the owner's clock and the table change
// together).
package session

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"net/http"
	"time"
)

// RequestHeader must be "1" on every changing request: a cross-site form
// cannot set it, so a session cookie alone is not enough.
const RequestHeader = "X-Boardd-Request"

// Table maps the hash of each session's token to its expiry. Tokens are
// looked up by their hash, so the lookup's time says nothing about them.
type Table map[[32]byte]time.Time

// Start makes a new random token valid for ttl from now and returns it.
// With max sessions kept already, the one expiring first is dropped;
// expired ones are dropped on the way.
func (t Table) Start(now time.Time, ttl time.Duration, max int) (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	token := base64.RawURLEncoding.EncodeToString(b[:])
	var oldest [32]byte
	var oldestExp time.Time
	for k, exp := range t {
		if !now.Before(exp) {
			delete(t, k)
		} else if oldestExp.IsZero() || exp.Before(oldestExp) {
			oldest, oldestExp = k, exp
		}
	}
	if max > 0 && len(t) >= max {
		delete(t, oldest)
	}
	t[sha256.Sum256([]byte(token))] = now.Add(ttl)
	return token, nil
}

// Valid tells whether token is a live session at now; an expired one is
// dropped.
func (t Table) Valid(token string, now time.Time) bool {
	if token == "" {
		return false
	}
	k := sha256.Sum256([]byte(token))
	exp, ok := t[k]
	if ok && !now.Before(exp) {
		delete(t, k)
		ok = false
	}
	return ok
}

// End drops the session of token.
func (t Table) End(token string) { delete(t, sha256.Sum256([]byte(token))) }

// Token is the value of the request's cookie name ("" without one).
func Token(r *http.Request, name string) string {
	c, err := r.Cookie(name)
	if err != nil {
		return ""
	}
	return c.Value
}

// SetCookie gives the client the session cookie name holding token for
// ttl (Secure when the request came over TLS).
func SetCookie(w http.ResponseWriter, r *http.Request, name, token string, ttl time.Duration) {
	http.SetCookie(w, &http.Cookie{Name: name, Value: token, Path: "/", MaxAge: int(ttl / time.Second),
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil})
}

// ClearCookie tells the client to drop the cookie name.
func ClearCookie(w http.ResponseWriter, r *http.Request, name string) {
	http.SetCookie(w, &http.Cookie{Name: name, Value: "", Path: "/", MaxAge: -1,
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil})
}

// SamePassword compares a password given with the one wanted in constant
// time (of their hashes, so the length leaks nothing either).
func SamePassword(got, want string) bool {
	g, w := sha256.Sum256([]byte(got)), sha256.Sum256([]byte(want))
	return subtle.ConstantTimeCompare(g[:], w[:]) == 1
}
