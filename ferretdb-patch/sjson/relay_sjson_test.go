// Relay's patch: relay_sjson.go's fast paths against FerretDB's own decoding with encoding/json. Run in a
// patched tree: `go test -run Relay ./internal/handler/sjson/` (and `-fuzz FuzzRelay...`).

package sjson

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

var relaySeeds = []string{
	`{}`, `[]`, `{"a":1}`, `{"a":"b","c":[1,2,{"d":null}],"e":{"f":true}}`, `{"a":1,"a":2}`,
	`{ "a": 1 }`, `{"a\"b":1}`, `{"\u00e9":1}`, `{"é":"ü"}`, `{"a":"\u0000"}`, `{"a":"x\ny"}`,
	`{"a":"` + "\xff" + `"}`, `{"` + "\xff" + `":1}`, `{"a":01}`, `{"a":-0}`, `{"a":1.5e-7}`, `{"a":1e400}`,
	`{"a":+1}`, `{"a":.5}`, `{"a":1.}`, `{"a":tru}`, `{"a":1,}`, `[1,]`, `{"a":1}x`, `{"a" :1}`,
	`[[[[]]]]`, `["a","b\\c","\/"]`, `{"a":"\uZZZZ"}`, `{"a":"\u12"}`, `null`, `"s"`, `{"a":[1 ,2]}`,
	`{"a":-}`, `{"a":1e}`, `{"a":1E+2}`, `{"a":9223372036854775808}`, `{"a":"` + "\t" + `"}`,
}

func FuzzRelayObject(f *testing.F) {
	for _, s := range relaySeeds {
		f.Add([]byte(s))
	}

	f.Fuzz(func(t *testing.T, data []byte) {
		var want map[string]json.RawMessage
		wantErr := relayOriginal(data, &want)

		got, gotErr := relayObject(data)
		if (gotErr != nil) != (wantErr != nil) {
			t.Fatalf("%q: error %v, encoding/json %v", data, gotErr, wantErr)
		}

		if wantErr == nil && !reflect.DeepEqual(relayCompact(t, got), relayCompact(t, want)) {
			t.Fatalf("%q: %q, encoding/json %q", data, got, want)
		}

		var wantArray []json.RawMessage
		wantErr = relayOriginal(data, &wantArray)

		gotArray, gotErr := relayArray(data)
		if (gotErr != nil) != (wantErr != nil) {
			t.Fatalf("%q: array error %v, encoding/json %v", data, gotErr, wantErr)
		}

		if wantErr == nil && len(gotArray) != len(wantArray) {
			t.Fatalf("%q: %q, encoding/json %q", data, gotArray, wantArray)
		}
	})
}

// relayOriginal decodes as FerretDB's own code does (trailing bytes, even spaces, are refused).
func relayOriginal(data []byte, into any) error {
	r := bytes.NewReader(data)
	dec := json.NewDecoder(r)

	if err := dec.Decode(into); err != nil {
		return err
	}

	return checkConsumed(dec, r)
}

// relayCompact makes raw values comparable: encoding/json keeps their whitespace as it was.
func relayCompact(t *testing.T, m map[string]json.RawMessage) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		var b bytes.Buffer
		if err := json.Compact(&b, v); err != nil {
			t.Fatal(err)
		}
		out[k] = b.String()
	}

	return out
}

func FuzzRelayScalar(f *testing.F) {
	for _, s := range []string{`"a"`, `"\u00e9"`, `"é"`, `"` + "\xff" + `"`, `"a\"b"`, `"{\"a\":\"\\\\\/\b\f\n\r\t\"}"`,
		`"\u003c\u2028\u0000\u001F"`, `"\ud83d\ude00"`, `"\ud800"`, `"\udc00x"`, `"\u12"`, `"\uZZZZ"`, `"\x"`, `"a\"`, `"\` + "\xc3\xa9" + `"`,
		`"` + "\xc3" + `\n"`, `"é\né"`, `true`, `false`, `0`, `-0`, `01`, `+1`,
		`2147483647`, `2147483648`, `-9223372036854775808`, `9223372036854775808`, `1.5`, `1e3`, `-1.5E-3`, `1e400`, `1.`, `null`} {
		f.Add([]byte(s))
	}

	f.Fuzz(func(t *testing.T, data []byte) {
		checks := []struct {
			t    elemType
			into any
			conv func(any) any
		}{
			{elemTypeString, new(string), func(v any) any { return *v.(*string) }},
			{elemTypeBool, new(bool), func(v any) any { return *v.(*bool) }},
			{elemTypeInt, new(int32), func(v any) any { return *v.(*int32) }},
			{elemTypeLong, new(int64), func(v any) any { return *v.(*int64) }},
			{elemTypeDate, new(int64), func(v any) any { return time.UnixMilli(*v.(*int64)) }},
			{elemTypeDouble, new(float64), func(v any) any { return *v.(*float64) }},
		}
		for _, c := range checks {
			got, ok := relayScalar(data, c.t)
			if !ok {
				continue
			}

			if err := relayOriginal(data, c.into); err != nil {
				t.Fatalf("%s %q: decoded as %v, encoding/json refuses it: %v", c.t, data, got, err)
			}

			if want := c.conv(c.into); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s %q: %#v, encoding/json %#v", c.t, data, got, want)
			}
		}
	})
}

func TestRelaySchemaShared(t *testing.T) {
	doc := []byte(`{"$s":{"p":{"a":{"t":"int"}},"$k":["a"]},"a":1}`)
	for i := 0; i < 2; i++ {
		d, err := Unmarshal(doc)
		if err != nil || d.Len() != 1 {
			t.Fatal(d, err)
		}
	}

	if _, err := Unmarshal([]byte(`{"$s":{"p":{"a":{"t":"int"}},"$k":["a"],"x":1},"a":1}`)); err == nil {
		t.Fatal("a schema with an unknown field was accepted")
	}
}

// Strings as FerretDB stores them (json.Marshal: \" \\ \n and \u escapes, HTML characters included)
// are read by the fast path, not left to encoding/json.
func TestRelayEscapedStrings(t *testing.T) {
	for _, s := range []string{`{"event":"x","n":1}`, "a\\b\n\r\t\b\f", "<&>\u2028\u2029\u0000\u001f", "é\"😀\"", `\u0041`} {
		data, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}

		got, ok := relayScalar(data, elemTypeString)
		if !ok || got != s {
			t.Fatalf("%s: %q, %v", data, got, ok)
		}
	}
}
