package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"boardd/app/hub/hubtest"
	"boardd/app/hub/server"
	"boardd/configs"
	"boardd/internal/testio"
	"boardd/referee"
	"boardd/sync/mqtt"
	"boardd/sync/mqtt/mqtttest"
)

// mosquittoACL is the ACL file docs/hub.md gives a club that runs the
// hub on its own mosquitto with an account per board.
const mosquittoACL = `# every board: an account named after the board (config key board)
pattern write boardd/%u/status
pattern write boardd/%u/state
pattern write boardd/%u/events
pattern write boardd/%u/leds
pattern write boardd/%u/games/+
pattern write boardd/%u/cmd/+/result
pattern read boardd/%u/cmd/+

# the hub (boardd hub --broker mqtt://hub:PASSWORD@club-server:1883)
user hub
topic read boardd/#
topic write boardd/+/cmd/+

# displays
user viewer
topic read boardd/#
`

// The hub on a club's mosquitto with the documented accounts and ACL
// (given a dead broker first: --broker URL,URL): a board publishes into
// the hub under its own name; another board's account cannot publish as
// it or command it.
func TestHubOnMosquittoWithABoardAccountEach(t *testing.T) {
	mqtttest.Path(t)
	acl := filepath.Join(t.TempDir(), "boards.acl")
	if err := os.WriteFile(acl, []byte(mosquittoACL), 0o644); err != nil {
		t.Fatal(err)
	}
	mq := mqtttest.Start(t, []mqtttest.User{{Name: "club-1", Password: "pw-1"}, {Name: "club-2", Password: "pw-2"}, {Name: "hub", Password: "pw-hub"}},
		"", "use_username_as_clientid true\nacl_file "+acl+"\n")
	// boardd hub --broker URL,URL: the first is not there; the hub takes
	// in the boards from the second.
	h, err := server.Start(context.Background(), server.Config{StateDir: t.TempDir(), Web: "127.0.0.1:0",
		Broker: fmt.Sprintf("mqtt://hub:pw-hub@127.0.0.1:%d,mqtt://127.0.0.1:%d", testio.FreePort(t), mq.Port)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	l := hubtest.Start(t, hubtest.Board{Broker: mq.URL(), User: "club-1", Password: "pw-1", Name: "club-1"})
	hubtest.Play(t, l, hubtest.TeamsMoves[:2]...)
	boards(t, h, "club-1 with 2 moves", func(b []apiBoard) bool {
		return len(b) == 1 && b[0] == apiBoard{Board: "club-1", Status: "playing", Moves: 2, LastMove: hubtest.TeamsMoves[1]}
	})

	opts, err := mqtt.ClientOptions(mq.URL(), "club-2", "pw-2", mqtt.TLS{})
	if err != nil {
		t.Fatal(err)
	}
	other := paho.NewClient(opts.SetClientID("boardd-club-2"))
	if tok := other.Connect(); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatalf("club-2: %v", tok.Error())
	}
	defer other.Disconnect(0)
	forged, _ := json.Marshal(referee.Message{Seq: l.State().Seq + 1, Board: "club-1", Game: l.State().Game, Kind: referee.MsgMove, Seat: "Red", Move: "Qg1-n14", Coord: "g1-n14"})
	other.Publish(mqtt.Topic("", "club-1", mqtt.TopicEvents), 1, false, forged).WaitTimeout(2 * time.Second)
	resign, _ := json.Marshal(referee.Command{Name: referee.CmdResign, Seat: "Red"})
	other.Publish(mqtt.Topic("", "club-1", mqtt.TopicCmd+"/"+referee.CmdResign), 1, false, resign).WaitTimeout(2 * time.Second)

	hubtest.Play(t, l, hubtest.TeamsMoves[2:4]...)
	boards(t, h, "club-1 with its own 4 moves", func(b []apiBoard) bool {
		return len(b) == 1 && b[0] == apiBoard{Board: "club-1", Status: "playing", Moves: 4, LastMove: hubtest.TeamsMoves[3]}
	})
	if st := l.State(); st.Result != nil {
		t.Errorf("another board's account commanded club-1: %+v", st.Result)
	}
}

// TLS both ways: the hub takes in the boards from a club mosquitto over
// ssl:// (boardd hub --broker ssl://… --ca FILE), and a board joins it
// over ssl:// with the CA in mqtt.hub_tls (boardd run --hub-ca FILE).
func TestHubAndBoardOverTLS(t *testing.T) {
	mqtttest.Path(t)
	certs := t.TempDir()
	mqtttest.WriteCerts(t, certs)
	acl := filepath.Join(t.TempDir(), "boards.acl")
	if err := os.WriteFile(acl, []byte(mosquittoACL), 0o644); err != nil {
		t.Fatal(err)
	}
	mq := mqtttest.Start(t, []mqtttest.User{{Name: "club-5", Password: "pw-5"}, {Name: "hub", Password: "pw-hub"}},
		certs, "use_username_as_clientid true\nacl_file "+acl+"\n")
	ca := filepath.Join(certs, "ca.pem")
	h, err := server.Start(context.Background(), server.Config{StateDir: t.TempDir(), Web: "127.0.0.1:0",
		Broker: fmt.Sprintf("ssl://hub:pw-hub@127.0.0.1:%d", mq.TLSPort), BrokerTLS: server.BrokerTLS{CA: ca}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	d := startBoard(t, "club-5", t.TempDir(), fmt.Sprintf("ssl://club-5:pw-5@127.0.0.1:%d", mq.TLSPort), io.Discard,
		func(c *configs.Daemon) { c.MQTT.HubTLS.CAFile = ca })
	for _, mv := range hubtest.TeamsMoves[:3] {
		playOn(t, d, mv)
	}
	holds(t, h, d, "club-5")

	// Without the CA the hub cannot be checked, and the hub sees nothing.
	bare, err := server.Start(context.Background(), server.Config{StateDir: t.TempDir(), Web: "off",
		Broker: fmt.Sprintf("ssl://hub:pw-hub@127.0.0.1:%d", mq.TLSPort)})
	if err != nil {
		t.Fatal(err)
	}
	defer bare.Close()
	select {
	case err := <-bare.Err():
		if !strings.Contains(err.Error(), "certificate") {
			t.Errorf("a hub without the CA: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Error("a hub without the CA connected")
	}
}
