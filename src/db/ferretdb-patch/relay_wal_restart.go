// Relay's patch: a loop per database that restarts a WAL that steady readers keep from restarting
// (docs/FERRETDB.md, "The WAL file"). SQLite writes its WAL from the start again only when a writer
// finds every frame checkpointed and no reader still on the WAL; with reads and writes that overlap
// without a pause that moment never comes, and the WAL grows by everything written (40 MiB of
// inserts beside four readers in a loop: a 50 MiB WAL; 382 MiB while bench/scale.ts --scale 0.1
// seeded gateway deliveries). A RESTART checkpoint waits for the readers of the moment to finish
// (readers that start meanwhile read the database file and do not hold the WAL) and blocks writers
// while it waits, so it runs only past a size, with a short busy timeout, and backs off when it
// fails (a long reader).

package pool

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"log/slog"
	"os"
	"strings"
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

// relayRestartWAL starts the loop for db; it ends when db is closed.
func relayRestartWAL(db *sql.DB, name string, l *slog.Logger) {
	if relayWALRestartEvery == 0 {
		return
	}

	go func() {
		ticker := time.NewTicker(relayWALRestartEvery)
		defer ticker.Stop()

		var pause, missed int

		for range ticker.C {
			if pause > 0 {
				pause--
				continue
			}

			restarted, err := relayRestartWALOnce(db)

			switch {
			case err != nil && strings.Contains(err.Error(), "database is closed"):
				return
			case err != nil:
				l.Debug("relay: WAL restart failed", slog.String("db", name), slog.String("error", err.Error()))
			case restarted:
				missed = 0
			default:
				missed++
				pause = min(1<<min(missed, 6), relayWALRestartMaxPause)
			}
		}
	}()
}

// relayRestartWALOnce checkpoints the WAL and, past relayWALRestartFrames frames, truncates it
// (TRUNCATE: the checkpoint restarts the WAL itself; RESTART would leave that to the next writer,
// which new readers can again keep from it); false when a reader kept it from restarting.
func relayRestartWALOnce(db *sql.DB) (bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()

	conn, err := db.Conn(ctx)
	if err != nil {
		return false, err
	}
	defer conn.Close()

	var busy, frames, checkpointed int
	if err = conn.QueryRowContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &frames, &checkpointed); err != nil {
		return false, err
	}

	if frames < relayWALRestartFrames {
		return true, nil
	}

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
