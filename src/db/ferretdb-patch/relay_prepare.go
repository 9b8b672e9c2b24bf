// Relay: a statement prepared once inside a transaction and run for many rows (UpdateAll).

package fsql

import (
	"context"
	"database/sql"
)

// RelayPrepareContext calls [*database/sql.Tx.PrepareContext].
func (tx *Tx) RelayPrepareContext(ctx context.Context, query string) (*sql.Stmt, error) {
	return tx.sqlTx.PrepareContext(ctx, query)
}
