package connlimit

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The child of TestReserveKeepsFilesOpenable: a server with a file limit
// of 400 whose listener takes its total from it, then on "files" opens 64
// files (a journal, a stream, game files) and says whether it could.
func init() {
	if os.Getenv("CONNLIMIT_RESERVE_CHILD") == "" {
		return
	}
	lim := syscall.Rlimit{Cur: 400, Max: 400}
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		fmt.Println("setrlimit:", err)
		os.Exit(1)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Println("listen:", err)
		os.Exit(1)
	}
	total := TotalFor(1024, 0.5, 0)
	l := Listen(ln, New(Config{PerAddress: 1000, Total: total}))
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				continue // EMFILE included: the test is whether files still open
			}
			_ = c // held open, idle
		}
	}()
	fmt.Printf("%s %d\n", ln.Addr(), total)
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		dir := os.Getenv("CONNLIMIT_RESERVE_DIR")
		var files []*os.File
		var failed error
		for i := range 64 {
			f, err := os.Create(filepath.Join(dir, fmt.Sprintf("game-%d", i)))
			if err != nil {
				failed = err
				break
			}
			files = append(files, f)
		}
		for _, f := range files {
			f.Close()
		}
		fmt.Printf("files %d open=%d err=%v\n", len(files), l.Limiter().Counts().Open, failed)
	}
	os.Exit(0)
}

// Issue 28, item 3: whatever the network does, the process keeps file
// handles for its own files. A server whose file limit is 400 takes 600
// connections (more than the limit) and can still open 64 files.
func TestReserveKeepsFilesOpenable(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "CONNLIMIT_RESERVE_CHILD=1", "CONNLIMIT_RESERVE_DIR="+t.TempDir())
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	out := bufio.NewScanner(stdout)
	if !out.Scan() {
		t.Fatal("the child said nothing")
	}
	var addr string
	var total int
	if _, err := fmt.Sscan(out.Text(), &addr, &total); err != nil {
		t.Fatalf("child: %q", out.Text())
	}
	if want := (400 - Reserve) / 2; total != want {
		t.Errorf("total for a file limit of 400: %d, want %d", total, want)
	}
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for i := range 600 {
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(fmt.Sprintf("127.0.8.%d", 1+i%200))}, Timeout: 5 * time.Second}
		c, err := d.Dial("tcp", addr)
		if err != nil {
			t.Fatalf("dial %d: %v", i, err)
		}
		conns = append(conns, c)
	}
	// Ask until the child holds as many connections as it will.
	var line string
	for range 250 {
		fmt.Fprintln(stdin, "files")
		if !out.Scan() {
			t.Fatal("the child died")
		}
		line = out.Text()
		if strings.Contains(line, fmt.Sprintf(" open=%d ", total)) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !strings.HasPrefix(line, "files 64 ") || !strings.HasSuffix(line, "err=<nil>") {
		t.Errorf("with 600 connections against a file limit of 400: %s, want all 64 files opened", line)
	}
	t.Log(line)
}
