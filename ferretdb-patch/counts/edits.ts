// Relay's patch, counts: the count command and countDocuments' pipeline counted in SQL, and the
// counts kept per key for counted indexes (relay_counts.go, relay_count.go).
import type { Edit, PatchTopic } from '../topic.ts';

const EDITS: Edit[] = [
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
];

export const counts: PatchTopic = {
  added: {
    'relay_counts.go': 'internal/backends/sqlite/metadata/relay_counts.go',
    'relay_count.go': 'internal/handler/relay_count.go',
  },
  edits: EDITS,
};
