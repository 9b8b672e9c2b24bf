// Relay's maintained counts for FerretDB v1.24.2's SQLite backend (added at build time by Relay's
// installer; see relay_pushdown.go in the sqlite package).
//
// A COUNT(*) over an index range costs SQLite about 4 VM steps per entry, so a list's exact total
// grows with the tenant (a 100,000-row source: 400,000 steps on every page). For the indexes Relay
// names in RELAY_FERRETDB_COUNTED ("collection:index" separated by spaces or commas), the number
// of documents per value of the index's keys (a trailing _id left out) is kept in a table by SQLite
// triggers. A trigger runs inside the writing statement's transaction, so the count commits or rolls
// back with the write: exact under concurrent writes and after a crash, whichever client wrote.
// Counting is only ever faster, never different: an index not named, or named with another
// shape, is counted by COUNT(*) as before.

package metadata

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/FerretDB/FerretDB/internal/util/fsql"
	"github.com/FerretDB/FerretDB/internal/util/lazyerrors"
)

// RelayCountTable holds (index, key, n): n documents of the index's table have that key.
const RelayCountTable = "_relay_counts"

// relayCountedNames is RELAY_FERRETDB_COUNTED as a set of "collection:index".
var relayCountedNames = func() map[string]bool {
	names := map[string]bool{}
	for _, n := range strings.FieldsFunc(os.Getenv("RELAY_FERRETDB_COUNTED"), func(r rune) bool { return r == ' ' || r == ',' }) {
		names[n] = true
	}
	return names
}()

// RelayCountedKeys is the fields whose values an index's counts are kept by: its keys without a
// trailing _id; nil when the index is not counted.
func RelayCountedKeys(collection string, index IndexInfo) []string {
	if RelayOff || !relayCountedNames[collection+":"+index.Name] {
		return nil
	}
	var keys []string
	for i, k := range index.Key {
		if k.Field == "_id" && i == len(index.Key)-1 {
			break
		}
		if !RelayUsableField(k.Field) || k.Field == "_id" {
			return nil
		}
		keys = append(keys, k.Field)
	}
	return keys
}

// RelayCountKeyExpr is the key of a document, as SQL over the document column col: a JSON array
// of each field's (rank, value), so a lookup binds the same values its filter's equalities do.
func RelayCountKeyExpr(keys []string, col string) string {
	parts := make([]string, 0, len(keys)*2)
	for _, f := range keys {
		parts = append(parts, strings.Replace(RelayRankExpr(f), DefaultColumn, col, 1), strings.Replace(RelayValueExpr(f), DefaultColumn, col, 1))
	}
	return "json_array(" + strings.Join(parts, ", ") + ")"
}

func relaySQLString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// relayCountTriggers is the name and SQL of the three triggers keeping one index's counts.
func relayCountTriggers(table, idx string, keys []string) [][2]string {
	name := func(op string) string { return idx + "__relay_count_" + op }
	newKey, oldKey := RelayCountKeyExpr(keys, "NEW."+DefaultColumn), RelayCountKeyExpr(keys, "OLD."+DefaultColumn)
	add := fmt.Sprintf(`INSERT INTO %q (idx, key, n) VALUES (%s, %s, 1) ON CONFLICT (idx, key) DO UPDATE SET n = n + 1;`, RelayCountTable, relaySQLString(idx), newKey)
	sub := fmt.Sprintf(`UPDATE %q SET n = n - 1 WHERE idx = %s AND key = %s;`, RelayCountTable, relaySQLString(idx), oldKey)
	return [][2]string{
		{name("insert"), fmt.Sprintf(`CREATE TRIGGER %q AFTER INSERT ON %q BEGIN %s END`, name("insert"), table, add)},
		{name("delete"), fmt.Sprintf(`CREATE TRIGGER %q AFTER DELETE ON %q BEGIN %s END`, name("delete"), table, sub)},
		{name("update"), fmt.Sprintf(`CREATE TRIGGER %q AFTER UPDATE ON %q WHEN %s IS NOT %s BEGIN %s %s END`, name("update"), table, oldKey, newKey, sub, add)},
	}
}

// relayEnsureCounts makes an index's triggers and counts what RELAY_FERRETDB_COUNTED asks: when the
// triggers are missing or differ, it drops them, recounts the table and creates them, in one
// transaction (no write can fall between the recount and the triggers); an index no longer named
// loses its triggers and counts.
func relayEnsureCounts(ctx context.Context, db *fsql.DB, collection, table string, index IndexInfo) error {
	if RelayOff {
		return nil // left as they are: triggers a patched FerretDB made keep counting
	}
	idx := table + "_" + index.Name
	keys := RelayCountedKeys(collection, index)
	if keys == nil {
		return relayDropCounts(ctx, db, idx)
	}
	triggers := relayCountTriggers(table, idx, keys)
	same := 0
	for _, t := range triggers {
		var sql string
		if err := db.QueryRowContext(ctx, `SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?`, t[0]).Scan(&sql); err == nil && sql == t[1] {
			same++
		}
	}
	if same == len(triggers) {
		return nil
	}
	return db.InTransaction(ctx, func(tx *fsql.Tx) error {
		stmts := []string{fmt.Sprintf(`CREATE TABLE IF NOT EXISTS %q (idx TEXT NOT NULL, key TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (idx, key)) WITHOUT ROWID`, RelayCountTable)}
		for _, t := range triggers {
			stmts = append(stmts, fmt.Sprintf(`DROP TRIGGER IF EXISTS %q`, t[0]))
		}
		for _, t := range triggers {
			stmts = append(stmts, t[1])
		}
		stmts = append(stmts,
			fmt.Sprintf(`DELETE FROM %q WHERE idx = %s`, RelayCountTable, relaySQLString(idx)),
			fmt.Sprintf(`INSERT INTO %q (idx, key, n) SELECT %s, %s, COUNT(*) FROM %q GROUP BY 2`, RelayCountTable, relaySQLString(idx), RelayCountKeyExpr(keys, DefaultColumn), table),
		)
		for _, q := range stmts {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return lazyerrors.Error(err)
			}
		}
		return nil
	})
}

// relayDropCounts removes an index's triggers and counts, if it has triggers (rows left without
// them are never read: relayEnsureCounts recounts before it creates triggers).
func relayDropCounts(ctx context.Context, db *fsql.DB, idx string) error {
	if RelayOff {
		return nil
	}
	var n int
	like := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(idx+"__relay_count_") + "%"
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_master WHERE type = 'trigger' AND name LIKE ? ESCAPE '\'`, like).Scan(&n); err != nil {
		return lazyerrors.Error(err)
	}
	if n == 0 {
		return nil
	}
	return db.InTransaction(ctx, func(tx *fsql.Tx) error {
		for _, op := range []string{"insert", "delete", "update"} {
			if _, err := tx.ExecContext(ctx, fmt.Sprintf(`DROP TRIGGER IF EXISTS %q`, idx+"__relay_count_"+op)); err != nil {
				return lazyerrors.Error(err)
			}
		}
		if _, err := tx.ExecContext(ctx, fmt.Sprintf(`DELETE FROM %q WHERE idx = ?`, RelayCountTable), idx); err != nil {
			return lazyerrors.Error(err)
		}
		return nil
	})
}
