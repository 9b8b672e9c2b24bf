// Relay's patch, decoded documents built at once instead of field by field (relay_document.go).
import type { Edit, PatchTopic } from '../topic.ts';

const EDITS: Edit[] = [
  {
    file: 'internal/handler/sjson/sjson.go',
    anchor: `	d := must.NotFail(types.NewDocument())

	for _, key := range sch.Keys {
		b, ok := v[key]

		if !ok {
			return nil, lazyerrors.Errorf("sjson.Unmarshal: missing key %q", key)
		}

		v, err := unmarshalSingleValue(b, sch.Properties[key])
		if err != nil {
			return nil, lazyerrors.Error(err)
		}

		d.Set(key, v)
	}

	return d, nil`,
    replace: `	values := make([]any, len(sch.Keys))

	for i, key := range sch.Keys {
		b, ok := v[key]

		if !ok {
			return nil, lazyerrors.Errorf("sjson.Unmarshal: missing key %q", key)
		}

		val, err := unmarshalSingleValue(b, sch.Properties[key])
		if err != nil {
			return nil, lazyerrors.Error(err)
		}

		values[i] = val
	}

	if !relayDecodeOff {
		if d := types.RelayDocumentOf(sch.Keys, values); d != nil {
			return d, nil
		}
	}

	d := must.NotFail(types.NewDocument())

	for i, key := range sch.Keys {
		d.Set(key, values[i])
	}

	return d, nil`,
  },
  {
    file: 'internal/handler/sjson/document.go',
    anchor: `	td := must.NotFail(types.NewDocument())

	for _, key := range sch.Keys {
		b, ok := rawMessages[key]

		if !ok {
			return lazyerrors.Errorf("sjson.documentType.UnmarshalJSON: missing key %q", key)
		}

		v, err := unmarshalSingleValue(b, sch.Properties[key])
		if err != nil {
			return lazyerrors.Error(err)
		}

		td.Set(key, v)
	}

	*doc = documentType(*td)`,
    replace: `	values := make([]any, len(sch.Keys))

	for i, key := range sch.Keys {
		b, ok := rawMessages[key]

		if !ok {
			return lazyerrors.Errorf("sjson.documentType.UnmarshalJSON: missing key %q", key)
		}

		v, err := unmarshalSingleValue(b, sch.Properties[key])
		if err != nil {
			return lazyerrors.Error(err)
		}

		values[i] = v
	}

	var td *types.Document
	if !relayDecodeOff {
		td = types.RelayDocumentOf(sch.Keys, values)
	}

	if td == nil {
		td = must.NotFail(types.NewDocument())

		for i, key := range sch.Keys {
			td.Set(key, values[i])
		}
	}

	*doc = documentType(*td)`,
  },
];

export const document: PatchTopic = {
  added: { 'relay_document.go': 'internal/types/relay_document.go' },
  edits: EDITS,
};
