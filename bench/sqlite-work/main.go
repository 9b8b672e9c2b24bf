// sqlite-work: what SQLite (the build FerretDB links, modernc.org/sqlite) does to answer statements.
// Reads one JSON object per line on stdin, {"sql": "...", "limit": n}, against the database file
// given as the argument (opened read-only), and writes one JSON line per statement: the query plan,
// the rows it yielded (at most limit, 0 = all, each read to its end as FerretDB reads documents),
// its virtual machine steps and full-scan steps, and the pages it touched (cache hits + misses).
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"unsafe"

	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"
)

type request struct {
	SQL   string `json:"sql"`
	Limit int    `json:"limit"`
}

type result struct {
	Plan      []string `json:"plan"`
	Rows      int      `json:"rows"`
	Bytes     int64    `json:"bytes"`
	Steps     int32    `json:"steps"`
	Fullscan  int32    `json:"fullscan"`
	Pages     int32    `json:"pages"`
	Error     string   `json:"error,omitempty"`
}

var tls = libc.NewTLS()

func prepare(db uintptr, sql string) (uintptr, error) {
	z, err := libc.CString(sql)
	if err != nil {
		return 0, err
	}
	defer libc.Xfree(tls, z)
	pp := libc.Xmalloc(tls, 8)
	defer libc.Xfree(tls, pp)
	if rc := sqlite3.Xsqlite3_prepare_v2(tls, db, z, -1, pp, 0); rc != sqlite3.SQLITE_OK {
		return 0, fmt.Errorf("prepare: %s", libc.GoString(sqlite3.Xsqlite3_errmsg(tls, db)))
	}
	return *(*uintptr)(unsafe.Pointer(pp)), nil
}

func dbStatus(db uintptr, op int32) int32 {
	cur := libc.Xmalloc(tls, 8)
	hi := libc.Xmalloc(tls, 8)
	defer libc.Xfree(tls, cur)
	defer libc.Xfree(tls, hi)
	sqlite3.Xsqlite3_db_status(tls, db, op, cur, hi, 1)
	return *(*int32)(unsafe.Pointer(cur))
}

func run(db uintptr, req request) result {
	var res result
	plan, err := prepare(db, "EXPLAIN QUERY PLAN "+req.SQL)
	if err != nil {
		res.Error = err.Error()
		return res
	}
	for sqlite3.Xsqlite3_step(tls, plan) == sqlite3.SQLITE_ROW {
		res.Plan = append(res.Plan, libc.GoString(sqlite3.Xsqlite3_column_text(tls, plan, 3)))
	}
	sqlite3.Xsqlite3_finalize(tls, plan)

	stmt, err := prepare(db, req.SQL)
	if err != nil {
		res.Error = err.Error()
		return res
	}
	dbStatus(db, sqlite3.SQLITE_DBSTATUS_CACHE_HIT)
	dbStatus(db, sqlite3.SQLITE_DBSTATUS_CACHE_MISS)
	for req.Limit == 0 || res.Rows < req.Limit {
		if sqlite3.Xsqlite3_step(tls, stmt) != sqlite3.SQLITE_ROW {
			break
		}
		res.Rows++
		for i := int32(0); i < sqlite3.Xsqlite3_column_count(tls, stmt); i++ {
			sqlite3.Xsqlite3_column_blob(tls, stmt, i)
			res.Bytes += int64(sqlite3.Xsqlite3_column_bytes(tls, stmt, i))
		}
	}
	res.Steps = sqlite3.Xsqlite3_stmt_status(tls, stmt, sqlite3.SQLITE_STMTSTATUS_VM_STEP, 0)
	res.Fullscan = sqlite3.Xsqlite3_stmt_status(tls, stmt, sqlite3.SQLITE_STMTSTATUS_FULLSCAN_STEP, 0)
	res.Pages = dbStatus(db, sqlite3.SQLITE_DBSTATUS_CACHE_HIT) + dbStatus(db, sqlite3.SQLITE_DBSTATUS_CACHE_MISS)
	sqlite3.Xsqlite3_finalize(tls, stmt)
	return res
}

func main() {
	name, err := libc.CString("file:" + os.Args[1] + "?mode=ro")
	if err != nil {
		panic(err)
	}
	pp := libc.Xmalloc(tls, 8)
	flags := int32(sqlite3.SQLITE_OPEN_READONLY | sqlite3.SQLITE_OPEN_URI)
	if rc := sqlite3.Xsqlite3_open_v2(tls, name, pp, flags, 0); rc != sqlite3.SQLITE_OK {
		fmt.Fprintf(os.Stderr, "open %s: %d\n", os.Args[1], rc)
		os.Exit(1)
	}
	db := *(*uintptr)(unsafe.Pointer(pp))
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<26)
	out := json.NewEncoder(os.Stdout)
	for in.Scan() {
		var req request
		if err := json.Unmarshal(in.Bytes(), &req); err != nil {
			_ = out.Encode(result{Error: err.Error()})
			continue
		}
		_ = out.Encode(run(db, req))
	}
}
