// Command boardd runs a four-player chess smart board: it reads the reed
// switches, referees the game, lights the LEDs and mirrors the game to
// displays. Its subcommands (boardd help) also expose the rules engine:
// perft, replay of PGN4 games, and diagnostics.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"syscall"

	"boardd/app/catalog"
	_ "boardd/app/drivers" // every switch and LED driver
	"boardd/sensors/sensorreg"
	"boardd/sync/mqttclient"
)

// command is one boardd subcommand. Each lives in its own file and adds
// itself with register, so main stays a thin dispatcher.
type command struct {
	name    string
	summary string
	// run executes the command; stdout and stderr are where it prints.
	run func(args []string, stdout, stderr io.Writer) error
}

var commands = map[string]command{}

func register(c command) {
	if _, dup := commands[c.name]; dup {
		panic("boardd: command registered twice: " + c.name)
	}
	commands[c.name] = c
}

// errUsage marks an error caused by bad command-line use; main exits 2,
// as it does on a driver's sensorreg.ErrUsage and on a missing --broker
// (mqttclient.ErrNoBroker).
var errUsage = errors.New("usage")

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run dispatches args to a subcommand and returns the process exit code.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stdout)
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "boardd: unknown command %q\n\n", args[0])
		usage(stderr)
		return 2
	}
	if err := c.run(args[1:], stdout, stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintf(stderr, "boardd %s: %v\n", c.name, err)
		if errors.Is(err, errUsage) || errors.Is(err, catalog.ErrUsage) || errors.Is(err, sensorreg.ErrUsage) || errors.Is(err, mqttclient.ErrNoBroker) {
			return 2
		}
		return 1
	}
	return 0
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: boardd <command> [flags]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "commands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'boardd <command> -h' for a command's flags.")
}

// newFlags returns a FlagSet for a subcommand that writes its help to stderr
// and returns errors instead of exiting.
func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("boardd "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// parseNoArgs parses a command's flags and refuses any argument after
// them (a usage error).
func parseNoArgs(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	return nil
}

// mqttFlags returns the FlagSet of an MQTT client command with the broker
// flags bound (mqttclient.BindFlags); its help is synopsis, about and the
// flags.
func mqttFlags(name, synopsis, about string, stderr io.Writer) (*flag.FlagSet, *mqttclient.Broker) {
	fs := newFlags(name, stderr)
	bf := mqttclient.BindFlags(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, synopsis)
		fmt.Fprintln(stderr, about)
		fs.PrintDefaults()
	}
	return fs, bf
}

// untilInterrupted is a context that ends on Ctrl-C or SIGTERM (systemd
// stopping the service).
func untilInterrupted() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}
