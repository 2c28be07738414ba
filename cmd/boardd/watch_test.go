package main

import "testing"

func TestWatchUsage(t *testing.T) {
	for _, args := range [][]string{
		{"watch", "--broker", "tcp://127.0.0.1:1"},
		{"watch", "--broker", "tcp://127.0.0.1:1", "--board", "a/b"},
	} {
		if code, _, _ := runCmd(args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}
