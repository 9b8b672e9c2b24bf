// Relay's patch: one loop for all databases that restarts a WAL that steady readers keep from restarting
// (docs/FERRETDB.md, "The WAL file"). SQLite writes its WAL from the start again only when a writer
// finds every frame checkpointed and no reader still on the WAL; with reads and writes that overlap
// without a pause that moment never comes, and the WAL grows by everything written (40 MiB of
// inserts beside four readers in a loop: a 50 MiB WAL; 382 MiB while bench/scale.ts --scale 0.1
// seeded gateway deliveries). A TRUNCATE checkpoint waits for the readers of the moment to finish
// (readers that start meanwhile read the database file and do not hold the WAL) and blocks writers
// while it waits, so it runs only past a size, with a short busy timeout, and backs off when it
// fails (a long reader). Read-then-write commands let it pass first (relay_wal_gate.go).

package pool

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"time"
)

// relayWALRestartEvery is how often the WAL is looked at (RELAY_FERRETDB_WAL_RESTART, a Go
// duration, or "off").
var relayWALRestartEvery = relayWALRestartInterval()

func relayWALRestartInterval() time.Duration {
	v := os.Getenv("RELAY_FERRETDB_WAL_RESTART")
	if v == "off" {
		return 0
	}

	if d, err := time.ParseDuration(v); err == nil && d > 0 {
		return d
	}

	return 250 * time.Millisecond
}

const (
	// relayWALRestartFrames: two automatic checkpoints' worth (1,000 pages each); below it the
	// WAL restarts on its own.
	relayWALRestartFrames = 2000

	// relayWALRestartBusyMs bounds each wait of a restart (for another checkpoint, the write lock,
	// then the readers) per relayWALRestartFrames the WAL holds: a bigger WAL is worth holding
	// writers longer (the readers' wait holds them), up to relayWALRestartMaxBusyMs.
	relayWALRestartBusyMs    = 500
	relayWALRestartMaxBusyMs = 2000

	// relayWALRestartMaxPause: ticks skipped at most after restarts that met a long reader (10 s:
	// a long reader then holds writers at most 2 s in 12).
	relayWALRestartMaxPause = 40
)

// relayWALBusyMs is how long a restart of a WAL holding frames may wait.
func relayWALBusyMs(frames uint32) int {
	return min(relayWALRestartBusyMs*max(1, int(frames/relayWALRestartFrames)), relayWALRestartMaxBusyMs)
}

// relayWALIndex is what the loop reads of SQLite's wal-index (the `-shm` file, native byte
// order): the frames the WAL holds (mxFrame, byte 16 of the header), the frames copied back
// (nBackfill, byte 96) and the readers' marks (aReadMark[5], bytes 100-119: the WAL frame each
// reader slot's snapshot ends at).
type relayWALIndex struct {
	frames, backfilled uint32
	marks              [5]uint32
}

// relayWALRead reads the wal-index without a connection or a lock: a database at rest costs one
// small file read per tick. A torn read only delays a restart.
func relayWALRead(shm string) (relayWALIndex, bool) {
	var w relayWALIndex

	f, err := os.Open(shm)
	if err != nil {
		return w, false
	}
	defer f.Close()

	var b [120]byte
	if _, err = f.ReadAt(b[:], 0); err != nil {
		return w, false
	}

	w.frames = binary.NativeEndian.Uint32(b[16:20])
	w.backfilled = binary.NativeEndian.Uint32(b[96:100])
	for i := range w.marks {
		w.marks[i] = binary.NativeEndian.Uint32(b[100+4*i:])
	}

	return w, true
}

// relayWALDatabase is one database the loop looks after.
type relayWALDatabase struct {
	db     *sql.DB
	name   string
	shm    string
	pause  int // ticks to skip after restarts that met a long reader
	missed int
}

// relayWAL holds the databases; one goroutine serves them all, so a tick costs one wake-up and one
// small file read per database.
var relayWAL struct {
	mu    sync.Mutex
	dbs   []*relayWALDatabase
	start sync.Once
}

// relayRestartWAL adds db (opened from uri) to the loop; it leaves it once db is closed.
func relayRestartWAL(db *sql.DB, name, uri string, l *slog.Logger) {
	if relayWALRestartEvery == 0 {
		return
	}

	u, err := url.Parse(uri)
	if err != nil {
		return
	}

	file := u.Opaque
	if file == "" {
		file = u.Path
	}

	relayWAL.mu.Lock()
	relayWAL.dbs = append(relayWAL.dbs, &relayWALDatabase{db: db, name: name, shm: file + "-shm"})
	relayWAL.mu.Unlock()

	relayWAL.start.Do(func() { go relayWALLoop(l) })
}

func relayWALLoop(l *slog.Logger) {
	ticker := time.NewTicker(relayWALRestartEvery)
	defer ticker.Stop()

	for range ticker.C {
		relayWAL.mu.Lock()
		dbs := slices.Clone(relayWAL.dbs)
		relayWAL.mu.Unlock()

		for _, d := range dbs {
			if d.pause > 0 {
				d.pause--
				continue
			}

			index, ok := relayWALRead(d.shm)
			if !ok {
				// SQLite removes the wal-index when the last connection closes: a dropped database
				if err := d.db.Ping(); relayWALClosed(err) {
					relayWALForget(d)
				}

				continue
			}

			if index.frames < relayWALRestartFrames {
				continue
			}

			d.restart(index, l)
		}
	}
}

// restart closes the database's gate and restarts its WAL, and spaces the next tries out after a
// run of misses that held writers.
func (d *relayWALDatabase) restart(index relayWALIndex, l *slog.Logger) {
	started := time.Now()
	busyMs := relayWALBusyMs(index.frames)
	gate := relayWALGateOf(d.name)

	var res relayWALCheckpoint
	var err error
	if gate.close(time.Duration(busyMs) * time.Millisecond) {
		res, err = relayRestartWALOnce(d.db, busyMs)
		gate.open()
	} else {
		res.busy, res.frames, res.checkpointed = 1, -2, -2 // updates outlasted the wait
	}

	switch {
	case relayWALClosed(err):
		relayWALForget(d)
	case err != nil:
		l.Debug("relay: WAL restart failed", slog.String("db", d.name), slog.String("error", err.Error()))
	case res.busy == 0:
		d.missed = 0
	case res.relayWALOtherCheckpoint():
		// writers were not held: no reason to space the tries out
	default:
		// slow reads make a miss now and then: the next tick tries again; only a run of
		// misses (a long reader) spaces the tries out, whatever the WAL's size: each miss held
		// every writer for its whole wait, and trying at every tick would hold them most of the
		// time for as long as the reader lasts
		d.missed++
		if d.missed > 3 {
			d.pause = min(1<<min(d.missed-3, 6), relayWALRestartMaxPause)
		}
	}

	if relayWALLog {
		relayWALLogAttempt(d, index, res, time.Since(started), err)
	}
}

func relayWALClosed(err error) bool {
	return err != nil && strings.Contains(err.Error(), "database is closed")
}

func relayWALForget(d *relayWALDatabase) {
	relayWAL.mu.Lock()
	defer relayWAL.mu.Unlock()

	relayWAL.dbs = slices.DeleteFunc(relayWAL.dbs, func(x *relayWALDatabase) bool { return x == d })
}

// relayWALCheckpoint is what `PRAGMA wal_checkpoint` answers: busy 0 when the WAL restarted;
// frames and checkpointed -1 when another connection's checkpoint was running (-2: not run, the
// updates in flight outlasted the wait), else the WAL's frames and those copied back. tries counts
// the checkpoints run.
type relayWALCheckpoint struct {
	busy, frames, checkpointed, tries int
}

// relayWALOtherCheckpoint: SQLite gives up at once, without its busy handler, when another
// connection holds the checkpoint lock, and past 1,000 frames every commit runs an automatic
// checkpoint that takes it: among steady writers two of three restarts met one (.trace/walrace.mts).
func (c relayWALCheckpoint) relayWALOtherCheckpoint() bool {
	return c.busy != 0 && c.frames == -1
}

// relayRestartWALOnce checkpoints and truncates the WAL (TRUNCATE: the checkpoint restarts the
// WAL itself; RESTART would leave that to the next writer, which new readers can again keep from
// it); busy when a reader or a writer kept it from restarting.
func relayRestartWALOnce(db *sql.DB, busyMs int) (relayWALCheckpoint, error) {
	var res relayWALCheckpoint

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()

	conn, err := db.Conn(ctx)
	if err != nil {
		return res, err
	}
	defer conn.Close()

	var timeout int
	if err = conn.QueryRowContext(ctx, "PRAGMA busy_timeout").Scan(&timeout); err != nil {
		return res, err
	}

	if _, err = conn.ExecContext(ctx, fmt.Sprintf("PRAGMA busy_timeout = %d", busyMs)); err != nil {
		return res, err
	}

	// Another connection's checkpoint lasts a few milliseconds: try again within the busy timeout.
	deadline := time.Now().Add(time.Duration(busyMs) * time.Millisecond)
	for {
		res.tries++
		err = conn.QueryRowContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)").Scan(&res.busy, &res.frames, &res.checkpointed)
		if err != nil || !res.relayWALOtherCheckpoint() || time.Now().After(deadline) {
			break
		}

		time.Sleep(time.Millisecond)
	}

	if _, restoreErr := conn.ExecContext(ctx, fmt.Sprintf("PRAGMA busy_timeout = %d", timeout)); restoreErr != nil {
		// with the short timeout left on it, the connection would fail ordinary writes: drop it
		_ = conn.Raw(func(any) error { return driver.ErrBadConn })
		return res, restoreErr
	}

	return res, err
}

// relayWALLog (RELAY_FERRETDB_WAL_LOG=1) writes one JSON line per restart attempt to stderr
// (FerretDB's log file): a diagnosis aid for WALs that grow (docs/FERRETDB.md, "The WAL file").
var relayWALLog = os.Getenv("RELAY_FERRETDB_WAL_LOG") == "1"

func relayWALLogAttempt(d *relayWALDatabase, before relayWALIndex, res relayWALCheckpoint, took time.Duration, err error) {
	line := map[string]any{
		"relayWal": d.name, "t": time.Now().UTC().Format("15:04:05.000"), "frames": before.frames,
		"backfilled": before.backfilled, "marks": before.marks, "busy": res.busy, "walFrames": res.frames,
		"checkpointed": res.checkpointed, "tries": res.tries, "ms": took.Milliseconds(), "missed": d.missed, "pause": d.pause,
	}
	if err != nil {
		line["error"] = err.Error()
	}

	b, _ := json.Marshal(line)
	fmt.Fprintf(os.Stderr, "%s\n", b)
}
