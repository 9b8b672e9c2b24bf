// Relay's patch, statement cache: SQLite connections keep their compiled statements by SQL text
// (relay_stmt_cache.go). The SQLite driver, modernc.org/sqlite, compiles every text again on every
// query and exec, even through a *sql.Stmt, so the cache lives in a patched copy of the driver that
// FerretDB's go.mod is pointed at.
import type { Edit, PatchTopic } from '../topic.ts';

/** Where the driver's module is copied in FerretDB's tree. */
const DRIVER = 'relay-modernc-sqlite';

const EDITS: Edit[] = [
  // The require line is the anchor so that FerretDB needing another driver version stops the build.
  {
    file: 'go.mod',
    anchor: `	modernc.org/sqlite v1.32.0
)
`,
    replace: `	modernc.org/sqlite v1.32.0
)

replace modernc.org/sqlite => ./${DRIVER}
`,
  },
  {
    file: `${DRIVER}/sqlite.go`,
    anchor: `type stmt struct {
	c    *conn
	psql uintptr
}`,
    replace: `type stmt struct {
	c    *conn
	psql uintptr

	relayKey string // the cache key, or "" for a text that is not cached
}`,
  },
  {
    file: `${DRIVER}/sqlite.go`,
    anchor: `	stm := stmt{c: c, psql: p}`,
    replace: `	stm := stmt{c: c, psql: p, relayKey: relayCacheKey(sql)}`,
  },
  {
    file: `${DRIVER}/sqlite.go`,
    anchor: `func (s *stmt) exec(ctx context.Context, args []driver.NamedValue) (r driver.Result, err error) {
`,
    replace: `func (s *stmt) exec(ctx context.Context, args []driver.NamedValue) (r driver.Result, err error) {
	if s.relayKey != "" {
		if r, ok, err := s.relayExec(ctx, args); ok {
			return r, err
		}
	}

`,
  },
  {
    file: `${DRIVER}/sqlite.go`,
    anchor: `func (s *stmt) query(ctx context.Context, args []driver.NamedValue) (r driver.Rows, err error) {
`,
    replace: `func (s *stmt) query(ctx context.Context, args []driver.NamedValue) (r driver.Rows, err error) {
	if s.relayKey != "" {
		if r, ok, err := s.relayQuery(ctx, args); ok {
			return r, err
		}
	}

`,
  },
  // Rows of a kept statement give it back, reset, instead of finalizing it.
  {
    file: `${DRIVER}/sqlite.go`,
    anchor: `	doStep bool
	empty  bool
}`,
    replace: `	doStep bool
	empty  bool

	relayKey string // set when the statement goes back to the cache on Close
}`,
  },
  {
    file: `${DRIVER}/sqlite.go`,
    anchor: `func (r *rows) Close() (err error) {
`,
    replace: `func (r *rows) Close() (err error) {
	if r.relayKey != "" {
		r.c.relayRelease(r.relayKey, r.pstmt, r.allocs)
		r.relayKey, r.pstmt, r.allocs = "", 0, nil

		return nil
	}

`,
  },
  {
    file: `${DRIVER}/sqlite.go`,
    anchor: `	writeTimeFormat string
	beginMode       string
}`,
    replace: `	writeTimeFormat string
	beginMode       string

	relayStmts relayStmtCache
}`,
  },
  {
    file: `${DRIVER}/sqlite.go`,
    anchor: `	c.Lock() // Defend against race with .interrupt invoked by context handling.

	defer c.Unlock()

	if c.db != 0 {`,
    replace: `	c.relayCloseStmts()

	c.Lock() // Defend against race with .interrupt invoked by context handling.

	defer c.Unlock()

	if c.db != 0 {`,
  },
];

export const stmtCache: PatchTopic = {
  modules: { [DRIVER]: 'modernc.org/sqlite@v1.32.0' },
  added: {
    'relay_stmt_cache.go': `${DRIVER}/relay_stmt_cache.go`,
    'relay_stmt_cache_test.go': 'internal/util/fsql/relay_stmt_cache_test.go',
  },
  edits: EDITS,
};
