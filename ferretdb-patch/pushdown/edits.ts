// Relay's patch, pushdown: the SQLite backend answers filters, sorts and counts from its indexes
// when it can prove the answer exact (relay_pushdown.go), for find, findAndModify and explain.
import type { Edit, PatchTopic } from '../topic.ts';

const EDITS: Edit[] = [
  // The query API between handler and backend carries the sort and count Relay pushes down.
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

	plan := relayMakePlan(ctx, db, c.dbName, meta, params.Filter, params.RelaySort)
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
    replace: `	plan := relayMakePlan(ctx, db, c.dbName, meta, params.Filter, params.RelaySort)
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
    anchor: `	queryRes, err := c.Query(ctx, &qp)`,
    replace: `	// validated as find does (it also makes each direction an int64); a bad sort still fails below
	if !h.DisablePushdown && params.Sort.Len() > 0 {
		if sort, sortErr := common.ValidateSortDocument(params.Sort); sortErr == nil && !sort.Has("$natural") {
			qp.RelaySort = sort
		}
	}

	queryRes, err := c.Query(ctx, &qp)`,
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
];

export const pushdown: PatchTopic = {
  added: {
    'relay_pushdown.go': 'internal/backends/sqlite/relay_pushdown.go',
  },
  edits: EDITS,
};
