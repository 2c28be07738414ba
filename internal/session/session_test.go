package session

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

func TestTableStartValidEnd(t *testing.T) {
	t0 := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	tab := Table{}
	a, err := tab.Start(t0, time.Hour, 2)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := tab.Start(t0.Add(time.Minute), time.Hour, 2)
	if a == b || len(a) < 40 {
		t.Fatalf("tokens %q and %q: want two long random ones", a, b)
	}
	for _, tc := range []struct {
		name  string
		token string
		at    time.Time
		want  bool
	}{
		{"fresh", a, t0.Add(time.Minute), true},
		{"empty", "", t0, false},
		{"forged", a + "x", t0, false},
		{"expired", a, t0.Add(time.Hour), false},
		{"the other still live", b, t0.Add(time.Hour), true},
	} {
		if got := tab.Valid(tc.token, tc.at); got != tc.want {
			t.Errorf("%s: Valid = %v, want %v", tc.name, got, tc.want)
		}
	}
	if len(tab) != 1 {
		t.Errorf("%d sessions kept after one expired, want 1", len(tab))
	}
	tab.End(b)
	if tab.Valid(b, t0) || len(tab) != 0 {
		t.Errorf("after End: valid %v, %d kept", tab.Valid(b, t0), len(tab))
	}
}

// The table is bounded: past max the session expiring first goes.
func TestTableBounded(t *testing.T) {
	t0 := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	tab := Table{}
	var toks []string
	for i := range 5 {
		tok, _ := tab.Start(t0.Add(time.Duration(i)*time.Second), time.Hour, 3)
		toks = append(toks, tok)
	}
	if len(tab) != 3 {
		t.Fatalf("%d sessions kept, want the bound 3", len(tab))
	}
	for i, tok := range toks {
		if want := i >= 2; tab.Valid(tok, t0) != want {
			t.Errorf("session %d: valid %v, want %v (the oldest go first)", i, !want, want)
		}
	}
}

func TestCookies(t *testing.T) {
	w := httptest.NewRecorder()
	r := httptest.NewRequest("POST", "/login", nil)
	SetCookie(w, r, "c", "tok", 2*time.Hour)
	got := w.Result().Cookies()
	if len(got) != 1 || got[0].Value != "tok" || got[0].MaxAge != 7200 || !got[0].HttpOnly || got[0].SameSite != http.SameSiteStrictMode || got[0].Path != "/" {
		t.Fatalf("cookie %+v", got)
	}
	r2 := httptest.NewRequest("GET", "/", nil)
	r2.AddCookie(got[0])
	if Token(r2, "c") != "tok" || Token(r2, "other") != "" {
		t.Errorf("Token: %q %q", Token(r2, "c"), Token(r2, "other"))
	}
	w = httptest.NewRecorder()
	ClearCookie(w, r, "c")
	if c := w.Result().Cookies(); len(c) != 1 || c[0].MaxAge >= 0 {
		t.Errorf("cleared cookie %+v", c)
	}
	if !SamePassword("pw", "pw") || SamePassword("pw", "pw2") || SamePassword("", "pw") {
		t.Error("SamePassword")
	}
}

// A Keeper logs in (a cookie the next request carries), checks and logs
// out under its lock, on its clock.
func TestKeeper(t *testing.T) {
	var mu sync.Mutex
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	k := Keeper{Mu: &mu, Table: Table{}, Now: func() time.Time { return now }, Cookie: "c", TTL: time.Hour, Max: 4}
	w := httptest.NewRecorder()
	if err := k.Login(w, httptest.NewRequest("POST", "/login", nil)); err != nil {
		t.Fatal(err)
	}
	with := httptest.NewRequest("GET", "/", nil)
	for _, c := range w.Result().Cookies() {
		with.AddCookie(c)
	}
	if !k.Valid(with) || k.Valid(httptest.NewRequest("GET", "/", nil)) {
		t.Fatal("the session's cookie is not valid, or no cookie is")
	}
	mu.Lock()
	now = now.Add(time.Hour)
	mu.Unlock()
	if k.Valid(with) {
		t.Error("valid after its TTL")
	}
	k.Login(httptest.NewRecorder(), with)
	k.Logout(httptest.NewRecorder(), with)
	if len(k.Table) != 1 {
		t.Errorf("%d sessions after an expiry and a logout of nothing live, want the one login", len(k.Table))
	}
}
