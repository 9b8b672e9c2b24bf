// Relay's pushdown for FerretDB v1.24.2's SQLite backend (added at build time by Relay's installer,
// ferretdb-patch/ in the Relay repository; not part of FerretDB).
//
// FerretDB filters, sorts and counts every query in Go, so each query reads the whole collection.
// This file turns the part of a filter it can translate into SQL that SQLite answers from Relay's
// indexes, and, when it can prove the order exact, a sort and a count too:
//
//   - every index key on a plain top-level field is stored as two columns, a type rank in MongoDB's
//     cross-type sort order (from the document's sjson schema) and the value (`->>`), so SQLite's
//     order of (rank, value) is MongoDB's order for null/missing, numbers (int, long and double
//     compare by value), strings (byte order), ObjectIds, booleans and dates;
//   - equality, $in and ranges on such fields become conditions on (rank, value). MongoDB also
//     matches an array by its elements, so a field's condition is used only after an index probe
//     (O(log n)) shows that no document in the already-narrowed set holds an array there (its
//     answer is kept until a write could change it: relay_probe_cache.go);
//   - the handler still applies the whole filter in Go, so the SQL only has to be a superset.
//     A sort is pushed only when an index serves it and a probe shows no document of the set holds
//     a value whose order SQLite would not reproduce (object, array, binData, timestamp, regex);
//     a count only when every key of the filter was translated exactly.
//
// RELAY_FERRETDB_PUSHDOWN=off turns all of it off (metadata.RelayOff).

package sqlite

import (
	"context"
	"encoding/hex"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/FerretDB/FerretDB/internal/backends"
	"github.com/FerretDB/FerretDB/internal/backends/sqlite/metadata"
	"github.com/FerretDB/FerretDB/internal/handler/sjson"
	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/fsql"
	"github.com/FerretDB/FerretDB/internal/util/must"
)

// relayInexactRanks are the type ranks whose SQLite order is not MongoDB's: object, array,
// binData, timestamp, regex.
const relayInexactRanks = "4, 5, 6, 10, 11"

// relayCond is one field's translated condition.
type relayCond struct {
	sql   string
	args  []any
	exact bool // the condition matches exactly what MongoDB matches (arrays aside)
	eq    bool // a single equality: later index keys can still narrow
	// pinned: every matching row has one type rank, so an ORDER BY needs the value only (SQLite
	// does not see that a rank fixed by the WHERE leaves the index order intact)
	pinned bool
	// rank and val of a plain equality (`field: value`), else rank 0: what a maintained count is keyed by
	rank int
	val  any
}

// relayPlan is what the backend sends to SQLite for one query.
type relayPlan struct {
	where   []string
	args    []any
	orderBy string
	exact   bool // where matches exactly the filter's documents
	// countIdx and countArgs: the filter's count is kept in RelayCountTable (relay_counts.go)
	countIdx  string
	countArgs []any
}

func relayUsableField(f string) bool { return metadata.RelayUsableField(f) }

// relayScalar encodes a filter value as (rank, SQL value); ok is false for values not translated.
func relayScalar(v any) (rank int, val any, ok bool) {
	switch v := v.(type) {
	case types.NullType:
		return 1, nil, true
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, nil, false
		}
		return 2, v, true
	case int32:
		return 2, int64(v), true
	case int64:
		return 2, v, true
	case string:
		return 3, v, true
	case types.ObjectID:
		return 7, hex.EncodeToString(v[:]), true
	case bool:
		if v {
			return 8, int64(1), true
		}
		return 8, int64(0), true
	case time.Time:
		return 9, v.UnixMilli(), true
	default:
		return 0, nil, false
	}
}

// relayEq is the condition for `field == v` on a scalar.
func relayEq(f string, rank int, val any) relayCond {
	r, x := metadata.RelayRankExpr(f), metadata.RelayValueExpr(f)
	if rank == 1 {
		// Null and missing have no value (`->>` is NULL): pinning it too makes the condition an
		// equality on both columns, so SQLite can range over the index's next key.
		return relayCond{sql: fmt.Sprintf("%s = 1 AND %s IS NULL", r, x), exact: true, eq: true, pinned: true, rank: 1}
	}
	return relayCond{sql: fmt.Sprintf("%s = %d AND %s = ?", r, rank, x), args: []any{val}, exact: true, eq: true, pinned: true, rank: rank, val: val}
}

// relayFieldCond translates one top-level filter entry; ok is false when nothing was translated.
func relayFieldCond(f string, v any) (relayCond, bool) {
	ops, isDoc := v.(*types.Document)
	if !isDoc {
		rank, val, ok := relayScalar(v)
		if !ok {
			return relayCond{}, false
		}
		return relayEq(f, rank, val), true
	}

	keys := ops.Keys()
	if len(keys) == 0 || !strings.HasPrefix(keys[0], "$") {
		return relayCond{}, false // equality with an embedded document
	}

	r, x := metadata.RelayRankExpr(f), metadata.RelayValueExpr(f)
	var parts []string
	var args []any
	exact := true
	eq := false
	pinned := false

	for i, op := range keys {
		arg := ops.Values()[i]
		switch op {
		case "$eq":
			rank, val, ok := relayScalar(arg)
			if !ok {
				exact = false
				continue
			}
			c := relayEq(f, rank, val)
			parts = append(parts, c.sql)
			args = append(args, c.args...)
			eq = len(keys) == 1
			pinned = true
		case "$in":
			arr, ok := arg.(*types.Array)
			if !ok || arr.Len() == 0 {
				exact = false
				continue
			}
			byRank := map[int][]any{}
			var ranks []int
			good := true
			for j := 0; j < arr.Len(); j++ {
				rank, val, ok := relayScalar(must.NotFail(arr.Get(j)))
				if !ok {
					good = false
					break
				}
				if _, seen := byRank[rank]; !seen {
					ranks = append(ranks, rank)
				}
				byRank[rank] = append(byRank[rank], val)
			}
			if !good {
				exact = false
				continue
			}
			var alts []string
			for _, rank := range ranks {
				if rank == 1 {
					alts = append(alts, fmt.Sprintf("(%s = 1 AND %s IS NULL)", r, x))
					continue
				}
				vals := byRank[rank]
				alts = append(alts, fmt.Sprintf("(%s = %d AND %s IN (?%s))", r, rank, x, strings.Repeat(", ?", len(vals)-1)))
				args = append(args, vals...)
			}
			parts = append(parts, "("+strings.Join(alts, " OR ")+")")
			pinned = pinned || len(ranks) == 1
		case "$gt", "$gte", "$lt", "$lte":
			rank, val, ok := relayScalar(arg)
			if !ok || rank == 1 {
				exact = false
				continue
			}
			sqlOp := map[string]string{"$gt": ">", "$gte": ">=", "$lt": "<", "$lte": "<="}[op]
			parts = append(parts, fmt.Sprintf("%s = %d AND %s %s ?", r, rank, x, sqlOp))
			args = append(args, val)
			pinned = true
		default:
			exact = false // $ne, $nin, $exists, $regex, ...: left to Go (a superset stays a superset)
		}
	}

	if len(parts) == 0 {
		return relayCond{}, false
	}
	return relayCond{sql: strings.Join(parts, " AND "), args: args, exact: exact, eq: eq, pinned: pinned}, true
}

// relayExists runs `SELECT EXISTS(...)`; an error counts as "exists" (the safe answer).
func relayExists(ctx context.Context, db *fsql.DB, table string, where []string, args []any) bool {
	q := fmt.Sprintf(`SELECT EXISTS(SELECT 1 FROM %q WHERE %s)`, table, strings.Join(where, " AND "))
	var found bool
	if err := db.QueryRowContext(ctx, q, args...).Scan(&found); err != nil {
		return true
	}
	return found
}

// relayProber answers the plan's probes: does a row of the set `where` hold, at field f, an array
// (kind RelayProbeArray) or a value SQLite orders unlike MongoDB (RelayProbeInexact)? Kept answers
// come from the collection's cache (relay_probe_cache.go); an answer SQLite gave after an error
// ("exists") is kept too, as it only disables the pushdown.
type relayProber struct {
	ctx    context.Context
	db     *fsql.DB
	table  string
	probes *metadata.RelayProbeTable // nil: ask SQLite every time
}

func (p *relayProber) exists(where []string, args []any, f string, kind metadata.RelayProbeKind) bool {
	cond := fmt.Sprintf("%s = 5", metadata.RelayRankExpr(f))
	if kind == metadata.RelayProbeInexact {
		cond = fmt.Sprintf("%s IN (%s)", metadata.RelayRankExpr(f), relayInexactRanks)
	}
	probe := append(append(make([]string, 0, len(where)+1), where...), cond)
	if p.probes == nil {
		return relayExists(p.ctx, p.db, p.table, probe, args)
	}
	key := metadata.RelayProbeKey(kind, where, args)
	answer, found, stamp := p.probes.Lookup(f, key)
	if found {
		return answer
	}
	answer = relayExists(p.ctx, p.db, p.table, probe, args)
	p.probes.Store(f, key, answer, stamp)
	return answer
}

// relayMakePlan translates what it can of filter and sort for the collection's table.
func relayMakePlan(ctx context.Context, db *fsql.DB, dbName string, meta *metadata.Collection, filter, sort *types.Document) *relayPlan {
	plan := &relayPlan{exact: true}
	if metadata.RelayOff {
		plan.exact = false
		return plan
	}
	probes := &relayProber{ctx: ctx, db: db, table: meta.TableName, probes: metadata.RelayProbesOf(dbName, meta)}

	conds := map[string]relayCond{}
	for i, k := range filter.Keys() {
		v := filter.Values()[i]
		if !relayUsableField(k) {
			plan.exact = false
			continue
		}
		c, ok := relayFieldCond(k, v)
		if !ok {
			plan.exact = false
			continue
		}
		conds[k] = c
	}

	// _id is never an array, so its condition needs no probe; its equality uses FerretDB's _id index.
	used := map[string]bool{}
	pinned := map[string]bool{}
	if c, ok := conds["_id"]; ok {
		pinned["_id"] = c.pinned
		plan.where = append(plan.where, c.sql)
		plan.args = append(plan.args, c.args...)
		used["_id"] = true
		if v, err := filter.Get("_id"); err == nil {
			switch v.(type) {
			case string, types.ObjectID:
				plan.where = append(plan.where, fmt.Sprintf(`%s = ?`, metadata.IDColumn))
				plan.args = append(plan.args, string(must.NotFail(sjson.MarshalSingleValue(v))))
			}
		}
	}

	// Walk each Relay-form index: its leading keys with conditions, each probed for arrays.
	type walk struct {
		where  []string
		args   []any
		fields []string
		next   int // index of the first key not narrowed by an equality
		index  metadata.IndexInfo
	}
	var best *walk
	indexes := append([]metadata.IndexInfo{{Name: metadata.RelayIDIndex, Key: []metadata.IndexKeyPair{{Field: "_id"}}}}, meta.Settings.Indexes...)
	for _, index := range indexes {
		if index.Name == backends.DefaultIndexName {
			continue // FerretDB's own _id index (JSON text), used by the IDColumn equality above
		}
		w := &walk{index: index}
		for i, key := range index.Key {
			w.next = i
			c, ok := conds[key.Field]
			if !ok || used[key.Field] {
				break
			}
			if key.Field != "_id" && probes.exists(w.where, w.args, key.Field, metadata.RelayProbeArray) {
				break
			}
			w.where = append(w.where, c.sql)
			w.args = append(w.args, c.args...)
			w.fields = append(w.fields, key.Field)
			w.next = i + 1
			if !c.eq {
				break
			}
		}
		if best == nil || len(w.fields) > len(best.fields) || (len(w.fields) == len(best.fields) && relaySortFits(w.index, w.next, sort, w.fields)) {
			best = w
		}
	}

	if best != nil {
		for _, f := range best.fields {
			used[f] = true
			pinned[f] = conds[f].pinned
		}
		plan.where = append(plan.where, best.where...)
		plan.args = append(plan.args, best.args...)
	}

	for k, c := range conds {
		if !used[k] || !c.exact {
			plan.exact = false
		}
	}

	if or, err := filter.Get("$or"); err == nil {
		var prefix []string
		var prefixArgs []any
		var next string
		if best != nil {
			prefix, prefixArgs = best.where, best.args
			if best.next < len(best.index.Key) && len(best.fields) == best.next {
				next = best.index.Key[best.next].Field
			}
		}
		if sql, args, ok := relayOr(probes, meta, or, prefix, prefixArgs, next); ok {
			plan.where = append(plan.where, sql)
			plan.args = append(plan.args, args...)
		}
	}

	if plan.exact {
		plan.countIdx, plan.countArgs = relayCountLookup(meta, conds)
	}

	// A sort over an index that narrows nothing could walk the whole index to find a few matches.
	narrowed := plan.exact || len(plan.where) > 0

	// Sort: only when the chosen index yields it (keys right after the equality prefix, in order,
	// one direction) and no document of the set holds a value SQLite would order differently.
	if sort.Len() > 0 && narrowed && best != nil && relaySortFits(best.index, best.next, sort, best.fields) {
		ok := true
		for _, f := range sort.Keys() {
			if pinned[f] {
				continue // its condition holds one type rank, and every rank a condition takes is exact
			}
			if probes.exists(plan.where, plan.args, f, metadata.RelayProbeInexact) {
				ok = false
				break
			}
		}
		if ok {
			var cols []string
			for i, f := range sort.Keys() {
				dir := ""
				if sort.Values()[i].(int64) < 0 {
					dir = " DESC"
				}
				if !pinned[f] {
					cols = append(cols, metadata.RelayRankExpr(f)+dir)
				}
				cols = append(cols, metadata.RelayValueExpr(f)+dir)
			}
			plan.orderBy = " ORDER BY " + strings.Join(cols, ", ")
		}
	}

	return plan
}

// relayOr translates a top-level $or into the OR of its branches' conditions, each branch the AND
// of the fields it can translate, so the OR is a superset of what the $or matches. A field is used
// only when its array probe is a seek: an index leads with it, or it is the chosen index's key
// right after the equality prefix (probed within that prefix, which the rest of the WHERE holds).
// A branch with no field left would match everything, and then the $or is not used at all.
func relayOr(probes *relayProber, meta *metadata.Collection, v any, prefix []string, prefixArgs []any, next string) (string, []any, bool) {
	branches, ok := v.(*types.Array)
	if !ok || branches.Len() == 0 {
		return "", nil, false
	}
	leading := map[string]bool{"_id": true}
	for _, index := range meta.Settings.Indexes {
		if index.Name != backends.DefaultIndexName && len(index.Key) > 0 {
			leading[index.Key[0].Field] = true
		}
	}
	arrays := map[string]bool{}
	probe := func(k string) bool {
		if leading[k] {
			return probes.exists(nil, nil, k, metadata.RelayProbeArray)
		}
		return probes.exists(prefix, prefixArgs, k, metadata.RelayProbeArray)
	}
	var alts []string
	var args []any
	for i := 0; i < branches.Len(); i++ {
		branch, ok := must.NotFail(branches.Get(i)).(*types.Document)
		if !ok {
			return "", nil, false
		}
		var parts []string
		for j, k := range branch.Keys() {
			if !relayUsableField(k) || (!leading[k] && k != next) {
				continue
			}
			c, ok := relayFieldCond(k, branch.Values()[j])
			if !ok {
				continue
			}
			if k != "_id" {
				has, probed := arrays[k]
				if !probed {
					has = probe(k)
					arrays[k] = has
				}
				if has {
					continue
				}
			}
			parts = append(parts, c.sql)
			args = append(args, c.args...)
		}
		if len(parts) == 0 {
			return "", nil, false
		}
		alts = append(alts, "("+strings.Join(parts, " AND ")+")")
	}
	return "(" + strings.Join(alts, " OR ") + ")", args, true
}

// relaySortFits reports whether index keys from position next on (after an equality prefix, or
// the last walked key when it was a range on the first sort key) are the sort's keys in order with
// directions all equal to or all opposite of the index's.
func relaySortFits(index metadata.IndexInfo, next int, sort *types.Document, walked []string) bool {
	if sort.Len() == 0 {
		return false
	}
	start := next
	// a range on the first sort key ended the walk on that key: the sort starts there
	if len(walked) > 0 && walked[len(walked)-1] == sort.Keys()[0] {
		start = len(walked) - 1
	}
	keys := sort.Keys()
	if start+len(keys) > len(index.Key) {
		return false
	}
	var flip *bool
	for i, f := range keys {
		if !relayUsableField(f) {
			return false
		}
		key := index.Key[start+i]
		if key.Field != f {
			return false
		}
		dirVal, ok := sort.Values()[i].(int64)
		if !ok {
			return false
		}
		opposite := (dirVal < 0) != key.Descending
		if flip == nil {
			flip = &opposite
		} else if *flip != opposite {
			return false
		}
	}
	return true
}

// relayCountLookup finds a counted index whose keys are exactly the filter's fields, each a plain
// equality on null, a string, an ObjectId or a boolean (values whose JSON form is one: an int and
// a double equal to it are one value to MongoDB but two keys). The caller has checked that the
// filter is exact, so its arrays probes found none: the kept count is COUNT(*) of the same rows.
func relayCountLookup(meta *metadata.Collection, conds map[string]relayCond) (string, []any) {
	for _, index := range meta.Settings.Indexes {
		keys := metadata.RelayCountedKeys(meta.Name, index)
		if len(keys) == 0 || len(keys) != len(conds) {
			continue
		}
		args := make([]any, 0, len(keys)*2)
		for _, k := range keys {
			c, ok := conds[k]
			if !ok || (c.rank != 1 && c.rank != 3 && c.rank != 7 && c.rank != 8) {
				args = nil
				break
			}
			args = append(args, int64(c.rank), c.val)
		}
		if args != nil {
			return meta.TableName + "_" + index.Name, args
		}
	}
	return "", nil
}

// countSQL reads a kept count (no row: none of the documents has the key).
func (p *relayPlan) countSQL() (string, []any) {
	q := fmt.Sprintf(`SELECT COALESCE((SELECT n FROM %q WHERE idx = ? AND key = json_array(?%s)), 0)`,
		metadata.RelayCountTable, strings.Repeat(", ?", len(p.countArgs)-1))
	return q, append([]any{p.countIdx}, p.countArgs...)
}

// relayWhereClause joins a plan's conditions.
func (p *relayPlan) whereClause() string {
	if len(p.where) == 0 {
		return ""
	}
	return " WHERE " + strings.Join(p.where, " AND ")
}
