// Relay's patch, find's projection: plain top-level projections (and none) applied without deep
// copies of the documents (relay_projection.go).
import type { Edit, PatchTopic } from '../topic.ts';

const EDITS: Edit[] = [
  {
    file: 'internal/handler/common/projection_iterator.go',
    anchor: `	res := &projectionIterator{
		iter:       iter,
		projection: projectionValidated,
		filter:     filter,
		inclusion:  inclusion,
	}`,
    replace: `	res := &projectionIterator{
		iter:       iter,
		projection: projectionValidated,
		filter:     filter,
		inclusion:  inclusion,
		relay:      relayPlainProjection(projectionValidated, inclusion),
	}`,
  },
  {
    file: 'internal/handler/common/projection_iterator.go',
    anchor: `	inclusion  bool
}`,
    replace: `	inclusion  bool
	relay      *relayProjection // nil: FerretDB's own projection
}`,
  },
  {
    file: 'internal/handler/common/projection_iterator.go',
    anchor: `	projected, err := ProjectDocument(doc, iter.projection, iter.filter, iter.inclusion)`,
    replace: `	if iter.relay != nil {
		if projected, ok := iter.relay.apply(doc); ok {
			return unused, projected, nil
		}
	}

	projected, err := ProjectDocument(doc, iter.projection, iter.filter, iter.inclusion)`,
  },
];

export const projection: PatchTopic = {
  added: { 'relay_projection.go': 'internal/handler/common/relay_projection.go' },
  edits: EDITS,
};
