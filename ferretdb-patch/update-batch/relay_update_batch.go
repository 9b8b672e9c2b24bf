// Relay: an update command's modified documents written in batches, one SQLite transaction and one
// UPDATE per batch (relay_update.go), where FerretDB v1 wrote each document in a transaction of its
// own and compiled its UPDATE again for it (with every index expression). A gateway batch's
// `updateMany` of 50 deliveries cost 50 commits (docs/FERRETDB.md, "Relay's patch").

package common

import (
	"context"

	"github.com/FerretDB/FerretDB/internal/backends"
	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/lazyerrors"
)

// relayUpdateBatch bounds the documents one transaction writes and the memory a batch holds.
const relayUpdateBatch = 100

// relayBatchedUpdates holds the documents an update command modified until flush.
// Everything but UpdateAll goes to the collection itself.
type relayBatchedUpdates struct {
	backends.Collection
	pending []*types.Document
}

// UpdateAll implements backends.Collection; the documents are written by flush.
func (c *relayBatchedUpdates) UpdateAll(ctx context.Context, params *backends.UpdateAllParams) (*backends.UpdateAllResult, error) { //nolint:lll // for readability
	c.pending = append(c.pending, params.Docs...)
	if len(c.pending) >= relayUpdateBatch {
		if err := c.flush(ctx); err != nil {
			return nil, err
		}
	}

	return new(backends.UpdateAllResult), nil
}

// flush writes the documents held so far in one call (one transaction).
func (c *relayBatchedUpdates) flush(ctx context.Context) error {
	if len(c.pending) == 0 {
		return nil
	}

	docs := c.pending
	c.pending = nil
	_, err := c.Collection.UpdateAll(ctx, &backends.UpdateAllParams{Docs: docs})

	return err
}

// UpdateDocument applies the update to every document of iter, as FerretDB's own (relayUpdateDocument),
// and writes the modified documents in batches; those modified before an error are still written.
func UpdateDocument(ctx context.Context, c backends.Collection, cmd string, iter types.DocumentsIterator, param *Update) (*UpdateResult, error) { //nolint:lll // for readability
	batched := &relayBatchedUpdates{Collection: c}
	res, err := relayUpdateDocument(ctx, batched, cmd, iter, param)

	if flushErr := batched.flush(ctx); flushErr != nil && err == nil {
		return nil, lazyerrors.Error(flushErr)
	}

	return res, err
}
