// Relay's patch: the gate between the WAL restart loop (relay_wal_restart.go) and the commands
// that read and then write back what they read (docs/FERRETDB.md, "Why restarts still missed").

package pool

import (
	"sync"
	"time"
)

// relayWALGates: database name -> *relayWALGate. An update or findAndModify command keeps its
// query's read snapshot open while it waits for SQLite's write lock to write back; a restart holds
// that lock while it waits for the readers, so each waited for the other until the restart gave
// up: under steady updates (Agenda's job locks, the gateway's claims) nearly every restart missed
// and held all writers for its whole wait (issue 17). Such commands pass the gate
// (RelayWALReadWrite); a restart closes it first, so none is in flight while it runs.
var relayWALGates sync.Map

// relayWALGate counts the read-then-write commands in flight; closed, it holds new ones back.
type relayWALGate struct {
	mu     sync.Mutex
	opened *sync.Cond
	active int
	closed bool
}

func relayWALGateOf(db string) *relayWALGate {
	if g, ok := relayWALGates.Load(db); ok {
		return g.(*relayWALGate)
	}

	g := &relayWALGate{}
	g.opened = sync.NewCond(&g.mu)
	actual, _ := relayWALGates.LoadOrStore(db, g)

	return actual.(*relayWALGate)
}

// RelayWALReadWrite is held for the whole of a command that reads and then writes back what it
// read (internal/handler, relay_atomic_update.go); call the result when the command ends.
func RelayWALReadWrite(db string) func() {
	if relayWALRestartEvery == 0 {
		return func() {}
	}

	g := relayWALGateOf(db)
	g.mu.Lock()
	for g.closed {
		g.opened.Wait()
	}
	g.active++
	g.mu.Unlock()

	return func() {
		g.mu.Lock()
		g.active--
		g.mu.Unlock()
	}
}

// close holds new commands back and waits up to wait for those in flight to end; false, and open
// again, when they outlast it (a command that hangs must not stop every update).
func (g *relayWALGate) close(wait time.Duration) bool {
	deadline := time.Now().Add(wait)

	g.mu.Lock()
	g.closed = true
	for g.active > 0 && time.Now().Before(deadline) {
		g.mu.Unlock()
		time.Sleep(time.Millisecond)
		g.mu.Lock()
	}
	drained := g.active == 0
	g.mu.Unlock()

	if !drained {
		g.open()
	}

	return drained
}

func (g *relayWALGate) open() {
	g.mu.Lock()
	g.closed = false
	g.mu.Unlock()
	g.opened.Broadcast()
}
