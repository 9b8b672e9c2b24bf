// Tests of Relay's statement cache in the SQLite driver (relay_stmt_cache.go in the patched driver),
// through database/sql as FerretDB uses it.

package fsql

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	_ "modernc.org/sqlite"
)

func relayOpen(t *testing.T, conns int) *sql.DB {
	t.Helper()

	db, err := sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "t.db")+"?_pragma=journal_mode(wal)&_pragma=busy_timeout(10000)&_txlock=immediate")
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, db.Close()) })

	db.SetMaxOpenConns(conns)
	db.SetMaxIdleConns(conns)

	return db
}

// relayCached returns how many statements one connection of db keeps.
func relayCached(t *testing.T, ctx context.Context, db *sql.DB) int {
	t.Helper()

	conn, err := db.Conn(ctx)
	require.NoError(t, err)
	defer conn.Close()

	var n int
	require.NoError(t, conn.Raw(func(dc any) error {
		n = dc.(interface{ RelayCachedStmts() int }).RelayCachedStmts()
		return nil
	}))

	return n
}

func TestRelayStmtCacheBoundAndKinds(t *testing.T) {
	ctx := context.Background()
	db := relayOpen(t, 1)

	for _, q := range []string{
		"CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)",
		"PRAGMA user_version = 3",
		"CREATE INDEX t_v ON t (v)",
		"INSERT INTO t (id, v) VALUES (100, 'a'); INSERT INTO t (id, v) VALUES (101, 'b')",
		"DROP INDEX t_v",
	} {
		_, err := db.ExecContext(ctx, q)
		require.NoError(t, err, q)
	}

	var one int
	require.NoError(t, db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&one))
	require.Equal(t, 3, one)
	require.Equal(t, 0, relayCached(t, ctx, db), "DDL, PRAGMA and multi-statement texts are not kept")

	var n int
	require.NoError(t, db.QueryRowContext(ctx, "SELECT count(*) FROM t").Scan(&n))
	require.Equal(t, 2, n, "both statements of the multi-statement text ran")
	require.Equal(t, 1, relayCached(t, ctx, db))

	// IN lists of every length up to 300: the cache stays at its bound.
	for i := 1; i <= 300; i++ {
		ph := strings.TrimSuffix(strings.Repeat("?,", i), ",")
		args := make([]any, i)
		for j := range args {
			args[j] = j + 100
		}

		require.NoError(t, db.QueryRowContext(ctx, "SELECT count(*) FROM t WHERE id IN ("+ph+")", args...).Scan(&n))
		require.Equal(t, min(i, 2), n)
	}

	require.Equal(t, 128, relayCached(t, ctx, db))
}

func TestRelayStmtCacheSchemaChanges(t *testing.T) {
	ctx := context.Background()
	db := relayOpen(t, 1)

	_, err := db.ExecContext(ctx, "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)")
	require.NoError(t, err)

	const ins = "INSERT INTO t (id, v) VALUES (?, ?)"
	const sel = "SELECT v FROM t WHERE id = ?"

	_, err = db.ExecContext(ctx, ins, 1, "one")
	require.NoError(t, err)

	var v string
	require.NoError(t, db.QueryRowContext(ctx, sel, 1).Scan(&v))
	require.Equal(t, "one", v)

	// A kept statement of a dropped table fails as a freshly compiled one does.
	_, err = db.ExecContext(ctx, "DROP TABLE t")
	require.NoError(t, err)

	errKept := db.QueryRowContext(ctx, sel, 1).Scan(&v)
	errFresh := db.QueryRowContext(ctx, "  "+sel, 1).Scan(&v)
	require.Error(t, errKept)
	require.Equal(t, errFresh.Error(), errKept.Error())

	_, errKept = db.ExecContext(ctx, ins, 2, "two")
	_, errFresh = db.ExecContext(ctx, "  "+ins, 2, "two")
	require.Error(t, errKept)
	require.Equal(t, errFresh.Error(), errKept.Error())

	// Recreated with another column order, then indexed: the kept statements follow.
	_, err = db.ExecContext(ctx, "CREATE TABLE t (v TEXT, id INTEGER PRIMARY KEY)")
	require.NoError(t, err)

	_, err = db.ExecContext(ctx, ins, 3, "three")
	require.NoError(t, err)
	require.NoError(t, db.QueryRowContext(ctx, sel, 3).Scan(&v))
	require.Equal(t, "three", v)

	_, err = db.ExecContext(ctx, "CREATE UNIQUE INDEX t_v ON t (v)")
	require.NoError(t, err)

	_, err = db.ExecContext(ctx, ins, 4, "three")
	require.ErrorContains(t, err, "UNIQUE constraint failed")

	var plan string
	var a, b int
	require.NoError(t, db.QueryRowContext(ctx, "EXPLAIN QUERY PLAN SELECT id FROM t WHERE v = ?", "three").Scan(&a, &b, &v, &plan))
	require.NoError(t, db.QueryRowContext(ctx, "SELECT id FROM t WHERE v = ?", "three").Scan(&a))
	require.Equal(t, 3, a)
}

func TestRelayStmtCacheConcurrent(t *testing.T) {
	ctx := context.Background()
	db := relayOpen(t, 4)

	_, err := db.ExecContext(ctx, "CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER)")
	require.NoError(t, err)

	for i := 0; i < 50; i++ {
		_, err = db.ExecContext(ctx, "INSERT INTO t (id, v) VALUES (?, ?)", i, 0)
		require.NoError(t, err)
	}

	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)

		go func(g int) {
			defer wg.Done()

			for i := 0; i < 200; i++ {
				switch i % 4 {
				case 0:
					// The same text twice at once on one connection, the first rows still open.
					tx, err := db.BeginTx(ctx, nil)
					require.NoError(t, err)

					r1, err := tx.QueryContext(ctx, "SELECT id FROM t WHERE id < ? ORDER BY id", 10)
					require.NoError(t, err)
					require.True(t, r1.Next())

					var n int
					require.NoError(t, tx.QueryRowContext(ctx, "SELECT id FROM t WHERE id < ? ORDER BY id", 10).Scan(&n))
					require.Equal(t, 0, n)
					require.NoError(t, r1.Close())

					_, err = tx.ExecContext(ctx, "UPDATE t SET v = v + 1 WHERE id = ?", g)
					require.NoError(t, err)
					require.NoError(t, tx.Commit())

				case 1:
					// A query whose context ends before it runs.
					cctx, cancel := context.WithCancel(ctx)
					cancel()

					_, err := db.QueryContext(cctx, "SELECT v FROM t WHERE id = ?", g)
					require.ErrorIs(t, err, context.Canceled)

				case 2:
					var sum int
					require.NoError(t, db.QueryRowContext(ctx, "SELECT sum(v) FROM t WHERE id IN (?, ?)", g, g+8).Scan(&sum))

				case 3:
					// Rows left early.
					rows, err := db.QueryContext(ctx, fmt.Sprintf("SELECT id FROM t WHERE v >= ? LIMIT %d", g+2), 0)
					require.NoError(t, err)
					require.True(t, rows.Next())
					require.NoError(t, rows.Close())
				}
			}
		}(g)
	}

	wg.Wait()

	var v int
	for g := 0; g < 8; g++ {
		require.NoError(t, db.QueryRowContext(ctx, "SELECT v FROM t WHERE id = ?", g).Scan(&v))
		require.Equal(t, 50, v)
	}

	// Kept statements hold no read snapshot: the WAL can be restarted.
	var busy, logFrames, checkpointed int
	require.NoError(t, db.QueryRowContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)").Scan(&busy, &logFrames, &checkpointed))
	require.Equal(t, 0, busy)
}
