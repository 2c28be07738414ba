package sensors

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"sync"
	"time"

	"boardd/rules/square"
)

// Defaults for Config. See the package doc and docs/hardware.md for why.
const (
	// DefaultPeriod is 200 Hz: fast enough that a 4-scan debounce still
	// confirms a change within 20 ms, slow enough for any of the drivers
	// but the MCP23017 matrix (use 100 Hz there).
	DefaultPeriod = 5 * time.Millisecond
	// DefaultDebounce scans: reed contact bounce lasts up to ~5 ms and so
	// disturbs at most 2 consecutive scans at 200 Hz; 4 leaves 2 scans of
	// margin and keeps the delay (15–20 ms) far below what a player notices.
	DefaultDebounce = 4
	// DefaultFaultDebounce scans (200 ms at 200 Hz) for a faulty switch.
	DefaultFaultDebounce = 40
	// DefaultChatterEdges raw changes within DefaultChatterWindow make a
	// switch faulty. A lift or place with bounce shows at most ~4 sampled
	// changes; a player fidgeting (lift, put back, lift) under 10 a second.
	DefaultChatterEdges = 16
	// DefaultChatterWindow is the window for DefaultChatterEdges.
	DefaultChatterWindow = time.Second
)

// Config tunes a Scanner. Zero fields take the defaults above.
type Config struct {
	// Period between scans (Run only; Step takes its time from the caller).
	Period time.Duration
	// Debounce is how many consecutive scans a new raw state must hold
	// before it counts.
	Debounce int
	// FaultDebounce replaces Debounce for squares with a fault.
	FaultDebounce int
	// ChatterEdges raw changes within ChatterWindow raise a Chatter fault.
	ChatterEdges  int
	ChatterWindow time.Duration
	// ReadFaultAfter failed reads of the Source raise the Unreadable
	// fault; ReadClearAfter of good reads clear it, a hold that doubles up
	// to ReadClearMax while the fault keeps coming back (package doc).
	ReadFaultAfter int
	ReadClearAfter time.Duration
	ReadClearMax   time.Duration
	// Now is the clock Run stamps scans with; nil means time.Now.
	Now func() time.Time
	// OnEvent receives every event, in order, on the scanning goroutine,
	// after the scanner's lock is released (it may call Snapshot or
	// ReportSuspect). It must not block for long: hand events to a
	// buffered channel or a goroutine. Nil drops events.
	OnEvent func(Event)
}

func (c *Config) fill() {
	if c.Period <= 0 {
		c.Period = DefaultPeriod
	}
	if c.Debounce <= 0 {
		c.Debounce = DefaultDebounce
	}
	if c.FaultDebounce <= 0 {
		c.FaultDebounce = DefaultFaultDebounce
	}
	if c.FaultDebounce < c.Debounce {
		c.FaultDebounce = c.Debounce
	}
	if c.ChatterEdges <= 0 {
		c.ChatterEdges = DefaultChatterEdges
	}
	if c.ChatterWindow <= 0 {
		c.ChatterWindow = DefaultChatterWindow
	}
	if c.ReadFaultAfter <= 0 {
		c.ReadFaultAfter = DefaultReadFaultAfter
	}
	if c.ReadClearAfter <= 0 {
		c.ReadClearAfter = DefaultReadClearAfter
	}
	if c.ReadClearMax < c.ReadClearAfter {
		c.ReadClearMax = max(DefaultReadClearMax, c.ReadClearAfter)
	}
	if c.Now == nil {
		c.Now = time.Now
	}
}

// Scanner reads a Source, debounces every square and reports events. Step
// (or Run) is called from one goroutine; Snapshot, Faults, ReportSuspect
// and ClearFault are safe from any goroutine. A scan does not allocate.
type Scanner struct {
	src Source
	m   *Map
	cfg Config

	frame Frame // scratch for Source.Read

	mu       sync.Mutex
	seeded   bool
	stable   square.Set // debounced occupancy
	lastRaw  square.Set
	counting square.Set // squares whose raw state differs from stable
	faulted  square.Set
	count    [MaxBits]uint16
	began    [MaxBits]time.Time
	edges    [MaxBits]uint16
	winStart [MaxBits]time.Time
	scans    uint64
	rejected uint64 // raw changes that did not last the debounce
	last     time.Time
	health   health

	pendMu  sync.Mutex
	suspect square.Set // reported by ReportSuspect, not yet handled
	clear   square.Set // cleared by ClearFault, not yet handled

	out []Event // events of the current step, reused
}

// NewScanner returns a scanner reading src through the wiring map m.
func NewScanner(src Source, m *Map, cfg Config) (*Scanner, error) {
	if src == nil || m == nil {
		return nil, errors.New("sensors: NewScanner needs a source and a wiring map")
	}
	if src.Bits() != m.Bits() {
		return nil, fmt.Errorf("sensors: the driver reads %d bits but the wiring map has %d; set bits: %d in the wiring map or fix the driver's chip count", src.Bits(), m.Bits(), src.Bits())
	}
	cfg.fill()
	return &Scanner{src: src, m: m, cfg: cfg, out: make([]Event, 0, 2*MaxBits)}, nil
}

// Config returns the scanner's configuration with defaults filled in.
func (s *Scanner) Config() Config { return s.cfg }

// Step runs one scan stamped now: read the source, debounce, deliver
// events. The first Step seeds the debounced state with what it reads and
// reports no events; if it cannot read, the state starts empty and every
// occupied square is reported (Place) once the source reads. A read error is returned and changes nothing but
// the count of failed reads, which may raise the Unreadable fault (an
// event); the first good read after the hold clears it (a Restored event).
func (s *Scanner) Step(now time.Time) error {
	if err := s.src.Read(&s.frame); err != nil {
		s.readFailed(now, err)
		return err
	}
	var raw square.Set
	s.m.Apply(&s.frame, &raw)

	s.pendMu.Lock()
	suspect, clr := s.suspect, s.clear
	s.suspect, s.clear = square.Set{}, square.Set{}
	s.pendMu.Unlock()

	s.mu.Lock()
	s.out = s.out[:0]
	s.scans++
	s.last = now
	if s.health.readOK(now, &s.cfg) {
		s.out = append(s.out, Event{Kind: Restored, Square: square.None, Time: now, Began: now, Occupied: s.stable})
	}
	if !s.seeded {
		s.seeded = true
		s.stable, s.lastRaw = raw, raw
	}
	s.faulted = s.faulted.AndNot(clr)
	for w := range suspect {
		for x := suspect[w] &^ s.faulted[w]; x != 0; x &= x - 1 {
			s.fault(square.Square(w*64+bits.TrailingZeros64(x)), Suspect, now)
		}
	}
	// Chatter: count raw changes per square in a tumbling window.
	for w := range raw {
		for x := raw[w] ^ s.lastRaw[w]; x != 0; x &= x - 1 {
			q := w*64 + bits.TrailingZeros64(x)
			if now.Sub(s.winStart[q]) > s.cfg.ChatterWindow {
				s.winStart[q], s.edges[q] = now, 0
			}
			s.edges[q]++
			if int(s.edges[q]) >= s.cfg.ChatterEdges && !s.faulted.Has(square.Square(q)) {
				s.fault(square.Square(q), Chatter, now)
			}
		}
	}
	s.lastRaw = raw
	// Debounce: only squares whose raw state differs from the debounced
	// one, or did last scan, need work.
	for w := range raw {
		diff := raw[w] ^ s.stable[w]
		for x := diff | s.counting[w]; x != 0; x &= x - 1 {
			bit := uint64(1) << uint(bits.TrailingZeros64(x))
			q := w*64 + bits.TrailingZeros64(x)
			if diff&bit == 0 { // back to the debounced state: start over
				s.rejected++
				s.count[q] = 0
				s.counting[w] &^= bit
				continue
			}
			if s.count[q] == 0 {
				s.began[q] = now
				s.counting[w] |= bit
			}
			s.count[q]++
			need := s.cfg.Debounce
			if s.faulted[w]&bit != 0 {
				need = s.cfg.FaultDebounce
			}
			if int(s.count[q]) < need {
				continue
			}
			s.count[q] = 0
			s.counting[w] &^= bit
			s.stable[w] ^= bit
			k := Lift
			if s.stable[w]&bit != 0 {
				k = Place
			}
			s.out = append(s.out, Event{Kind: k, Square: square.Square(q), Time: now, Began: s.began[q], Occupied: s.stable})
		}
	}
	s.mu.Unlock()
	if s.cfg.OnEvent != nil {
		for i := range s.out {
			s.cfg.OnEvent(s.out[i])
		}
	}
	return nil
}

// fault marks q faulty and queues the event; s.mu is held.
func (s *Scanner) fault(q square.Square, c Cause, now time.Time) {
	s.faulted.Add(q)
	s.out = append(s.out, Event{Kind: Fault, Square: q, Time: now, Began: now, Cause: c, Occupied: s.stable})
}

// Run scans every Config.Period until ctx is done (returning nil) or the
// source fails (returning the error, naming the scan).
func (s *Scanner) Run(ctx context.Context) error {
	t := time.NewTicker(s.cfg.Period)
	defer t.Stop()
	return s.RunTicks(ctx, t.C)
}

// RunTicks scans once per value received from tick, stamping each scan
// with Config.Now. Tests drive it with their own channel.
func (s *Scanner) RunTicks(ctx context.Context, tick <-chan time.Time) error {
	for {
		select {
		case <-ctx.Done():
			return nil
		case _, ok := <-tick:
			if !ok {
				return nil
			}
			if err := s.Step(s.cfg.Now()); err != nil {
				return fmt.Errorf("sensors: scan %d: %w", s.Scans()+1, err)
			}
		}
	}
}

// Snapshot returns the debounced occupancy and the time of the last scan.
func (s *Scanner) Snapshot() (square.Set, time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stable, s.last
}

// Raw returns the undebounced occupancy of the last scan.
func (s *Scanner) Raw() square.Set {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastRaw
}

// Rejected returns how many raw changes the debounce threw away because
// they did not last (contact bounce, a brushed magnet).
func (s *Scanner) Rejected() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rejected
}

// Scans returns how many scans have completed.
func (s *Scanner) Scans() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.scans
}

// Faults returns the squares currently marked faulty.
func (s *Scanner) Faults() square.Set {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.faulted
}

// ReportSuspect is the referee's hook for faults that contradict the game
// (a switch stuck closed on a square the position says is empty, or open
// under a piece for a long time). At the next scan the square gets one
// Fault event with Cause Suspect (unless it is already faulty) and the
// harder FaultDebounce. The scanner itself never guesses these.
func (s *Scanner) ReportSuspect(q square.Square) {
	s.pendMu.Lock()
	s.suspect.Add(q)
	s.pendMu.Unlock()
}

// ClearFault returns q to normal debouncing at the next scan (after a
// repair, or when the referee is satisfied). A later fault reports again.
func (s *Scanner) ClearFault(q square.Square) {
	if !q.Valid() {
		return
	}
	s.pendMu.Lock()
	s.clear.Add(q)
	s.suspect.Remove(q)
	s.pendMu.Unlock()
	s.mu.Lock()
	s.edges[q] = 0
	s.mu.Unlock()
}
