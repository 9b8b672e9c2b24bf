// Relay's count pushdown for FerretDB v1.24.2's handler (added at build time by Relay's installer;
// see relay_pushdown.go in the sqlite backend).

package handler

import (
	"math"
	"strings"

	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/iterator"
	"github.com/FerretDB/FerretDB/internal/util/must"
)

// relayCountStages recognizes the pipeline drivers send for countDocuments,
// [{$match: filter}, {$limit: n}?, {$group: {_id: <constant>, <name>: {$sum: 1}}}], and returns
// the group's _id and output name, and n (0: no limit). A count with a limit stops at n in SQL
// (sqlite's collection.go), so a capped count costs at most n index entries however long the list is.
func relayCountStages(stages []any, filter *types.Document) (id any, name string, limit int64, ok bool) {
	if len(stages) == 3 {
		if limit, ok = relayLimitStage(stages[1]); !ok {
			return nil, "", 0, false
		}
		stages = []any{stages[0], stages[2]}
	}
	if len(stages) != 2 {
		return nil, "", 0, false
	}
	match, ok1 := stages[0].(*types.Document)
	group, ok2 := stages[1].(*types.Document)
	if !ok1 || !ok2 || match.Len() != 1 || group.Len() != 1 {
		return nil, "", 0, false
	}
	if m, _ := match.Get("$match"); m != filter || filter == nil {
		return nil, "", 0, false
	}
	for _, k := range filter.Keys() {
		if strings.ContainsRune(k, '.') {
			return nil, "", 0, false
		}
	}
	g, _ := group.Get("$group")
	spec, isDoc := g.(*types.Document)
	if !isDoc || spec.Len() != 2 || spec.Keys()[0] != "_id" {
		return nil, "", 0, false
	}
	id = must.NotFail(spec.Get("_id"))
	switch id.(type) {
	case *types.Document, *types.Array, string:
		return nil, "", 0, false // an expression or a field path: not a constant
	}
	name = spec.Keys()[1]
	acc, isDoc := must.NotFail(spec.Get(name)).(*types.Document)
	if !isDoc || acc.Len() != 1 || strings.HasPrefix(name, "$") {
		return nil, "", 0, false
	}
	switch one := must.NotFail(acc.Get("$sum")); one {
	case int32(1), int64(1), float64(1):
	default:
		_ = one
		return nil, "", 0, false
	}
	return id, name, limit, true
}

// relayLimitStage reads {$limit: n} with a positive whole n (anything else is left to FerretDB).
func relayLimitStage(stage any) (int64, bool) {
	doc, isDoc := stage.(*types.Document)
	if !isDoc || doc.Len() != 1 {
		return 0, false
	}
	v, _ := doc.Get("$limit")
	var n int64
	switch v := v.(type) {
	case int32:
		n = int64(v)
	case int64:
		n = v
	case float64:
		if v != math.Trunc(v) || v > math.MaxInt32 {
			return 0, false
		}
		n = int64(v)
	default:
		return 0, false
	}
	return n, n > 0
}

// relayCountIter is the group's output for n documents: none for n = 0, as $group gives.
func relayCountIter(id any, name string, n int64) types.DocumentsIterator {
	var docs []*types.Document
	if n > 0 {
		var v any = n
		if n <= math.MaxInt32 {
			v = int32(n)
		}
		docs = append(docs, must.NotFail(types.NewDocument("_id", id, name, v)))
	}
	return iterator.Values(iterator.ForSlice(docs))
}
