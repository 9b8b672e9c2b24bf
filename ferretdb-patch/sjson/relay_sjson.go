// Relay's patch: a cheaper decoding of stored documents (docs/FERRETDB.md, "Decoding stored
// documents"). FerretDB decodes every SQLite row with encoding/json, its schema by reflection and
// each scalar through a json.Decoder of its own: most of the CPU of a list page. Here the schema is
// decoded once per distinct schema text, and the scalars of the common forms directly; anything
// else still goes through FerretDB's own code, so errors and odd values are decoded as before.

package sjson

import (
	"bytes"
	"encoding/json"
	"os"
	"strconv"
	"sync"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/FerretDB/FerretDB/internal/util/lazyerrors"
)

// relayDecodeOff (RELAY_FERRETDB_PUSHDOWN=off, as for the rest of the patch) decodes as FerretDB
// does: the oracle of test/db/ferretdb-decode.test.ts.
var relayDecodeOff = os.Getenv("RELAY_FERRETDB_PUSHDOWN") == "off"

// relaySchemaLimit bounds the cache: a collection's documents share a few schemas, but a
// collection of free-form documents may have one each.
const relaySchemaLimit = 4096

var (
	relaySchemasM sync.RWMutex
	relaySchemas  = make(map[string]*schema)
)

// relaySchemaOf decodes a document's `$s` as FerretDB does, once per distinct text. Decoded
// schemas are only read afterwards, so one can be shared by every document that has it.
func relaySchemaOf(raw []byte) (*schema, error) {
	if !relayDecodeOff {
		relaySchemasM.RLock()
		sch := relaySchemas[string(raw)]
		relaySchemasM.RUnlock()

		if sch != nil {
			return sch, nil
		}
	}

	sch := new(schema)
	r := bytes.NewReader(raw)
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()

	if err := dec.Decode(sch); err != nil {
		return nil, lazyerrors.Error(err)
	}

	if err := checkConsumed(dec, r); err != nil {
		return nil, lazyerrors.Error(err)
	}

	if relayDecodeOff {
		return sch, nil
	}

	relaySchemasM.Lock()
	if len(relaySchemas) >= relaySchemaLimit {
		relaySchemas = make(map[string]*schema)
	}
	relaySchemas[string(raw)] = sch
	relaySchemasM.Unlock()

	return sch, nil
}

// relayScalar decodes a string, bool, int, long, date or double written in its plain form, as
// encoding/json would; ok is false for anything else (escapes, other types), left to FerretDB.
func relayScalar(data []byte, t elemType) (v any, ok bool) {
	if relayDecodeOff {
		return nil, false
	}

	switch t {
	case elemTypeString:
		if s, ok := relayPlainString(data); ok {
			return s, true
		}
	case elemTypeBool:
		switch string(data) {
		case "true":
			return true, true
		case "false":
			return false, true
		}
	case elemTypeInt:
		if relayInteger(data) {
			if i, err := strconv.ParseInt(string(data), 10, 32); err == nil {
				return int32(i), true
			}
		}
	case elemTypeLong:
		if relayInteger(data) {
			if i, err := strconv.ParseInt(string(data), 10, 64); err == nil {
				return i, true
			}
		}
	case elemTypeDate:
		if relayInteger(data) {
			if i, err := strconv.ParseInt(string(data), 10, 64); err == nil {
				return time.UnixMilli(i), true
			}
		}
	case elemTypeDouble:
		if relayNumber(data) {
			if f, err := strconv.ParseFloat(string(data), 64); err == nil {
				return f, true
			}
		}
	}

	return nil, false
}

// relayPlainString: a JSON string without control characters, in valid UTF-8, is its bytes
// between the quotes with its escapes undone (encoding/json would only change invalid UTF-8).
func relayPlainString(data []byte) (string, bool) {
	if len(data) < 2 || data[0] != '"' || data[len(data)-1] != '"' {
		return "", false
	}

	inner := data[1 : len(data)-1]
	escaped := false

	for i := 0; i < len(inner); i++ {
		switch c := inner[i]; {
		case c < 0x20 || c == '"':
			return "", false
		case c == '\\':
			// The escaped byte is checked by relayUnescape (an escaped quote is no end).
			escaped = true
			i++
		}
	}

	if !utf8.Valid(inner) {
		return "", false
	}

	if escaped {
		return relayUnescape(inner)
	}

	return string(inner), true
}

// relayUnescape undoes the escapes of a JSON string's valid UTF-8 bytes, as encoding/json does,
// for the ones json.Marshal writes (a stored JSON text, such as a webhook's body, is full of \"):
// the two-character forms and \uXXXX outside the surrogates. A surrogate (a pair, or a lone one
// that encoding/json turns into U+FFFD) or a malformed escape is left to encoding/json. The escapes
// are ASCII, so the bytes between them stay valid UTF-8 on their own.
func relayUnescape(inner []byte) (string, bool) {
	out := make([]byte, 0, len(inner))

	for i := 0; i < len(inner); {
		c := inner[i]
		if c != '\\' {
			out = append(out, c)
			i++

			continue
		}

		if i+1 >= len(inner) {
			return "", false
		}

		switch e := inner[i+1]; e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, ok := relayHex4(inner[i+2:])
			if !ok || utf16.IsSurrogate(r) {
				return "", false
			}

			out = utf8.AppendRune(out, r)
			i += 6

			continue
		default:
			return "", false
		}

		i += 2
	}

	return string(out), true
}

// relayHex4 reads the four hex digits of a \u escape.
func relayHex4(data []byte) (rune, bool) {
	if len(data) < 4 {
		return 0, false
	}

	var r rune

	for _, h := range data[:4] {
		switch {
		case h >= '0' && h <= '9':
			r = r<<4 | rune(h-'0')
		case h >= 'a' && h <= 'f':
			r = r<<4 | rune(h-'a'+10)
		case h >= 'A' && h <= 'F':
			r = r<<4 | rune(h-'A'+10)
		default:
			return 0, false
		}
	}

	return r, true
}

// relayInteger: JSON's integer form, -?(0|[1-9][0-9]*) (strconv alone would also take "+1" and "01").
func relayInteger(data []byte) bool {
	i := 0
	if i < len(data) && data[i] == '-' {
		i++
	}

	return relayDigits(data, i) == len(data)
}

// relayDigits returns where JSON's integer digits starting at i end, or -1 without a valid start.
func relayDigits(data []byte, i int) int {
	if i >= len(data) || data[i] < '0' || data[i] > '9' {
		return -1
	}

	if data[i] == '0' {
		return i + 1
	}

	for i < len(data) && data[i] >= '0' && data[i] <= '9' {
		i++
	}

	return i
}

// relayNumber: JSON's number form, -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?.
func relayNumber(data []byte) bool {
	i := 0
	if i < len(data) && data[i] == '-' {
		i++
	}

	if i = relayDigits(data, i); i < 0 {
		return false
	}

	if i < len(data) && data[i] == '.' {
		j := i + 1
		for j < len(data) && data[j] >= '0' && data[j] <= '9' {
			j++
		}

		if j == i+1 {
			return false
		}

		i = j
	}

	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}

		j := i
		for j < len(data) && data[j] >= '0' && data[j] <= '9' {
			j++
		}

		if j == i {
			return false
		}

		i = j
	}

	return i == len(data)
}

// relayObject splits a JSON object into its members' raw values, as decoding it into a
// map[string]json.RawMessage does, without encoding/json's two passes over the text; anything
// outside the compact form FerretDB writes (whitespace, escaped keys) is left to encoding/json.
func relayObject(data []byte) (map[string]json.RawMessage, error) {
	if v, ok := relaySplitObject(data); ok {
		return v, nil
	}

	return relayDecode[map[string]json.RawMessage](data)
}

// relayArray is relayObject for an array.
func relayArray(data []byte) ([]json.RawMessage, error) {
	if v, ok := relaySplitArray(data); ok {
		return v, nil
	}

	return relayDecode[[]json.RawMessage](data)
}

// relayDecode is FerretDB's own decoding of a whole value, for what the fast paths leave to it.
func relayDecode[T any](data []byte) (T, error) {
	var v T
	r := bytes.NewReader(data)
	dec := json.NewDecoder(r)

	if err := dec.Decode(&v); err != nil {
		return v, lazyerrors.Error(err)
	}

	if err := checkConsumed(dec, r); err != nil {
		return v, lazyerrors.Error(err)
	}

	return v, nil
}

func relaySplitObject(data []byte) (map[string]json.RawMessage, bool) {
	if relayDecodeOff || len(data) < 2 || data[0] != '{' {
		return nil, false
	}

	v := make(map[string]json.RawMessage)
	i := 1

	if data[i] == '}' {
		return v, i+1 == len(data)
	}

	for {
		end := relaySkipString(data, i)
		if end < 0 || end >= len(data) || data[end] != ':' || bytes.IndexByte(data[i:end], '\\') >= 0 || !utf8.Valid(data[i:end]) {
			return nil, false
		}

		key := string(data[i+1 : end-1])
		start := end + 1

		if end = relaySkipValue(data, start, 0); end < 0 || end >= len(data) {
			return nil, false
		}

		v[key] = json.RawMessage(data[start:end:end])

		switch data[end] {
		case ',':
			i = end + 1
		case '}':
			return v, end+1 == len(data)
		default:
			return nil, false
		}
	}
}

func relaySplitArray(data []byte) ([]json.RawMessage, bool) {
	if relayDecodeOff || len(data) < 2 || data[0] != '[' {
		return nil, false
	}

	var v []json.RawMessage
	i := 1

	if data[i] == ']' {
		return []json.RawMessage{}, i+1 == len(data)
	}

	for {
		end := relaySkipValue(data, i, 0)
		if end < 0 || end >= len(data) {
			return nil, false
		}

		v = append(v, json.RawMessage(data[i:end:end]))

		switch data[end] {
		case ',':
			i = end + 1
		case ']':
			return v, end+1 == len(data)
		default:
			return nil, false
		}
	}
}

// relaySkipValue returns where the compact JSON value at i ends, or -1 if it is not one.
func relaySkipValue(data []byte, i, depth int) int {
	if i >= len(data) || depth > 1000 {
		return -1
	}

	switch c := data[i]; {
	case c == '"':
		return relaySkipString(data, i)
	case c == '{' || c == '[':
		closing, keyed := byte(']'), c == '{'
		if keyed {
			closing = '}'
		}

		i++
		if i < len(data) && data[i] == closing {
			return i + 1
		}

		for {
			if keyed {
				if i = relaySkipString(data, i); i < 0 || i >= len(data) || data[i] != ':' {
					return -1
				}
				i++
			}

			if i = relaySkipValue(data, i, depth+1); i < 0 || i >= len(data) {
				return -1
			}

			switch data[i] {
			case ',':
				i++
			case closing:
				return i + 1
			default:
				return -1
			}
		}
	case c == '-' || (c >= '0' && c <= '9'):
		j := i
		for j < len(data) && (data[j] == '-' || data[j] == '+' || data[j] == '.' || data[j] == 'e' || data[j] == 'E' || (data[j] >= '0' && data[j] <= '9')) {
			j++
		}

		if !relayNumber(data[i:j]) {
			return -1
		}

		return j
	default:
		for _, literal := range []string{"true", "false", "null"} {
			if bytes.HasPrefix(data[i:], []byte(literal)) {
				return i + len(literal)
			}
		}

		return -1
	}
}

// relaySkipString returns where the JSON string at i ends, or -1 if it is not a valid one.
func relaySkipString(data []byte, i int) int {
	if i >= len(data) || data[i] != '"' {
		return -1
	}

	for i++; i < len(data); i++ {
		switch c := data[i]; {
		case c == '"':
			return i + 1
		case c < 0x20:
			return -1
		case c == '\\':
			i++
			if i >= len(data) {
				return -1
			}

			switch data[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(data) {
					return -1
				}

				for _, h := range data[i+1 : i+5] {
					if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
						return -1
					}
				}

				i += 4
			default:
				return -1
			}
		}
	}

	return -1
}
