// Relay: the documents of one UpdateAll written by one UPDATE per 100 documents (added at build
// time by Relay's installer, ferretdb-patch/ in the Relay repository; not part of FerretDB).
//
// FerretDB v1 ran an UPDATE per document, and the modernc driver compiles a statement on every
// execution, prepared or not: with Relay's (rank, value) index expressions, compiling the UPDATE
// of a gateway delivery cost about as much as writing it. `UPDATE … FROM (VALUES …)` compiles once
// for the batch and finds each row by the `_id` index (SEARCH … USING INDEX …__id_).

package sqlite

import (
	"context"
	"fmt"
	"strings"

	"github.com/FerretDB/FerretDB/internal/backends/sqlite/metadata"
	"github.com/FerretDB/FerretDB/internal/handler/sjson"
	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/fsql"
	"github.com/FerretDB/FerretDB/internal/util/lazyerrors"
	"github.com/FerretDB/FerretDB/internal/util/must"
)

// relayUpdateRows is the documents one statement writes: 200 bound values, far below SQLite's limit.
const relayUpdateRows = 100

// relayUpdateAll writes docs over the rows of their `_id`s; returns the rows changed.
func relayUpdateAll(ctx context.Context, tx *fsql.Tx, table string, docs []*types.Document) (int64, error) {
	var updated int64

	for len(docs) > 0 {
		batch := docs[:min(relayUpdateRows, len(docs))]
		docs = docs[len(batch):]

		rows := make([]string, 0, len(batch))
		args := make([]any, 0, 2*len(batch))

		for _, doc := range batch {
			b, err := sjson.Marshal(doc)
			if err != nil {
				return 0, lazyerrors.Error(err)
			}

			id, _ := doc.Get("_id")
			must.NotBeZero(id)

			rows = append(rows, "(?, ?)")
			args = append(args, string(must.NotFail(sjson.MarshalSingleValue(id))), string(b))
		}

		// One document per `_id` in a batch (an update command modifies each once), so no row
		// matches two VALUES rows.
		q := fmt.Sprintf(
			`UPDATE %q SET %s = v.column2 FROM (VALUES %s) AS v WHERE %s = v.column1`,
			table, metadata.DefaultColumn, strings.Join(rows, ", "), metadata.IDColumn,
		)

		r, err := tx.ExecContext(ctx, q, args...)
		if err != nil {
			return 0, lazyerrors.Error(err)
		}

		n, err := r.RowsAffected()
		if err != nil {
			return 0, lazyerrors.Error(err)
		}

		updated += n
	}

	return updated, nil
}
