// Relay's patch: the pushdown's probe answers kept in the process (added at build time by Relay's
// installer, ferretdb-patch/ in the Relay repository; not part of FerretDB).
//
// Before using an index the pushdown asks SQLite "does a row of this set hold an array at F" (and,
// before a sort, "a value SQLite orders unlike MongoDB"): one EXISTS each, and SQLite compiles each
// statement again on every query (the modernc driver prepares on every execution): 3 of the 7
// statements of an admin delivery list's page, 0.2-0.3 ms of FerretDB's 4-6 ms for a first page
// (an admin delivery list's page, measured). A "no" stays true until a write stores such a value
// at F in the table, since a row that joins the set by an update is written whole. So the answers
// are kept per table, and:
//
//   - every insert and update (RelayProbesWriting, around its transaction: plain inserts, upserts,
//     update batches, findAndModify) keeps the answers about each top-level field it stores a
//     non-scalar at from use while it runs, then drops them (an array drops both kinds) and bumps
//     that field's generation, so a probe that ran while the write committed does not store its
//     stale "no";
//   - a delete drops the "yes" answers (it may have removed the last array; a stale "yes" only
//     disables the pushdown);
//   - creating, dropping or renaming a collection and dropping a database drop the table's answers
//     (keys carry the collection's UUID too, new at every create).
//
// Only this process's writes are seen: one FerretDB per data directory, as Relay runs it.
// RELAY_FERRETDB_PROBE_CACHE=off asks SQLite every time (the benchmarks' other side).

package metadata

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/FerretDB/FerretDB/internal/types"
)

// RelayProbeCacheOff (RELAY_FERRETDB_PROBE_CACHE=off) runs every probe.
var RelayProbeCacheOff = os.Getenv("RELAY_FERRETDB_PROBE_CACHE") == "off"

// RelayProbeKind is what a probe looks for at its field.
type RelayProbeKind byte

const (
	// RelayProbeArray: an array (type rank 5), which MongoDB matches by its elements.
	RelayProbeArray RelayProbeKind = 'a'
	// RelayProbeInexact: a value whose SQLite order is not MongoDB's (object, array, binData,
	// timestamp, regex).
	RelayProbeInexact RelayProbeKind = 'i'
)

// relayProbeLimit bounds one table's answers (keys carry their probe's SQL and arguments, so a
// probe narrowed by a tenant's id has one per tenant; a key is up to about 1 KB); past it the
// table's answers are dropped and asked again.
const relayProbeLimit = 512

// RelayProbeTable holds one collection's probe answers.
type RelayProbeTable struct {
	mu      sync.Mutex
	dropped bool
	gen     uint64 // bumped by deletes: a "yes" read before one is not stored after it
	fields  map[string]*relayProbeField
	n       int // answers held
	yes     int // of which "yes"
}

type relayProbeField struct {
	gen     uint64 // bumped by each write that stores a non-scalar at the field
	writing int    // such writes in flight: no answer is used or stored meanwhile
	answers map[string]bool
}

// RelayProbeStamp is what a probe saw before it asked SQLite; RelayProbeTable.Store needs it.
type RelayProbeStamp struct{ table, field uint64 }

// relayProbeTables: "db\x00table\x00uuid" -> *RelayProbeTable.
var relayProbeTables sync.Map

func relayProbeTableKey(dbName string, c *Collection) string {
	return dbName + "\x00" + c.TableName + "\x00" + c.Settings.UUID
}

// RelayProbesOf returns the collection's answers, or nil when the cache is off.
func RelayProbesOf(dbName string, c *Collection) *RelayProbeTable {
	if RelayProbeCacheOff || RelayOff || c == nil {
		return nil
	}
	key := relayProbeTableKey(dbName, c)
	if t, ok := relayProbeTables.Load(key); ok {
		return t.(*RelayProbeTable)
	}
	t, _ := relayProbeTables.LoadOrStore(key, &RelayProbeTable{fields: map[string]*relayProbeField{}})
	return t.(*RelayProbeTable)
}

// RelayProbeKey is a probe's key within its field: its kind, SQL conditions and arguments.
func RelayProbeKey(kind RelayProbeKind, where []string, args []any) string {
	var b strings.Builder
	b.WriteByte(byte(kind))
	for _, w := range where {
		fmt.Fprintf(&b, "%d:%s", len(w), w)
	}
	for _, a := range args {
		switch a := a.(type) {
		case string:
			fmt.Fprintf(&b, "|s%d:%s", len(a), a)
		case int64:
			fmt.Fprintf(&b, "|i%d", a)
		case float64:
			fmt.Fprintf(&b, "|f%v", a)
		case nil:
			b.WriteString("|n")
		default:
			fmt.Fprintf(&b, "|%T:%v", a, a) // not produced by the pushdown today; still distinct by type
		}
	}
	return b.String()
}

// Lookup returns a kept answer, or the stamp to store the probe's answer with.
func (t *RelayProbeTable) Lookup(field, key string) (answer, found bool, stamp RelayProbeStamp) {
	t.mu.Lock()
	defer t.mu.Unlock()
	f := t.field(field)
	if f.writing > 0 {
		return false, false, RelayProbeStamp{table: t.gen, field: f.gen}
	}
	answer, found = f.answers[key]
	return answer, found, RelayProbeStamp{table: t.gen, field: f.gen}
}

// field returns a field's answers, made when missing; t.mu is held.
func (t *RelayProbeTable) field(name string) *relayProbeField {
	f := t.fields[name]
	if f == nil {
		f = &relayProbeField{answers: map[string]bool{}}
		t.fields[name] = f
	}
	return f
}

// Store keeps an answer SQLite gave, unless a write or delete that could change it came in between.
func (t *RelayProbeTable) Store(field, key string, answer bool, stamp RelayProbeStamp) {
	t.mu.Lock()
	defer t.mu.Unlock()
	f := t.fields[field]
	if t.dropped || f == nil || f.writing > 0 || f.gen != stamp.field || t.gen != stamp.table {
		return
	}
	if _, had := f.answers[key]; had {
		return
	}
	if t.n >= relayProbeLimit {
		for _, g := range t.fields {
			g.answers = map[string]bool{}
		}
		t.n, t.yes = 0, 0
	}
	f.answers[key] = answer
	t.n++
	if answer {
		t.yes++
	}
}

// relayProbeScalar: values whose rank the probes never look for (every rank SQLite orders exactly).
func relayProbeScalar(v any) bool {
	switch v.(type) {
	case types.NullType, float64, int32, int64, string, types.ObjectID, bool, time.Time:
		return true
	}
	return false
}

// RelayProbesWriting is called before an insert or update writes docs, and the function it returns
// once the write's transaction has ended (committed or not). Between the two, no answer about a
// field the documents hold a non-scalar at is used or stored: a query whose SQL already sees the
// committed write must not take a "no" kept from before it (an update of {a: 1} to {a: [1]} would
// drop out of {a: 1}). At the end each such field's answers are dropped (an array: both kinds;
// an object, binData, timestamp or regex: the sort probe's) and its generation bumped, so a probe
// that read before the commit does not store its stale "no" after it.
func RelayProbesWriting(dbName string, c *Collection, docs []*types.Document) func() {
	t := RelayProbesOf(dbName, c)
	if t == nil {
		return func() {}
	}

	written := map[string]bool{} // field -> an array was written there
	for _, doc := range docs {
		values := doc.Values()
		for i, k := range doc.Keys() {
			if relayProbeScalar(values[i]) {
				continue
			}
			_, array := values[i].(*types.Array)
			written[k] = written[k] || array
		}
	}
	if len(written) == 0 {
		return func() {}
	}

	t.mu.Lock()
	for k := range written {
		t.field(k).writing++
	}
	t.mu.Unlock()

	return func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		for k, array := range written {
			f := t.field(k)
			f.writing--
			f.gen++
			for key, answer := range f.answers {
				if array || RelayProbeKind(key[0]) == RelayProbeInexact {
					delete(f.answers, key)
					t.n--
					if answer {
						t.yes--
					}
				}
			}
		}
	}
}

// RelayProbesDeleted drops the "yes" answers: a delete may have removed the last such value.
func RelayProbesDeleted(dbName string, c *Collection) {
	t := RelayProbesOf(dbName, c)
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.gen++
	if t.yes == 0 {
		return
	}
	for _, f := range t.fields {
		for key, answer := range f.answers {
			if answer {
				delete(f.answers, key)
				t.n--
			}
		}
	}
	t.yes = 0
}

// RelayProbesForget drops every answer of a table (all its collections' UUIDs), or of the whole
// database when table is empty: on create, drop and rename of a collection and drop of a database.
func RelayProbesForget(dbName, table string) {
	prefix := dbName + "\x00"
	if table != "" {
		prefix += table + "\x00"
	}
	relayProbeTables.Range(func(k, v any) bool {
		if strings.HasPrefix(k.(string), prefix) {
			t := v.(*RelayProbeTable)
			t.mu.Lock()
			t.dropped = true
			t.mu.Unlock()
			relayProbeTables.Delete(k)
		}
		return true
	})
}
