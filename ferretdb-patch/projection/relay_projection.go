// Relay's patch: find's projection without copies (docs/FERRETDB.md, "Projections"). FerretDB
// projects every document a find returns, even with no projection asked for, by deep-copying it
// twice (ProjectDocument): a tenth of its CPU for a page of 100 webhook deliveries. The documents
// come fresh from decoding and nothing else holds them, so a projection of plain top-level fields
// (or none) keeps or drops their values without copying them; any other projection still goes
// through FerretDB's own code.

package common

import (
	"os"
	"strings"

	"github.com/FerretDB/FerretDB/internal/types"
)

// relayProjectionOff (RELAY_FERRETDB_PUSHDOWN=off, as for the rest of the patch) projects as
// FerretDB does: the oracle of test/db/ferretdb-projection.test.ts.
var relayProjectionOff = os.Getenv("RELAY_FERRETDB_PUSHDOWN") == "off"

// relayProjection is a validated projection of top-level fields only, each included or excluded.
type relayProjection struct {
	fields    map[string]struct{}
	inclusion bool
	keepID    bool
}

// relayPlainProjection returns nil unless every key of the validated projection is a plain
// top-level field (no path, no positional `$`) with a boolean value (ValidateProjection turns
// numbers into booleans; other values set new fields and are left to FerretDB).
func relayPlainProjection(validated *types.Document, inclusion bool) *relayProjection {
	if relayProjectionOff {
		return nil
	}

	p := &relayProjection{fields: make(map[string]struct{}, validated.Len()), inclusion: inclusion, keepID: true}
	values := validated.Values()

	for i, k := range validated.Keys() {
		b, ok := values[i].(bool)
		if !ok || k == "" || strings.ContainsAny(k, ".$") {
			return nil
		}

		if k == "_id" {
			p.keepID = b
			continue
		}

		if b != inclusion {
			return nil
		}

		p.fields[k] = struct{}{}
	}

	return p
}

// apply projects doc as ProjectDocument would; ok is false for a document whose `_id` is not its
// first field (ProjectDocument moves it first), which FerretDB's own code then projects.
func (p *relayProjection) apply(doc *types.Document) (*types.Document, bool) {
	keys := doc.Keys()
	if len(keys) == 0 || keys[0] != "_id" {
		return nil, false
	}

	if p.keepID && !p.inclusion && len(p.fields) == 0 {
		return doc, true
	}

	values := doc.Values()
	pairs := make([]any, 0, 2*len(keys))

	for i, k := range keys {
		keep := p.keepID
		if k != "_id" {
			_, named := p.fields[k]
			keep = named == p.inclusion
		}

		if keep {
			pairs = append(pairs, k, values[i])
		}
	}

	res, err := types.NewDocument(pairs...)
	if err != nil {
		return nil, false
	}

	res.SetRecordID(doc.RecordID())

	return res, true
}
