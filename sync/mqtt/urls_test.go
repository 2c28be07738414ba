package mqtt

import (
	"slices"
	"strings"
	"testing"
)

func TestParseBrokers(t *testing.T) {
	for _, tc := range []struct {
		list      string
		urls      []string
		user, pw  string
		errHas    string
		notLeaked string // a password the error must not show
	}{
		{list: "mqtt://board:s3@hub:1884", urls: []string{"mqtt://hub:1884"}, user: "board", pw: "s3"},
		{list: "mqtt://board:s3@a:1884, mqtt://b:1884", urls: []string{"mqtt://a:1884", "mqtt://b:1884"}, user: "board", pw: "s3"},
		{list: "ssl://a:8883,ssl://board:s3@b:8883", urls: []string{"ssl://a:8883", "ssl://b:8883"}, user: "board", pw: "s3"},
		{list: "mqtt://board:s3@a:1,mqtt://board:s3@b:2", urls: []string{"mqtt://a:1", "mqtt://b:2"}, user: "board", pw: "s3"},
		{list: "mqtt://board:s3@a:1,mqtt://board:pw2x@b:2", errHas: "another account", notLeaked: "pw2x"},
		{list: "mqtt://board:s3@a:1,", errHas: "URL 2", notLeaked: "s3"},
		{list: "http://board:s3@a:1", errHas: `unknown scheme "http"`, notLeaked: "s3"},
		{list: "a:1884", errHas: "want scheme://host:port"},
	} {
		b, err := ParseBrokers(tc.list)
		switch {
		case tc.errHas != "":
			if err == nil || !strings.Contains(err.Error(), tc.errHas) {
				t.Errorf("%q: error %v, want %q", tc.list, err, tc.errHas)
			} else if tc.notLeaked != "" && strings.Contains(err.Error(), tc.notLeaked) {
				t.Errorf("%q: the error shows the password: %v", tc.list, err)
			}
		case err != nil:
			t.Errorf("%q: %v", tc.list, err)
		case !slices.Equal(b.URLs, tc.urls) || b.User != tc.user || b.Password != tc.pw:
			t.Errorf("%q: %+v, want %v as %s/%s", tc.list, b, tc.urls, tc.user, tc.pw)
		}
	}
}

// ClientOptions takes a list: every URL a server of the client, in order.
func TestClientOptionsList(t *testing.T) {
	o, err := ClientOptions("tcp://a:1, ssl://b:2", "u", "p", TLS{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range o.Servers {
		got = append(got, s.String())
	}
	if !slices.Equal(got, []string{"tcp://a:1", "ssl://b:2"}) || o.TLSConfig == nil {
		t.Errorf("servers %v, TLS %v", got, o.TLSConfig)
	}
	if _, err := ClientOptions("ssl://a:1,tcp://b:2", "u", "p", TLS{CAFile: "ca.pem"}); err == nil || !strings.Contains(err.Error(), "tcp://b:2") {
		t.Errorf("TLS files with a plain URL in the list: %v", err)
	}
}
