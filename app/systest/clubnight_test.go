package systest

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"
	"time"

	"boardd/app/board"
	"boardd/configs"
	"boardd/referee"
)

// A club night on the daemon through its web API: a game started from the
// page with its own time control, names, event and round; resigned to an
// end; then listed, replayed and exported from the archive.
func TestClubNightThroughTheWebAPI(t *testing.T) {
	cfg := configs.Defaults()
	cfg.StateDir = t.TempDir()
	cfg.MQTT.Disabled = true
	cfg.Web.Listen = "127.0.0.1:0"
	cfg.Web.Password = "club-pw"
	d, err := board.Start(context.Background(), cfg, io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	base := "http://" + d.WebAddr
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: 10 * time.Second}
	call := func(method, path, body string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
		req.Header.Set("X-Boardd-Request", "1")
		res, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	if code, body := call("POST", "/api/login", `{"password":"club-pw"}`); code != 200 {
		t.Fatalf("login: %d %s", code, body)
	}
	if code, body := call("POST", "/api/cmd/new_game", `{"variant":"teams","time_control":"5+3","tags":{"Red":"Ann","Blue":"Bob","Yellow":"Cy","Green":"Dee","Event":"Club Night","Round":"4"}}`); code != 200 {
		t.Fatalf("new_game: %d %s", code, body)
	}
	if code, body := call("POST", "/api/cmd/remote", `{"seat":"Green","on":true}`); code != 200 {
		t.Fatalf("remote: %d %s", code, body)
	}
	var st referee.State
	_, body := call("GET", "/api/state", "")
	json.Unmarshal([]byte(body), &st)
	if st.Seats[0].ClockMS != 300000 || st.Tags["TimeControl"] != "5+3" || st.Tags["Event"] != "Club Night" || !st.Seats[3].Remote {
		t.Fatalf("the new game: %+v tags %v", st.Seats, st.Tags)
	}
	if code, body := call("POST", "/api/cmd/resign", `{"seat":"Red"}`); code != 200 {
		t.Fatalf("resign: %d %s", code, body)
	}

	// The finished game reaches the archive.
	var list []struct{ File, Event, Round, Result string }
	deadline := time.Now().Add(5 * time.Second)
	for len(list) == 0 && time.Now().Before(deadline) {
		_, body = call("GET", "/api/games", "")
		json.Unmarshal([]byte(body), &list)
		time.Sleep(20 * time.Millisecond)
	}
	if len(list) != 1 || list[0].Event != "Club Night" || list[0].Round != "4" || list[0].Result != "0-1" {
		t.Fatalf("games: %s", body)
	}
	code, pgn := call("GET", "/api/games/"+list[0].File+"?download=1", "")
	if code != 200 || !strings.Contains(pgn, `[TimeControl "5+3"]`) || !strings.Contains(pgn, `[Remote "Green"]`) || !strings.Contains(pgn, `[Red "Ann"]`) {
		t.Errorf("the PGN4: %d\n%s", code, pgn)
	}
	code, body = call("GET", "/api/games/"+list[0].File+"/replay", "")
	if code != 200 || !strings.Contains(body, `"move":"R"`) {
		t.Errorf("the replay: %d %s", code, body)
	}
	code, body = call("GET", "/api/export?event=Club+Night", "")
	if code != 200 || !strings.Contains(body, `[Round "4"]`) {
		t.Errorf("the export: %d %s", code, body)
	}
}
