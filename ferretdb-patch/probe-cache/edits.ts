// Relay's patch, probe cache: the pushdown's probe answers are kept in the process and dropped by
// every write that could change them (relay_probe_cache.go). Every document write of the SQLite
// backend goes through InsertAll (inserts, upserts), UpdateAll (update batches, findAndModify) or
// DeleteAll; tables are created, dropped and renamed by the metadata registry.
import type { Edit, PatchTopic } from '../topic.ts';

const EDITS: Edit[] = [
  // An insert's and an update's documents keep the answers they may falsify from use while they
  // are written, and drop them once the transaction has ended, committed or not.
  {
    file: 'internal/backends/sqlite/collection.go',
    anchor: `	err := db.InTransaction(ctx, func(tx *fsql.Tx) error {
		batchSize := c.r.BatchSize`,
    replace: `	defer metadata.RelayProbesWriting(c.dbName, meta, params.Docs)()

	err := db.InTransaction(ctx, func(tx *fsql.Tx) error {
		batchSize := c.r.BatchSize`,
  },
  {
    file: 'internal/backends/sqlite/collection.go',
    anchor: `	err := db.InTransaction(ctx, func(tx *fsql.Tx) error {
		if !metadata.RelayOff {`,
    replace: `	defer metadata.RelayProbesWriting(c.dbName, meta, params.Docs)()

	err := db.InTransaction(ctx, func(tx *fsql.Tx) error {
		if !metadata.RelayOff {`,
  },
  {
    file: 'internal/backends/sqlite/collection.go',
    anchor: `	res, err := db.ExecContext(ctx, q, args...)
	if err != nil {
		return nil, lazyerrors.Error(err)
	}`,
    replace: `	res, err := db.ExecContext(ctx, q, args...)
	metadata.RelayProbesDeleted(c.dbName, meta)
	if err != nil {
		return nil, lazyerrors.Error(err)
	}`,
  },
  {
    file: 'internal/backends/sqlite/metadata/registry.go',
    anchor: `	delete(r.colls, dbName)

	return r.p.Drop(ctx, dbName)`,
    replace: `	delete(r.colls, dbName)
	defer RelayProbesForget(dbName, "")

	return r.p.Drop(ctx, dbName)`,
  },
  {
    file: 'internal/backends/sqlite/metadata/registry.go',
    anchor: `	r.colls[dbName][collectionName] = &Collection{
		Name:      collectionName,
		TableName: tableName,`,
    replace: `	RelayProbesForget(dbName, tableName)
	r.colls[dbName][collectionName] = &Collection{
		Name:      collectionName,
		TableName: tableName,`,
  },
  {
    file: 'internal/backends/sqlite/metadata/registry.go',
    anchor: `	delete(r.colls[dbName], collectionName)

	return true, nil`,
    replace: `	delete(r.colls[dbName], collectionName)
	RelayProbesForget(dbName, c.TableName)

	return true, nil`,
  },
  {
    file: 'internal/backends/sqlite/metadata/registry.go',
    anchor: `	delete(r.colls[dbName], oldCollectionName)
`,
    replace: `	delete(r.colls[dbName], oldCollectionName)
	RelayProbesForget(dbName, c.TableName)
`,
  },
];

export const probeCache: PatchTopic = {
  added: {
    'relay_probe_cache.go': 'internal/backends/sqlite/metadata/relay_probe_cache.go',
    'relay_probe_cache_test.go': 'internal/backends/sqlite/metadata/relay_probe_cache_test.go',
  },
  edits: EDITS,
};
