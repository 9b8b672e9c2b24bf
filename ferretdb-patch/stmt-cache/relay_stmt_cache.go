// Relay's patch, statement cache: each SQLite connection keeps its compiled statements by SQL text.
// This driver compiles a statement's text again on every query and exec (its driver.Stmt only holds
// the text), so *sql.Stmt reuse alone would save nothing; the compiled sqlite3_stmt is kept here
// instead. SQLite recompiles a kept statement by itself when the schema has changed (a table
// dropped and recreated, an index created).

package sqlite

import (
	"container/list"
	"context"
	"database/sql/driver"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	sqlite3 "modernc.org/sqlite/lib"
)

// relayStmtCacheOff turns the cache off: every statement is compiled afresh, as upstream does.
var relayStmtCacheOff = os.Getenv("RELAY_FERRETDB_STMT_CACHE") == "off"

// relayStmtCacheSize bounds the statements kept per connection: `IN (?, ?, …)` lists of varying
// length make many distinct texts.
const relayStmtCacheSize = 128

// relayStmtCacheMaxText leaves long texts (large IN lists, multi-row VALUES) uncached; they rarely
// repeat and would push the frequent ones out.
const relayStmtCacheMaxText = 8 << 10

// relayStmtCache is one connection's idle compiled statements, most recently used first. A
// statement in use is taken out, so a second use of the same text at once compiles its own.
type relayStmtCache struct {
	mu     sync.Mutex
	order  list.List // of *relayCachedStmt
	byKey  map[string]*list.Element
	closed bool
}

type relayCachedStmt struct {
	key   string
	pstmt uintptr
}

// relayCacheKey returns the text as the cache key if it is one plain DML or SELECT statement, or "".
// DDL, PRAGMA, transaction control and texts with a ";" before their end are never cached.
func relayCacheKey(sql string) string {
	if relayStmtCacheOff || len(sql) > relayStmtCacheMaxText {
		return ""
	}

	t := strings.TrimLeft(sql, " \t\r\n")
	if len(t) < 6 {
		return ""
	}

	if strings.Contains(strings.TrimRight(t, " \t\r\n;"), ";") {
		return ""
	}

	end := strings.IndexAny(t, " \t\r\n(")
	if end < 0 {
		return ""
	}

	switch strings.ToUpper(t[:end]) {
	case "SELECT", "INSERT", "UPDATE", "DELETE", "WITH":
		return sql
	default:
		return ""
	}
}

// relayTake returns an idle compiled statement for key, or compiles psql. fallback is true when the
// text turned out not to be a single statement; the caller then runs it the upstream way.
func (c *conn) relayTake(key string, psql uintptr) (pstmt uintptr, fallback bool, err error) {
	c.relayStmts.mu.Lock()
	if e, ok := c.relayStmts.byKey[key]; ok {
		c.relayStmts.order.Remove(e)
		delete(c.relayStmts.byKey, key)
		c.relayStmts.mu.Unlock()

		return e.Value.(*relayCachedStmt).pstmt, false, nil
	}
	c.relayStmts.mu.Unlock()

	tail := psql
	if pstmt, err = c.prepareV2(&tail); err != nil {
		return 0, false, err
	}

	if pstmt == 0 || strings.TrimSpace(relayGoString(tail)) != "" {
		if pstmt != 0 {
			_ = c.finalize(pstmt)
		}

		return 0, true, nil
	}

	return pstmt, false, nil
}

// relayGoString reads the rest of a C string.
func relayGoString(p uintptr) string {
	var b []byte
	for ; *(*byte)(unsafe.Pointer(p)) != 0; p++ {
		b = append(b, *(*byte)(unsafe.Pointer(p)))
	}

	return string(b)
}

// relayRelease resets a statement taken by relayTake, frees its bound values and keeps it for the
// next use of key; the least recently used one past the bound is finalized.
func (c *conn) relayRelease(key string, pstmt uintptr, allocs []uintptr) {
	sqlite3.Xsqlite3_reset(c.tls, pstmt)
	sqlite3.Xsqlite3_clear_bindings(c.tls, pstmt)

	for _, v := range allocs {
		c.free(v)
	}

	var evicted []uintptr

	s := &c.relayStmts
	s.mu.Lock()

	switch _, dup := s.byKey[key]; {
	case s.closed || dup:
		evicted = append(evicted, pstmt)
	default:
		if s.byKey == nil {
			s.byKey = make(map[string]*list.Element)
		}

		s.byKey[key] = s.order.PushFront(&relayCachedStmt{key: key, pstmt: pstmt})

		for s.order.Len() > relayStmtCacheSize {
			old := s.order.Remove(s.order.Back()).(*relayCachedStmt)
			delete(s.byKey, old.key)
			evicted = append(evicted, old.pstmt)
		}
	}
	s.mu.Unlock()

	for _, p := range evicted {
		_ = c.finalize(p)
	}
}

// relayCloseStmts finalizes the kept statements before the connection closes.
func (c *conn) relayCloseStmts() {
	s := &c.relayStmts
	s.mu.Lock()
	s.closed = true

	var kept []uintptr
	for e := s.order.Front(); e != nil; e = e.Next() {
		kept = append(kept, e.Value.(*relayCachedStmt).pstmt)
	}

	s.order.Init()
	s.byKey = nil
	s.mu.Unlock()

	for _, p := range kept {
		_ = c.finalize(p)
	}
}

// RelayCachedStmts returns how many compiled statements the connection keeps (for tests, through
// database/sql's Conn.Raw).
func (c *conn) RelayCachedStmts() int {
	c.relayStmts.mu.Lock()
	defer c.relayStmts.mu.Unlock()

	return c.relayStmts.order.Len()
}

// relayContext checks ctx as the upstream query and exec do: an ended context fails at once, and
// one that ends while the statement runs interrupts it.
func (c *conn) relayContext(ctx context.Context, done *int32) (stop func(), err error) {
	if ctx == nil {
		return func() {}, nil
	}

	ctxDone := ctx.Done()
	if ctxDone == nil {
		return func() {}, nil
	}

	select {
	case <-ctxDone:
		return nil, ctx.Err()
	default:
	}

	return interruptOnDone(ctx, c, done), nil
}

// relayQuery is stmt.query for a cacheable text; ok is false when it must run the upstream way.
func (s *stmt) relayQuery(ctx context.Context, args []driver.NamedValue) (r driver.Rows, ok bool, err error) {
	res, ok, err := s.relayDo(ctx, args, func(pstmt uintptr, allocs []uintptr, rc int) (any, error) {
		rows, err := newRows(s.c, pstmt, allocs, rc == sqlite3.SQLITE_DONE)
		if err != nil {
			// newRows has finalized the statement and freed the values.
			return nil, err
		}

		rows.relayKey = s.relayKey

		return rows, nil
	})
	if !ok || err != nil {
		return nil, ok, err
	}

	return res.(*rows), true, nil
}

// relayExec is stmt.exec for a cacheable text; ok is false when it must run the upstream way.
func (s *stmt) relayExec(ctx context.Context, args []driver.NamedValue) (r driver.Result, ok bool, err error) {
	res, ok, err := s.relayDo(ctx, args, func(pstmt uintptr, allocs []uintptr, rc int) (any, error) {
		res, err := newResult(s.c)
		s.c.relayRelease(s.relayKey, pstmt, allocs)

		return res, err
	})
	if !ok || err != nil {
		return nil, ok, err
	}

	return res.(*result), true, nil
}

// relayDo is what relayQuery and relayExec share: the context's check and interrupt, a kept (or
// freshly compiled) statement, relayRun with `then`, and the context's error when it ended meanwhile
// (rows already made are closed, giving their statement back). ok is false when the text must run
// the upstream way.
func (s *stmt) relayDo(ctx context.Context, args []driver.NamedValue, then func(pstmt uintptr, allocs []uintptr, rc int) (any, error)) (res any, ok bool, err error) {
	var done int32

	stop, err := s.c.relayContext(ctx, &done)
	if err != nil {
		return nil, true, err
	}
	defer stop()

	pstmt, fallback, err := s.c.relayTake(s.relayKey, s.psql)
	if fallback {
		return nil, false, nil
	}

	if err != nil {
		return nil, true, err
	}

	res, err = s.relayRun(pstmt, args, then)

	if atomic.LoadInt32(&done) != 0 {
		if rows, _ := res.(*rows); rows != nil {
			_ = rows.Close()
		}

		return nil, true, ctx.Err()
	}

	if err != nil {
		return nil, true, err
	}

	return res, true, nil
}

// relayRun binds args and takes the first step; then `then` owns the statement. On an error the
// statement is finalized rather than kept, as upstream finalizes it.
func (s *stmt) relayRun(pstmt uintptr, args []driver.NamedValue, then func(pstmt uintptr, allocs []uintptr, rc int) (any, error)) (any, error) {
	var allocs []uintptr

	fail := func(err error) (any, error) {
		_ = s.c.finalize(pstmt)

		for _, v := range allocs {
			s.c.free(v)
		}

		return nil, err
	}

	n, err := s.c.bindParameterCount(pstmt)
	if err != nil {
		return fail(err)
	}

	if n != 0 {
		if allocs, err = s.c.bind(pstmt, n, args); err != nil {
			return fail(err)
		}
	}

	rc, err := s.c.step(pstmt)
	if err != nil {
		return fail(err)
	}

	switch rc & 0xff {
	case sqlite3.SQLITE_DONE, sqlite3.SQLITE_ROW:
		return then(pstmt, allocs, rc&0xff)
	default:
		return fail(s.c.errstr(int32(rc)))
	}
}
