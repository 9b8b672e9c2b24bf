// Relay's patch: an update or findAndModify command reads its documents, changes them in Go and
// writes each one back whole, in SQLite transactions of their own (FerretDB v1). Two such commands
// on one document at once could both read the same version, and the second write-back undid the
// first one's change: a concurrent $inc was lost, and a sweep's mark put a finished record back to
// pending (docs/FERRETDB.md, "Lost updates"). One lock per collection around each command makes
// them take turns, as MongoDB's document-level atomicity promises; SQLite lets one writer at a time
// through anyway, so only their reads wait in addition.

package handler

import (
	"os"
	"sync"

	"github.com/FerretDB/FerretDB/internal/backends/sqlite/metadata/pool"
)

// relayAtomicOff keeps FerretDB's own behaviour (RELAY_FERRETDB_ATOMIC_UPDATES=off), for the test
// that shows the lost update.
var relayAtomicOff = os.Getenv("RELAY_FERRETDB_ATOMIC_UPDATES") == "off"

// relayCollectionLocks: "database.collection" -> *sync.Mutex.
var relayCollectionLocks sync.Map

// relayLockCollection locks the collection's read-modify-write commands; call the result to
// unlock. The command also keeps the WAL restart of its database waiting until it ends
// (pool.RelayWALReadWrite): taken after the collection's turn, so a restart waits only for the
// commands in flight, not for their queue.
func relayLockCollection(db, collection string) func() {
	if relayAtomicOff {
		return pool.RelayWALReadWrite(db)
	}

	m, _ := relayCollectionLocks.LoadOrStore(db+"."+collection, new(sync.Mutex))
	mu := m.(*sync.Mutex)
	mu.Lock()
	writing := pool.RelayWALReadWrite(db)

	return func() {
		writing()
		mu.Unlock()
	}
}
