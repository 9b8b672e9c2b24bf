// Relay's patch to FerretDB v1.24.2 (docs/FERRETDB.md, "Relay's patch"): anchored edits to
// FerretDB's source plus the Go files beside this one, applied to a copy of the module before
// `go build`. An anchor that is not found stops the build, so a changed upstream never builds
// silently unpatched.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** Added files: this folder's Go file -> where it goes in FerretDB's tree. */
const ADDED: Record<string, string> = {
  'relay_pushdown.go': 'internal/backends/sqlite/relay_pushdown.go',
  'relay_index.go': 'internal/backends/sqlite/metadata/relay_index.go',
  'relay_counts.go': 'internal/backends/sqlite/metadata/relay_counts.go',
  'relay_count.go': 'internal/handler/relay_count.go',
  'relay_update_batch.go': 'internal/handler/common/relay_update_batch.go',
  'relay_update.go': 'internal/backends/sqlite/relay_update.go',
  'relay_wal_restart.go': 'internal/backends/sqlite/metadata/pool/relay_wal_restart.go',
  'relay_atomic_update.go': 'internal/handler/relay_atomic_update.go',
  'relay_sjson.go': 'internal/handler/sjson/relay_sjson.go',
  'relay_sjson_test.go': 'internal/handler/sjson/relay_sjson_test.go',
};

interface Edit {
  file: string;
  anchor: string;
  replace: string;
}

const EDITS: Edit[] = [
  // An update command's modified documents are written in batches (relay_update_batch.go wraps
  // FerretDB's own loop, renamed here), each batch in one transaction and one UPDATE (relay_update.go).
  {
    file: 'internal/handler/common/update.go',
    anchor: `func UpdateDocument(ctx context.Context, c backends.Collection, cmd string, iter types.DocumentsIterator, param *Update) (*UpdateResult, error) {`,
    replace: `func relayUpdateDocument(ctx context.Context, c backends.Collection, cmd string, iter types.DocumentsIterator, param *Update) (*UpdateResult, error) {`,
  },
  {
    file: 'internal/backends/sqlite/collection.go',
    anchor: `	err := db.InTransaction(ctx, func(tx *fsql.Tx) error {
		for _, doc := range params.Docs {`,
    replace: `	err := db.InTransaction(ctx, func(tx *fsql.Tx) error {
		if !metadata.RelayOff {
			n, err := relayUpdateAll(ctx, tx, meta.TableName, params.Docs)
			res.Updated += int32(n)

			return err
		}

		for _, doc := range params.Docs {`,
  },
  // FerretDB's _id index is on `->"_id"` but its queries used `->'$._id'`, which SQLite does not
  // match to it: every _id lookup scanned. Same expression as the index now.
  {
    file: 'internal/backends/sqlite/metadata/metadata.go',
    anchor: `IDColumn = DefaultColumn + "->'$._id'"`,
    replace: `IDColumn = DefaultColumn + "->'_id'"`,
  },
  // Secondary indexes in Relay's (rank, value) form.
  {
    file: 'internal/backends/sqlite/metadata/registry.go',
    anchor: `		if _, err := db.ExecContext(ctx, q); err != nil {
			_ = r.indexesDrop(ctx, dbName, collectionName, created)`,
    replace: `		if index.Name != backends.DefaultIndexName && !RelayOff {
			q = relayIndexSQL(c.TableName, index)
		}

		if index.Name == backends.DefaultIndexName && !RelayOff {
			if _, err := db.ExecContext(ctx, relayIDIndexSQL(c.TableName)); err != nil {
				return lazyerrors.Error(err)
			}
		}

		if _, err := db.ExecContext(ctx, q); err != nil {
			_ = r.indexesDrop(ctx, dbName, collectionName, created)`,
  },
  // Counted indexes get their triggers and counts when created, and lose them when dropped (relay_counts.go).
  {
    file: 'internal/backends/sqlite/metadata/registry.go',
    anchor: `		created = append(created, index.Name)
		c.Settings.Indexes = append(c.Settings.Indexes, index)`,
    replace: `		if err := relayEnsureCounts(ctx, db, c.Name, c.TableName, index); err != nil {
			_, _ = db.ExecContext(ctx, fmt.Sprintf("DROP INDEX %q", c.TableName+"_"+index.Name))
			_ = r.indexesDrop(ctx, dbName, collectionName, created)
			return lazyerrors.Error(err)
		}

		created = append(created, index.Name)
		c.Settings.Indexes = append(c.Settings.Indexes, index)`,
  },
  {
    file: 'internal/backends/sqlite/metadata/registry.go',
    anchor: `		q := fmt.Sprintf("DROP INDEX %q", c.TableName+"_"+name)`,
    replace: `		if err := relayDropCounts(ctx, db, c.TableName+"_"+name); err != nil {
			return lazyerrors.Error(err)
		}

		q := fmt.Sprintf("DROP INDEX %q", c.TableName+"_"+name)`,
  },
  // Indexes written by an unpatched FerretDB are rebuilt in that form when a database is opened.
  {
    file: 'internal/backends/sqlite/metadata/registry.go',
    anchor: `	r.colls[dbName] = colls

	return nil
}`,
    replace: `	if err = relayUpgradeIndexes(ctx, db, colls); err != nil {
		return lazyerrors.Error(err)
	}

	r.colls[dbName] = colls

	return nil
}`,
  },
  {
    file: 'internal/backends/collection.go',
    anchor: `	OnlyRecordIDs bool
	Comment       string
}`,
    replace: `	OnlyRecordIDs bool
	Comment       string

	// RelaySort is the find's sort, applied by the backend when it can prove the order exact.
	RelaySort *types.Document
	// RelayCount asks for the number of documents matching Filter, when the backend can count
	// exactly; with Limit, at most Limit of them.
	RelayCount bool
}`,
  },
  {
    file: 'internal/backends/collection.go',
    anchor: `type QueryResult struct {
	Iter types.DocumentsIterator
}`,
    replace: `type QueryResult struct {
	Iter types.DocumentsIterator

	// RelaySorted: Iter is in RelaySort's order.
	RelaySorted bool
	// RelayCounted: RelayN is the count asked by RelayCount (and Iter is empty).
	RelayCounted bool
	RelayN       int64
}`,
  },
  {
    file: 'internal/backends/sqlite/collection.go',
    anchor: `	q := prepareSelectClause(meta.TableName, params.Comment, meta.Capped(), params.OnlyRecordIDs)

	var whereClause string
	var args []any

	// that logic should exist in one place
	// TODO https://github.com/FerretDB/FerretDB/issues/3235
	if params.Filter.Len() == 1 {
		v, _ := params.Filter.Get("_id")
		switch v.(type) {
		case string, types.ObjectID:
			whereClause = fmt.Sprintf(\` WHERE %s = ?\`, metadata.IDColumn)
			args = []any{string(must.NotFail(sjson.MarshalSingleValue(v)))}
		}
	}

	q += whereClause
	q += prepareOrderByClause(params.Sort)
`,
    replace: `	q := prepareSelectClause(meta.TableName, params.Comment, meta.Capped(), params.OnlyRecordIDs)

	plan := relayMakePlan(ctx, db, meta, params.Filter, params.RelaySort)
	args := plan.args

	if params.RelayCount {
		res := &backends.QueryResult{Iter: newQueryIterator(ctx, nil, params.OnlyRecordIDs)}
		if plan.exact && !meta.Capped() {
			if plan.countIdx != "" {
				// kept by triggers (relay_counts.go): one seek, however many documents match
				kq, kargs := plan.countSQL()
				if err := db.QueryRowContext(ctx, kq, kargs...).Scan(&res.RelayN); err != nil {
					return nil, lazyerrors.Error(err)
				}
				if params.Limit > 0 && res.RelayN > params.Limit {
					res.RelayN = params.Limit
				}
				res.RelayCounted = true
				return res, nil
			}
			if params.Limit > 0 {
				// Is there a Limit-th match? Skipped to, it costs the index entries up to it and no
				// more (SQLite steps per entry as for COUNT(*); a COUNT over a LIMIT subquery pays a
				// co-routine per row, twice that). If so the count is Limit, else the COUNT below
				// reads fewer than Limit entries.
				var full int64
				lq := fmt.Sprintf(\`SELECT COUNT(*) FROM (SELECT 1 FROM %q%s LIMIT 1 OFFSET ?)\`, meta.TableName, plan.whereClause())
				if err := db.QueryRowContext(ctx, lq, append(append([]any{}, args...), params.Limit-1)...).Scan(&full); err != nil {
					return nil, lazyerrors.Error(err)
				}
				if full == 1 {
					res.RelayN, res.RelayCounted = params.Limit, true
					return res, nil
				}
			}
			cq := fmt.Sprintf(\`SELECT COUNT(*) FROM %q\`, meta.TableName) + plan.whereClause()
			if err := db.QueryRowContext(ctx, cq, args...).Scan(&res.RelayN); err != nil {
				return nil, lazyerrors.Error(err)
			}
			res.RelayCounted = true
		}
		return res, nil
	}

	q += plan.whereClause()

	sorted := false
	if plan.orderBy != "" && params.Sort.Len() == 0 {
		q += plan.orderBy
		sorted = true
	} else {
		q += prepareOrderByClause(params.Sort)
	}
`,
  },
  {
    file: 'internal/backends/sqlite/collection.go',
    anchor: `	return &backends.QueryResult{
		Iter: newQueryIterator(ctx, rows, params.OnlyRecordIDs),
	}, nil
}

// InsertAll`,
    replace: `	return &backends.QueryResult{
		Iter:        newQueryIterator(ctx, rows, params.OnlyRecordIDs),
		RelaySorted: sorted,
	}, nil
}

// InsertAll`,
  },
  // find: hand the sort to the backend, and skip the Go sort when it was applied.
  {
    file: 'internal/handler/msg_find.go',
    anchor: `	// Limit pushdown is not applied if:`,
    replace: `	if !h.DisablePushdown && params.Sort.Len() > 0 && qp.Sort.Len() == 0 && !params.Sort.Has("$natural") {
		qp.RelaySort = params.Sort
	}

	// Limit pushdown is not applied if:`,
  },
  {
    file: 'internal/handler/msg_find.go',
    anchor: `	iter, err := h.makeFindIter(queryRes.Iter, closer, params)`,
    replace: `	iterParams := params
	if queryRes.RelaySorted {
		unsorted := *params
		unsorted.Sort = nil
		iterParams = &unsorted
	}

	iter, err := h.makeFindIter(queryRes.Iter, closer, iterParams)`,
  },
  // count command: counted in SQL when the filter translates exactly.
  {
    file: 'internal/handler/msg_count.go',
    anchor: `	queryRes, err := c.Query(connCtx, &qp)
	if err != nil {
		return nil, lazyerrors.Error(err)
	}
`,
    replace: `	if !h.DisablePushdown && params.Skip == 0 && params.Limit >= 0 {
		qp.RelayCount, qp.Limit = true, params.Limit
		counted, err := c.Query(connCtx, &qp)
		if err != nil {
			return nil, lazyerrors.Error(err)
		}
		qp.RelayCount, qp.Limit = false, 0
		counted.Iter.Close()
		if counted.RelayCounted && counted.RelayN <= math.MaxInt32 {
			return documentOpMsg(must.NotFail(types.NewDocument("n", int32(counted.RelayN), "ok", float64(1))))
		}
	}

	queryRes, err := c.Query(connCtx, &qp)
	if err != nil {
		return nil, lazyerrors.Error(err)
	}
`,
  },
  {
    file: 'internal/handler/msg_count.go',
    anchor: `import (
`,
    replace: `import (
	"math"
`,
  },
  // aggregate: the countDocuments pipeline is counted in SQL when the filter translates exactly.
  {
    file: 'internal/handler/msg_aggregate.go',
    anchor: `		iter, err = processStagesDocuments(ctx, closer, &stagesDocumentsParams{c, qp, stagesDocuments})
	} else {`,
    replace: `		counted := false
		if id, name, limit, ok := relayCountStages(aggregationStages, filter); ok && !h.DisablePushdown {
			qp.RelayCount, qp.Limit = true, limit
			var res *backends.QueryResult
			if res, err = c.Query(ctx, qp); err == nil {
				res.Iter.Close()
				if res.RelayCounted {
					iter, counted = relayCountIter(id, name, res.RelayN), true
				}
			}
			qp.RelayCount, qp.Limit = false, 0
		}

		if !counted && err == nil {
			iter, err = processStagesDocuments(ctx, closer, &stagesDocumentsParams{c, qp, stagesDocuments})
		}
	} else {`,
  },
  // explain shows the SQL plan Relay's pushdown gives (tests read it).
  {
    file: 'internal/backends/collection.go',
    anchor: `type ExplainParams struct {
	Filter *types.Document
	Sort   *types.Document
	Limit  int64
}`,
    replace: `type ExplainParams struct {
	Filter *types.Document
	Sort   *types.Document
	Limit  int64

	RelaySort *types.Document
}`,
  },
  {
    file: 'internal/handler/msg_explain.go',
    anchor: `	if !h.DisablePushdown && params.Filter.Len() == 0 && params.Sort.Len() == 0 && params.Skip == 0 {
		qp.Limit = params.Limit
	}`,
    replace: `	if !h.DisablePushdown && params.Filter.Len() == 0 && params.Sort.Len() == 0 && params.Skip == 0 {
		qp.Limit = params.Limit
	}

	if !h.DisablePushdown && params.Sort.Len() > 0 && qp.Sort.Len() == 0 && !params.Sort.Has("$natural") {
		qp.RelaySort = params.Sort
	}`,
  },
  {
    file: 'internal/backends/sqlite/collection.go',
    anchor: `	var filterPushdown bool
	var whereClause string
	var args []any

	// that logic should exist in one place
	// TODO https://github.com/FerretDB/FerretDB/issues/3235
	if params.Filter.Len() == 1 {
		v, _ := params.Filter.Get("_id")
		switch v.(type) {
		case string, types.ObjectID:
			filterPushdown = true
			whereClause = fmt.Sprintf(\` WHERE %s = ?\`, metadata.IDColumn)
			args = []any{string(must.NotFail(sjson.MarshalSingleValue(v)))}
		}
	}

	orderByClause := prepareOrderByClause(params.Sort)
	sortPushdown := orderByClause != ""
`,
    replace: `	plan := relayMakePlan(ctx, db, meta, params.Filter, params.RelaySort)
	filterPushdown := len(plan.where) > 0
	whereClause := plan.whereClause()
	args := plan.args

	orderByClause := prepareOrderByClause(params.Sort)
	if orderByClause == "" {
		orderByClause = plan.orderBy
	}
	sortPushdown := orderByClause != ""
`,
  },
  // findAndModify (Agenda locks its next job with one, sorted by nextRunAt): the same sort pushdown
  // as find, so it reads in index order and stops at the first match instead of reading and
  // sorting every job of the name.
  {
    file: 'internal/handler/msg_findandmodify.go',
    anchor: `	var qp backends.QueryParams
	if !h.DisablePushdown {
		qp.Filter = params.Query
	}

	queryRes, err := c.Query(ctx, &qp)`,
    replace: `	var qp backends.QueryParams
	if !h.DisablePushdown {
		qp.Filter = params.Query
	}

	// read, change and write back without another command's write in between (relay_atomic_update.go)
	defer relayLockCollection(params.DB, params.Collection)()

	// validated as find does (it also makes each direction an int64); a bad sort still fails below
	if !h.DisablePushdown && params.Sort.Len() > 0 {
		if sort, sortErr := common.ValidateSortDocument(params.Sort); sortErr == nil && !sort.Has("$natural") {
			qp.RelaySort = sort
		}
	}

	queryRes, err := c.Query(ctx, &qp)`,
  },
  // An update command reads, changes and writes back its documents without another command's
  // write to the collection in between (relay_atomic_update.go).
  {
    file: 'internal/handler/msg_update.go',
    anchor: `func (h *Handler) updateDocument(ctx context.Context, params *common.UpdateParams) (int32, int32, *types.Array, error) {
	var matched, modified int32`,
    replace: `func (h *Handler) updateDocument(ctx context.Context, params *common.UpdateParams) (int32, int32, *types.Array, error) {
	defer relayLockCollection(params.DB, params.Collection)()

	var matched, modified int32`,
  },
  {
    file: 'internal/handler/msg_findandmodify.go',
    anchor: `	iter, err = common.SortIterator(iter, closer, params.Sort)`,
    replace: `	relaySort := params.Sort
	if queryRes.RelaySorted {
		relaySort = nil
	}

	iter, err = common.SortIterator(iter, closer, relaySort)`,
  },
  // Each database on disk joins the loop that restarts a WAL steady readers keep from restarting
  // (relay_wal_restart.go).
  {
    file: 'internal/backends/sqlite/metadata/pool/opendb.go',
    anchor: `	return fsql.WrapDB(db, name, l), nil
}`,
    replace: `	if !memory {
		relayRestartWAL(db, name, uri, l)
	}

	return fsql.WrapDB(db, name, l), nil
}`,
  },
  // Resource tracking records a stack trace (runtime.Callers) and a finalizer for every document
  // iterator: 10 % of FerretDB's CPU on a page of 100 webhook deliveries (docs/FERRETDB.md). It
  // only finds FerretDB's own leaks, and a leak it finds panics the server.
  {
    file: 'internal/util/resource/resource.go',
    anchor: `func Track(obj any, token *Token) {
	checkArgs(obj, token)
`,
    replace: `func Track(obj any, token *Token) {
	if relayUntracked {
		return
	}

	checkArgs(obj, token)
`,
  },
  {
    file: 'internal/util/resource/resource.go',
    anchor: `func Untrack(obj any, token *Token) {
	checkArgs(obj, token)
`,
    replace: `func Untrack(obj any, token *Token) {
	if relayUntracked {
		return
	}

	checkArgs(obj, token)
`,
  },
  {
    file: 'internal/util/resource/resource.go',
    anchor: `// profilesM protects access to profiles.`,
    replace: `// relayUntracked turns tracking off (Relay's patch).
const relayUntracked = true

// profilesM protects access to profiles.`,
  },
  // Stored documents are decoded with their schema cached and their plain scalars read directly
  // (relay_sjson.go): a page of 100 webhook deliveries 13.8 -> 5.3 ms of FerretDB CPU (docs/FERRETDB.md).
  {
    file: 'internal/handler/sjson/sjson.go',
    anchor: `	var v map[string]json.RawMessage
	r := bytes.NewReader(data)
	dec := json.NewDecoder(r)

	err := dec.Decode(&v)
	if err != nil {
		return nil, lazyerrors.Error(err)
	}

	if err = checkConsumed(dec, r); err != nil {
		return nil, lazyerrors.Error(err)
	}
`,
    replace: `	v, err := relayObject(data)
	if err != nil {
		return nil, lazyerrors.Error(err)
	}
`,
  },
  {
    file: 'internal/handler/sjson/document.go',
    anchor: `	r := bytes.NewReader(data)
	dec := json.NewDecoder(r)

	var rawMessages map[string]json.RawMessage
	if err := dec.Decode(&rawMessages); err != nil {
		return lazyerrors.Error(err)
	}

	if err := checkConsumed(dec, r); err != nil {
		return lazyerrors.Error(err)
	}
`,
    replace: `	rawMessages, err := relayObject(data)
	if err != nil {
		return lazyerrors.Error(err)
	}
`,
  },
  {
    file: 'internal/handler/sjson/array.go',
    anchor: `	r := bytes.NewReader(data)
	dec := json.NewDecoder(r)

	var rawMessages []json.RawMessage
	if err := dec.Decode(&rawMessages); err != nil {
		return lazyerrors.Error(err)
	}

	if err := checkConsumed(dec, r); err != nil {
		return lazyerrors.Error(err)
	}
`,
    replace: `	rawMessages, err := relayArray(data)
	if err != nil {
		return lazyerrors.Error(err)
	}
`,
  },
  {
    file: 'internal/handler/sjson/array.go',
    anchor: `	"encoding/json"
`,
    replace: ``,
  },
  {
    file: 'internal/handler/sjson/sjson.go',
    anchor: `	var sch schema
	r = bytes.NewReader(jsch)
	dec = json.NewDecoder(r)
	dec.DisallowUnknownFields()

	if err := dec.Decode(&sch); err != nil {
		return nil, lazyerrors.Error(err)
	}

	if err := checkConsumed(dec, r); err != nil {
		return nil, lazyerrors.Error(err)
	}
`,
    replace: `	sch, err := relaySchemaOf(jsch)
	if err != nil {
		return nil, lazyerrors.Error(err)
	}
`,
  },
  {
    file: 'internal/handler/sjson/sjson.go',
    anchor: `	var res sjsontype
	var err error

	switch sch.Type {`,
    replace: `	if v, ok := relayScalar(data, sch.Type); ok {
		return v, nil
	}

	var res sjsontype
	var err error

	switch sch.Type {`,
  },
];

/** The patch's identity: the binary's name carries it, so a changed patch is always rebuilt. */
export function patchHash(): string {
  const hash = crypto.createHash('sha256');
  hash.update(JSON.stringify(EDITS));
  for (const name of Object.keys(ADDED).sort()) hash.update(name).update(fs.readFileSync(path.join(HERE, name)));
  return hash.digest('hex').slice(0, 12);
}

/** Applies the edits and copies the added files into a writable copy of FerretDB's source. */
export function applyPatch(work: string): void {
  for (const edit of EDITS) {
    const file = path.join(work, edit.file);
    const text = fs.readFileSync(file, 'utf8');
    const at = text.indexOf(edit.anchor);
    if (at < 0 || text.indexOf(edit.anchor, at + 1) >= 0) {
      throw new Error(`FerretDB patch: anchor ${at < 0 ? 'not found' : 'found twice'} in ${edit.file}:\n${edit.anchor}`);
    }
    fs.writeFileSync(file, text.slice(0, at) + edit.replace + text.slice(at + edit.anchor.length));
  }
  for (const [name, target] of Object.entries(ADDED)) fs.copyFileSync(path.join(HERE, name), path.join(work, target));
}
