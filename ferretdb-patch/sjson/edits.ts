// Relay's patch, sjson decoding: stored documents decoded with their schema cached and plain
// scalars read directly (relay_sjson.go, tested by relay_sjson_test.go).
import type { Edit, PatchTopic } from '../topic.ts';

const EDITS: Edit[] = [
  // Stored documents are decoded with their schema cached and their plain scalars read directly
  // (relay_sjson.go): a page of 100 webhook deliveries 13.8 -> 5.3 ms of FerretDB CPU (docs/FERRETDB.md).
  {
    file: 'internal/handler/sjson/sjson.go',
    anchor: `	var v map[string]json.RawMessage
	r := bytes.NewReader(data)
	dec := json.NewDecoder(r)

	err := dec.Decode(&v)
	if err != nil {
		return nil, lazyerrors.Error(err)
	}

	if err = checkConsumed(dec, r); err != nil {
		return nil, lazyerrors.Error(err)
	}
`,
    replace: `	v, err := relayObject(data)
	if err != nil {
		return nil, lazyerrors.Error(err)
	}
`,
  },
  {
    file: 'internal/handler/sjson/document.go',
    anchor: `	r := bytes.NewReader(data)
	dec := json.NewDecoder(r)

	var rawMessages map[string]json.RawMessage
	if err := dec.Decode(&rawMessages); err != nil {
		return lazyerrors.Error(err)
	}

	if err := checkConsumed(dec, r); err != nil {
		return lazyerrors.Error(err)
	}
`,
    replace: `	rawMessages, err := relayObject(data)
	if err != nil {
		return lazyerrors.Error(err)
	}
`,
  },
  {
    file: 'internal/handler/sjson/array.go',
    anchor: `	r := bytes.NewReader(data)
	dec := json.NewDecoder(r)

	var rawMessages []json.RawMessage
	if err := dec.Decode(&rawMessages); err != nil {
		return lazyerrors.Error(err)
	}

	if err := checkConsumed(dec, r); err != nil {
		return lazyerrors.Error(err)
	}
`,
    replace: `	rawMessages, err := relayArray(data)
	if err != nil {
		return lazyerrors.Error(err)
	}
`,
  },
  {
    file: 'internal/handler/sjson/array.go',
    anchor: `	"encoding/json"
`,
    replace: ``,
  },
  {
    file: 'internal/handler/sjson/sjson.go',
    anchor: `	var sch schema
	r = bytes.NewReader(jsch)
	dec = json.NewDecoder(r)
	dec.DisallowUnknownFields()

	if err := dec.Decode(&sch); err != nil {
		return nil, lazyerrors.Error(err)
	}

	if err := checkConsumed(dec, r); err != nil {
		return nil, lazyerrors.Error(err)
	}
`,
    replace: `	sch, err := relaySchemaOf(jsch)
	if err != nil {
		return nil, lazyerrors.Error(err)
	}
`,
  },
  {
    file: 'internal/handler/sjson/sjson.go',
    anchor: `	var res sjsontype
	var err error

	switch sch.Type {`,
    replace: `	if v, ok := relayScalar(data, sch.Type); ok {
		return v, nil
	}

	var res sjsontype
	var err error

	switch sch.Type {`,
  },
];

export const sjson: PatchTopic = {
  added: {
    'relay_sjson.go': 'internal/handler/sjson/relay_sjson.go',
    'relay_sjson_test.go': 'internal/handler/sjson/relay_sjson_test.go',
  },
  edits: EDITS,
};
