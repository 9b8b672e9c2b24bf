// Relay's patch, indexes: _id lookups that use the _id index, and secondary indexes in Relay's
// (rank, value) form, upgraded from an unpatched FerretDB's on open (relay_index.go).
import type { Edit, PatchTopic } from '../topic.ts';

const EDITS: Edit[] = [
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
];

export const indexes: PatchTopic = {
  added: {
    'relay_index.go': 'internal/backends/sqlite/metadata/relay_index.go',
  },
  edits: EDITS,
};
