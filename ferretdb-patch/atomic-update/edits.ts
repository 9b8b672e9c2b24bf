// Relay's patch, atomic updates: update and findAndModify commands on one collection take turns,
// so concurrent updates do not undo each other (relay_atomic_update.go).
import type { Edit, PatchTopic } from '../topic.ts';

const EDITS: Edit[] = [
  // findAndModify reads, changes and writes back without another command's write in between.
  {
    file: 'internal/handler/msg_findandmodify.go',
    anchor: `	var qp backends.QueryParams
	if !h.DisablePushdown {
		qp.Filter = params.Query
	}
`,
    replace: `	var qp backends.QueryParams
	if !h.DisablePushdown {
		qp.Filter = params.Query
	}

	// read, change and write back without another command's write in between (relay_atomic_update.go)
	defer relayLockCollection(params.DB, params.Collection)()
`,
  },
  // An update command reads, changes and writes back its documents without another command's
  // write to the collection in between (relay_atomic_update.go).
  {
    file: 'internal/handler/msg_update.go',
    anchor: `func (h *Handler) updateDocument(ctx context.Context, params *common.UpdateParams) (int32, int32, *types.Array, error) {
	var matched, modified int32`,
    replace: `func (h *Handler) updateDocument(ctx context.Context, params *common.UpdateParams) (int32, int32, *types.Array, error) {
	defer relayLockCollection(params.DB, params.Collection)()

	var matched, modified int32`,
  },
];

export const atomicUpdate: PatchTopic = {
  added: {
    'relay_atomic_update.go': 'internal/handler/relay_atomic_update.go',
  },
  edits: EDITS,
};
