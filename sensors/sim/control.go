package sim

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
)

// Serve accepts connections on ln (a unix socket or a TCP port on
// localhost) and applies the script lines each client sends to b, in real
// time, answering "ok" or "error: <reason>" per line. It returns when ctx
// is done (closing ln) or ln fails.
//
// Try it with: printf 'lift e2\nwait 50ms\nplace e4\n' | nc localhost 7165
func Serve(ctx context.Context, ln net.Listener, b *Board) error {
	var wg sync.WaitGroup
	defer wg.Wait()
	stop := context.AfterFunc(ctx, func() { ln.Close() })
	defer stop()
	for {
		c, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
				return nil
			}
			return err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			serveConn(ctx, c, b)
		}()
	}
}

func serveConn(ctx context.Context, c net.Conn, b *Board) {
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	wait := SleepWait(ctx)
	sc := bufio.NewScanner(c)
	w := bufio.NewWriter(c)
	for sc.Scan() {
		st, ok, err := ParseLine(sc.Text())
		if err == nil && ok {
			err = st.Apply(b, wait)
		}
		if !ok && err == nil {
			continue
		}
		if err != nil {
			fmt.Fprintf(w, "error: %v\n", err)
		} else {
			fmt.Fprintln(w, "ok")
		}
		if w.Flush() != nil {
			return
		}
	}
}
