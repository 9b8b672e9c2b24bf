// Relay's index layout for FerretDB v1.24.2's SQLite backend (added at build time by Relay's
// installer; see relay_pushdown.go in the sqlite package for why).

package metadata

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"

	"github.com/FerretDB/FerretDB/internal/backends"
	"github.com/FerretDB/FerretDB/internal/util/fsql"
	"github.com/FerretDB/FerretDB/internal/util/lazyerrors"
)

var relayFieldRe = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// RelayOff (RELAY_FERRETDB_PUSHDOWN=off) makes this FerretDB behave as the unpatched one: indexes
// in FerretDB's form, none rebuilt, every query filtered and sorted in Go. Relay's tests use it as
// the oracle and to write a data directory as an unpatched FerretDB does.
var RelayOff = os.Getenv("RELAY_FERRETDB_PUSHDOWN") == "off"

// RelayUsableField reports whether a key is a plain top-level field, indexed as (rank, value).
func RelayUsableField(f string) bool { return relayFieldRe.MatchString(f) }

// RelayRankExpr is the SQL expression of a field's type rank in MongoDB's cross-type sort order
// (missing and null 1, numbers 2, string 3, object 4, array 5, binData 6, objectId 7, bool 8,
// date 9, timestamp 10, regex 11), read from the document's sjson schema.
func RelayRankExpr(f string) string {
	return fmt.Sprintf(`(CASE %s->>'$."$s".p.%s.t' WHEN 'null' THEN 1 WHEN 'double' THEN 2 WHEN 'int' THEN 2 `+
		`WHEN 'long' THEN 2 WHEN 'string' THEN 3 WHEN 'object' THEN 4 WHEN 'array' THEN 5 WHEN 'binData' THEN 6 `+
		`WHEN 'objectId' THEN 7 WHEN 'bool' THEN 8 WHEN 'date' THEN 9 WHEN 'timestamp' THEN 10 WHEN 'regex' THEN 11 `+
		`ELSE 1 END)`, DefaultColumn, f)
}

// RelayValueExpr is the SQL value of a field: numbers compare as numbers, strings and ObjectIds
// (hex) as bytes, booleans as 0/1, dates as milliseconds.
func RelayValueExpr(f string) string {
	return fmt.Sprintf(`%s->>'$.%s'`, DefaultColumn, f)
}

// relayIndexColumns is the column list of an index in Relay's form (dotted keys keep FerretDB's).
func relayIndexColumns(index IndexInfo) string {
	columns := make([]string, 0, len(index.Key)*2)
	for _, key := range index.Key {
		dir := ""
		if key.Descending {
			dir = " DESC"
		}
		if RelayUsableField(key.Field) {
			columns = append(columns, RelayRankExpr(key.Field)+dir, RelayValueExpr(key.Field)+dir)
			continue
		}
		fields := strings.Split(key.Field, ".")
		for j, f := range fields {
			fields[j] = fmt.Sprintf("%q", f)
		}
		columns = append(columns, fmt.Sprintf("%s->%s%s", DefaultColumn, strings.Join(fields, "->"), dir))
	}
	return strings.Join(columns, ", ")
}

// relayIndexSQL is the CREATE INDEX statement of an index; FerretDB's own _id index keeps its form.
func relayIndexSQL(table string, index IndexInfo) string {
	q := "CREATE "
	if index.Unique {
		q += "UNIQUE "
	}
	return q + fmt.Sprintf("INDEX %q ON %q (%s)", table+"_"+index.Name, table, relayIndexColumns(index))
}

// RelayIDIndex is the name suffix of the (rank, value) index on _id every collection gets beside
// FerretDB's own (which is on _id's JSON text, for equality): it serves _id ranges and sorts.
const RelayIDIndex = "__relay_id"

// relayIDIndexSQL creates a collection's RelayIDIndex when missing.
func relayIDIndexSQL(table string) string {
	return fmt.Sprintf("CREATE INDEX IF NOT EXISTS %q ON %q (%s, %s)", table+RelayIDIndex, table, RelayRankExpr("_id"), RelayValueExpr("_id"))
}

// relayUpgradeIndexes rebuilds, once, the indexes a FerretDB without Relay's patch created, so a
// data directory written before keeps working and gets the faster queries.
func relayUpgradeIndexes(ctx context.Context, db *fsql.DB, colls map[string]*Collection) error {
	if RelayOff {
		return nil
	}
	for _, c := range colls {
		// Relay's former _id index helper added this one; FerretDB's own _id index serves now.
		if _, err := db.ExecContext(ctx, fmt.Sprintf("DROP INDEX IF EXISTS %q", c.TableName+"__relay_id_expr")); err != nil {
			return lazyerrors.Error(err)
		}
		if _, err := db.ExecContext(ctx, relayIDIndexSQL(c.TableName)); err != nil {
			return lazyerrors.Error(err)
		}
		for _, index := range c.Settings.Indexes {
			if index.Name == backends.DefaultIndexName {
				continue
			}
			if err := relayEnsureCounts(ctx, db, c.Name, c.TableName, index); err != nil {
				return lazyerrors.Error(err)
			}
			name := c.TableName + "_" + index.Name
			var sql string
			err := db.QueryRowContext(ctx, `SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?`, name).Scan(&sql)
			if err != nil || strings.Contains(sql, `"$s"`) || !strings.Contains(relayIndexSQL(c.TableName, index), `"$s"`) {
				continue
			}
			if _, err = db.ExecContext(ctx, fmt.Sprintf("DROP INDEX %q", name)); err != nil {
				return lazyerrors.Error(err)
			}
			if _, err = db.ExecContext(ctx, relayIndexSQL(c.TableName, index)); err != nil {
				return lazyerrors.Error(err)
			}
		}
	}
	return nil
}
