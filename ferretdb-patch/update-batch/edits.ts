// Relay's patch, update batches: an update command's modified documents are written in batches,
// each in one transaction and one UPDATE (relay_update_batch.go, relay_update.go).
import type { Edit, PatchTopic } from '../topic.ts';

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
];

export const updateBatch: PatchTopic = {
  added: {
    'relay_update_batch.go': 'internal/handler/common/relay_update_batch.go',
    'relay_update.go': 'internal/backends/sqlite/relay_update.go',
  },
  edits: EDITS,
};
