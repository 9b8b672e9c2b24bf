// Relay's patch, WAL restart: one loop restarts the WAL of each database on disk when steady
// readers keep SQLite from doing it (relay_wal_restart.go).
import type { Edit, PatchTopic } from '../topic.ts';

const EDITS: Edit[] = [
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
];

export const walRestart: PatchTopic = {
  added: {
    'relay_wal_restart.go': 'internal/backends/sqlite/metadata/pool/relay_wal_restart.go',
    'relay_wal_gate.go': 'internal/backends/sqlite/metadata/pool/relay_wal_gate.go',
  },
  edits: EDITS,
};
