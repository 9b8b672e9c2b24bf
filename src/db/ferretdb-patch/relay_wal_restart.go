// Relay's patch: one loop for all databases that restarts a WAL that steady readers keep from restarting
// (docs/FERRETDB.md, "The WAL file"). SQLite writes its WAL from the start again only when a writer
// finds every frame checkpointed and no reader still on the WAL; with reads and writes that overlap
// without a pause that moment never comes, and the WAL grows by everything written (40 MiB of
// inserts beside four readers in a loop: a 50 MiB WAL; 382 MiB while bench/scale.ts --scale 0.1
// seeded gateway deliveries). A TRUNCATE checkpoint waits for the readers of the moment to finish
// (readers that start meanwhile read the database file and do not hold the WAL) and blocks writers
// while it waits, so it runs only past a size, with a short busy timeout, and backs off when it
// fails (a long reader).

package pool

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/binary"
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

	// relayWALRestartBusyMs bounds each wait of a restart (for the write lock, then for the
	// readers): writers wait for it, at most a few times this.
	relayWALRestartBusyMs = 500

	// relayWALRestartMaxPause: ticks skipped at most after restarts that met a long reader.
	relayWALRestartMaxPause = 40
)

// relayWALFrames reads the frames the WAL holds from the header of SQLite's wal-index (the
// `-shm` file: mxFrame at byte 16, native byte order), without a connection or a lock: a
// database at rest costs one small file read per tick. A torn read only delays a restart.
func relayWALFrames(shm string) (uint32, bool) {
	f, err := os.Open(shm)
	if err != nil {
		return 0, false
	}
	defer f.Close()

	var header [24]byte
	if _, err = f.ReadAt(header[:], 0); err != nil {
		return 0, false
	}

	return binary.NativeEndian.Uint32(header[16:20]), true
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

			frames, ok := relayWALFrames(d.shm)
			if !ok {
				// SQLite removes the wal-index when the last connection closes: a dropped database
				if err := d.db.Ping(); relayWALClosed(err) {
					relayWALForget(d)
				}

				continue
			}

			if frames < relayWALRestartFrames {
				continue
			}

			restarted, err := relayRestartWALOnce(d.db)

			switch {
			case relayWALClosed(err):
				relayWALForget(d)
			case err != nil:
				l.Debug("relay: WAL restart failed", slog.String("db", d.name), slog.String("error", err.Error()))
			case restarted:
				d.missed = 0
			default:
				// slow reads make a miss now and then: the next tick tries again; only a run of
				// misses (a long reader) spaces the tries out, so writers are not held again and again
				d.missed++
				if d.missed > 3 {
					d.pause = min(1<<min(d.missed-3, 6), relayWALRestartMaxPause)
				}
			}
		}
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

// relayRestartWALOnce checkpoints and truncates the WAL (TRUNCATE: the checkpoint restarts the
// WAL itself; RESTART would leave that to the next writer, which new readers can again keep from
// it); false when a reader kept it from restarting.
func relayRestartWALOnce(db *sql.DB) (bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()

	conn, err := db.Conn(ctx)
	if err != nil {
		return false, err
	}
	defer conn.Close()

	var busy, frames, checkpointed int
	var timeout int
	if err = conn.QueryRowContext(ctx, "PRAGMA busy_timeout").Scan(&timeout); err != nil {
		return false, err
	}

	if _, err = conn.ExecContext(ctx, fmt.Sprintf("PRAGMA busy_timeout = %d", relayWALRestartBusyMs)); err != nil {
		return false, err
	}

	err = conn.QueryRowContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)").Scan(&busy, &frames, &checkpointed)

	if _, restoreErr := conn.ExecContext(ctx, fmt.Sprintf("PRAGMA busy_timeout = %d", timeout)); restoreErr != nil {
		// with the short timeout left on it, the connection would fail ordinary writes: drop it
		_ = conn.Raw(func(any) error { return driver.ErrBadConn })
		return false, restoreErr
	}

	if err != nil {
		return false, err
	}

	return busy == 0, nil
}
