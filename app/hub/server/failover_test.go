package server_test

import (
	"context"
	"fmt"
	"io"
	neturl "net/url"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"boardd/app/hub/hubtest"
	"boardd/app/hub/store"
	"boardd/internal/testio"
)

// boardd run --hub URL,URL: the first hub is not there when the board
// starts, so it joins the second; the second goes away mid-game and the
// hub comes back at the first address (the same state directory and
// database): the board moves there, and the database ends with every
// message of the board once, no gap.
func TestBoardMovesToTheNextHub(t *testing.T) {
	state := t.TempDir()
	first := fmt.Sprintf("127.0.0.1:%d", testio.FreePort(t)) // nothing listens yet
	h, out := startHub(t, state, "127.0.0.1:0")
	join, _ := neturl.Parse(joinURL(t, out))
	second := join.Host
	join.Host = first
	list := join.String() + ",mqtt://" + second // the account given once
	d := startBoard(t, "club-4", t.TempDir(), list, io.Discard)
	for _, mv := range hubtest.TeamsMoves[:3] {
		playOn(t, d, mv)
	}
	holds(t, h, d, "club-4")

	h.Close()
	for _, mv := range hubtest.TeamsMoves[3:6] {
		playOn(t, d, mv) // while no hub is there
	}
	h, _ = startHub(t, state, first)
	for _, mv := range hubtest.TeamsMoves[6:9] {
		playOn(t, d, mv)
	}
	holds(t, h, d, "club-4")

	s, err := store.Open(context.Background(), filepath.Join(state, "hub.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	last := d.Live.State().Seq
	var seqs []uint64
	for end := time.Now().Add(20 * time.Second); len(seqs) == 0 || seqs[len(seqs)-1] < last; time.Sleep(20 * time.Millisecond) {
		if seqs, err = s.Seqs(context.Background(), "club-4"); err != nil {
			t.Fatal(err)
		}
		if time.Now().After(end) {
			break
		}
	}
	want := make([]uint64, 0, last)
	for seq := uint64(1); seq <= last; seq++ {
		want = append(want, seq)
	}
	if !slices.Equal(seqs, want) {
		t.Errorf("the hub holds seqs %v, want 1…%d once each", seqs, last)
	}
	if gaps, err := s.Gaps(context.Background(), "club-4"); err != nil || len(gaps) != 0 {
		t.Errorf("gaps %v, %v", gaps, err)
	}
}
