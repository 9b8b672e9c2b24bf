// Relay's patch: relay_probe_cache.go's bookkeeping, including the races a TypeScript test through
// a FerretDB process cannot order. Run in a patched tree:
// `go test -run RelayProbe ./internal/backends/sqlite/metadata/`.

package metadata

import (
	"testing"

	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/must"
)

func relayTestCollection(name string) *Collection {
	return &Collection{Name: name, TableName: name + "_t", Settings: Settings{UUID: name + "-uuid"}}
}

func relayTestDoc(pairs ...any) *types.Document {
	return must.NotFail(types.NewDocument(pairs...))
}

func TestRelayProbeRacingWriteIsNotStored(t *testing.T) {
	c := relayTestCollection("race")
	p := RelayProbesOf("db", c)
	key := RelayProbeKey(RelayProbeArray, nil, nil)

	// The probe looks, finds nothing kept, and asks SQLite; its snapshot predates a write of an
	// array at "a" that starts, commits and ends before the probe stores its "no".
	_, found, stamp := p.Lookup("a", key)
	if found {
		t.Fatal("nothing kept yet")
	}
	RelayProbesWriting("db", c, []*types.Document{relayTestDoc("_id", "x", "a", must.NotFail(types.NewArray(int32(1))))})()
	p.Store("a", key, false, stamp)

	if _, found, _ = p.Lookup("a", key); found {
		t.Fatal("a probe that raced a write of an array kept its stale answer")
	}
}

func TestRelayProbeNoAnswerWhileAWriteRuns(t *testing.T) {
	c := relayTestCollection("inflight")
	p := RelayProbesOf("db", c)
	key := RelayProbeKey(RelayProbeArray, nil, nil)
	_, _, stamp := p.Lookup("a", key)
	p.Store("a", key, false, stamp)

	// Between the write's start and end its commit may be visible to a query's SQL: the kept "no"
	// is not used, and a probe that reads meanwhile (before or after the commit) stores nothing.
	done := RelayProbesWriting("db", c, []*types.Document{relayTestDoc("_id", "x", "a", must.NotFail(types.NewArray(int32(1))))})
	_, found, during := p.Lookup("a", key)
	if found {
		t.Fatal("a kept answer was used while a write of an array at its field ran")
	}
	p.Store("a", key, false, during)
	if _, found, _ = p.Lookup("a", key); found {
		t.Fatal("an answer was stored while a write of an array at its field ran")
	}
	done()
	if _, found, _ = p.Lookup("a", key); found {
		t.Fatal("the answer came back after the write")
	}
}

func TestRelayProbeWritesDropWhatTheyFalsify(t *testing.T) {
	c := relayTestCollection("writes")
	p := RelayProbesOf("db", c)
	arrayKey := RelayProbeKey(RelayProbeArray, []string{"x = ?"}, []any{"t1"})
	sortKey := RelayProbeKey(RelayProbeInexact, []string{"x = ?"}, []any{"t1"})
	keep := func() {
		for _, key := range []string{arrayKey, sortKey} {
			_, _, stamp := p.Lookup("a", key)
			p.Store("a", key, false, stamp)
		}
	}
	kept := func(key string) bool {
		_, found, _ := p.Lookup("a", key)
		return found
	}

	keep()
	RelayProbesWriting("db", c, []*types.Document{relayTestDoc("_id", "x", "a", int32(1), "b", must.NotFail(types.NewArray()))})()
	if !kept(arrayKey) || !kept(sortKey) {
		t.Fatal("a scalar at a, or an array at another field, dropped a's answers")
	}

	RelayProbesWriting("db", c, []*types.Document{relayTestDoc("_id", "x", "a", relayTestDoc("k", int32(1)))})()
	if !kept(arrayKey) || kept(sortKey) {
		t.Fatal("an object at a must drop the sort probe's answer only")
	}

	keep()
	RelayProbesWriting("db", c, []*types.Document{relayTestDoc("_id", "x", "a", must.NotFail(types.NewArray()))})()
	if kept(arrayKey) || kept(sortKey) {
		t.Fatal("an array at a must drop both answers")
	}
}

func TestRelayProbeDeletesDropYesAnswersOnly(t *testing.T) {
	c := relayTestCollection("deletes")
	p := RelayProbesOf("db", c)
	yes, no := RelayProbeKey(RelayProbeArray, nil, nil), RelayProbeKey(RelayProbeArray, []string{"y"}, nil)
	for key, answer := range map[string]bool{yes: true, no: false} {
		_, _, stamp := p.Lookup("a", key)
		p.Store("a", key, answer, stamp)
	}

	_, _, stamp := p.Lookup("a", RelayProbeKey(RelayProbeArray, []string{"z"}, nil))
	RelayProbesDeleted("db", c)
	p.Store("a", RelayProbeKey(RelayProbeArray, []string{"z"}, nil), true, stamp)

	if _, found, _ := p.Lookup("a", yes); found {
		t.Fatal("a delete kept a yes answer")
	}
	if answer, found, _ := p.Lookup("a", no); !found || answer {
		t.Fatal("a delete dropped a no answer")
	}
	if _, found, _ := p.Lookup("a", RelayProbeKey(RelayProbeArray, []string{"z"}, nil)); found {
		t.Fatal("a yes read before a delete was stored after it")
	}
}

func TestRelayProbeForgetDropsTheTable(t *testing.T) {
	c := relayTestCollection("forget")
	p := RelayProbesOf("db2", c)
	key := RelayProbeKey(RelayProbeArray, nil, nil)
	_, _, stamp := p.Lookup("a", key)
	p.Store("a", key, false, stamp)

	_, _, racing := p.Lookup("b", key)
	RelayProbesForget("db2", c.TableName)
	p.Store("b", key, false, racing)
	if _, found, _ := p.Lookup("b", key); found {
		t.Fatal("a probe that raced a drop stored its answer")
	}
	if _, found, _ := RelayProbesOf("db2", c).Lookup("a", key); found {
		t.Fatal("a dropped table's answers are still kept")
	}

	p = RelayProbesOf("db2", c)
	_, _, stamp = p.Lookup("a", key)
	p.Store("a", key, false, stamp)
	RelayProbesForget("db2", "")
	if _, found, _ := RelayProbesOf("db2", c).Lookup("a", key); found {
		t.Fatal("a dropped database's answers are still kept")
	}
}

func TestRelayProbeKeysAreDistinct(t *testing.T) {
	keys := map[string]bool{}
	for _, k := range []string{
		RelayProbeKey(RelayProbeArray, []string{"a", "b"}, nil),
		RelayProbeKey(RelayProbeArray, []string{"ab"}, nil),
		RelayProbeKey(RelayProbeInexact, []string{"a", "b"}, nil),
		RelayProbeKey(RelayProbeArray, []string{"a"}, []any{"1"}),
		RelayProbeKey(RelayProbeArray, []string{"a"}, []any{int64(1)}),
		RelayProbeKey(RelayProbeArray, []string{"a"}, []any{float64(1)}),
		RelayProbeKey(RelayProbeArray, []string{"a"}, []any{nil}),
		RelayProbeKey(RelayProbeArray, []string{"a"}, []any{"x|s1:y"}),
		RelayProbeKey(RelayProbeArray, []string{"a"}, []any{"x", "y"}),
	} {
		if keys[k] {
			t.Fatalf("two probes share the key %q", k)
		}
		keys[k] = true
	}
}
