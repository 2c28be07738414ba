// Package session keeps the login sessions of boardd's web pages (the
// board's own display, the club hub's director and viewers): a random
// token in an HttpOnly, SameSite=Strict cookie, kept on the server only
// as its hash with an expiry, in a table of bounded size (the oldest
// session goes first), and the request header every changing request
// must carry (a cross-site form cannot set it).
//
// A Table is a map and not safe for concurrent use: its owner holds its
// own lock around every call (so the owner's clock and the table change
// together), or keeps it in a Keeper, which does.
package session

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"net/http"
	"sync"
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

// Keeper is a Table with what its owner keeps it under: the lock, the
// clock and the cookie. Its methods take the lock; the owner keeps it to
// read the table or change the clock. A Keeper is a value: the Table (a
// map) and the lock are shared by its copies.
type Keeper struct {
	Mu    sync.Locker
	Table Table
	// Now is the clock, called with Mu held (default time.Now).
	Now func() time.Time
	// Cookie is the session cookie's name; TTL how long a session lasts;
	// Max bounds the sessions kept.
	Cookie string
	TTL    time.Duration
	Max    int
}

func (k Keeper) now() time.Time {
	if k.Now == nil {
		return time.Now()
	}
	return k.Now()
}

// Login starts a session and gives the client its cookie.
func (k Keeper) Login(w http.ResponseWriter, r *http.Request) error {
	k.Mu.Lock()
	token, err := k.Table.Start(k.now(), k.TTL, k.Max)
	k.Mu.Unlock()
	if err != nil {
		return err
	}
	SetCookie(w, r, k.Cookie, token, k.TTL)
	return nil
}

// Logout ends the request's session (if any) and tells the client to
// drop the cookie.
func (k Keeper) Logout(w http.ResponseWriter, r *http.Request) {
	if tok := Token(r, k.Cookie); tok != "" {
		k.Mu.Lock()
		k.Table.End(tok)
		k.Mu.Unlock()
	}
	ClearCookie(w, r, k.Cookie)
}

// Valid tells whether the request carries a live session.
func (k Keeper) Valid(r *http.Request) bool {
	tok := Token(r, k.Cookie)
	k.Mu.Lock()
	defer k.Mu.Unlock()
	return k.Table.Valid(tok, k.now())
}
