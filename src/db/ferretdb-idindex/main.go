// Command relay-ferretdb-idindex runs beside the embedded FerretDB v1.24.2 and gives every
// collection table an index on the exact expression FerretDB filters _id with.
//
// FerretDB creates its _id index on `_ferretdb_sjson->"_id"`, but its lookups, updates and
// deletes filter on `_ferretdb_sjson->'$._id'`. SQLite only uses an expression index whose
// expression matches the query's text, so without this every _id read and write scans the table
// (docs/FERRETDB.md, "The _id index is never used"). The extra index is invisible to FerretDB: it
// reads its indexes from its own metadata table, and DROP TABLE removes ours with the collection.
//
// It is built by src/db/ferretdb.ts from FerretDB's own module (so modernc.org/sqlite comes from
// the same module cache), and started by the same shell watchdog as FerretDB.
package main

import (
	"database/sql"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	_ "modernc.org/sqlite"
)

type fileState struct {
	mainMod, walMod time.Time
	mainSize, walSize int64
}

func stateOf(path string) (fileState, bool) {
	var s fileState
	main, err := os.Stat(path)
	if err != nil {
		return s, false
	}
	s.mainMod, s.mainSize = main.ModTime(), main.Size()
	if wal, err := os.Stat(path + "-wal"); err == nil {
		s.walMod, s.walSize = wal.ModTime(), wal.Size()
	}
	return s, true
}

// indexFile adds the missing _id expression indexes to one database file; it returns how many it
// created.
func indexFile(path string) (int, error) {
	// mode=rw: never create a file FerretDB has just dropped.
	db, err := sql.Open("sqlite", "file:"+path+"?mode=rw&_pragma=busy_timeout(10000)")
	if err != nil {
		return 0, err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)

	rows, err := db.Query(`
		SELECT t.name FROM sqlite_master t
		WHERE t.type = 'table' AND t.name NOT LIKE '\_ferretdb\_%' ESCAPE '\'
		  AND t.sql LIKE '%_ferretdb_sjson TEXT%'
		  AND NOT EXISTS (SELECT 1 FROM sqlite_master i WHERE i.type = 'index' AND i.name = t.name || '__relay_id_expr')`)
	if err != nil {
		return 0, err
	}
	var tables []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			rows.Close()
			return 0, err
		}
		tables = append(tables, name)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}

	created := 0
	for _, table := range tables {
		quoted := strings.ReplaceAll(table, `"`, `""`)
		q := fmt.Sprintf(`CREATE INDEX IF NOT EXISTS "%[1]s__relay_id_expr" ON "%[1]s" (_ferretdb_sjson->'$._id')`, quoted)
		if _, err := db.Exec(q); err != nil {
			// The table may have been dropped since the listing; the next pass looks again.
			if strings.Contains(err.Error(), "no such table") {
				continue
			}
			return created, err
		}
		created++
	}
	return created, nil
}

func alive(pid int) bool {
	return pid <= 0 || syscall.Kill(pid, 0) == nil
}

func main() {
	dir := flag.String("dir", "", "FerretDB's SQLite directory (--sqlite-url)")
	watchPid := flag.Int("watch-pid", 0, "exit when this process is gone")
	interval := flag.Duration("interval", 250*time.Millisecond, "how often to look for new tables")
	flag.Parse()
	if *dir == "" {
		log.Fatal("-dir is required")
	}
	log.SetPrefix("relay-ferretdb-idindex: ")

	seen := map[string]fileState{}
	for {
		files, _ := filepath.Glob(filepath.Join(*dir, "*.sqlite"))
		for f := range seen {
			if _, err := os.Stat(f); err != nil {
				delete(seen, f)
			}
		}
		for _, f := range files {
			st, ok := stateOf(f)
			if !ok || seen[f] == st {
				continue
			}
			n, err := indexFile(f)
			if err != nil {
				log.Printf("%s: %v", filepath.Base(f), err)
				continue
			}
			if n > 0 {
				log.Printf("%s: indexed _id of %d table(s)", filepath.Base(f), n)
			}
			// Our own CREATE INDEX changed the file: take the state after it.
			if after, ok := stateOf(f); ok {
				seen[f] = after
			}
		}
		if !alive(*watchPid) {
			return
		}
		time.Sleep(*interval)
	}
}
