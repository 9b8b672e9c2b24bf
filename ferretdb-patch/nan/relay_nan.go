// Relay's patch: NaN checked in what clients send only (docs/FERRETDB.md, "Replies"). FerretDB
// refuses float NaN in wire messages (its SQLite storage cannot hold one) by decoding every
// message it reads and every reply it builds down to each value: 5-6 % of its CPU for a page of
// 100 webhook deliveries, the replies' part. Stored documents hold no NaN, so only what clients
// send is checked, as before: a message with one still closes the connection.

package clientconn

import (
	"errors"
	"math"
	"os"

	"github.com/FerretDB/wire"
	"github.com/FerretDB/wire/wirebson"

	"github.com/FerretDB/FerretDB/internal/util/lazyerrors"
)

// relayNaNsOff (RELAY_FERRETDB_PUSHDOWN=off, as for the rest of the patch) checks every message as FerretDB does.
var relayNaNsOff = os.Getenv("RELAY_FERRETDB_PUSHDOWN") == "off"

func init() {
	// The handler package, a dependency and so initialised first, turned the check on for every message.
	if !relayNaNsOff {
		wire.CheckNaNs = false
	}
}

// relayCheckNaNs is wire's check of a read message (OpMsg.check with CheckNaNs).
func relayCheckNaNs(body wire.MsgBody) error {
	msg, ok := body.(*wire.OpMsg)
	if relayNaNsOff || !ok {
		return nil
	}

	for _, s := range msg.Sections() {
		for _, raw := range s.Documents() {
			doc, err := raw.DecodeDeep()
			if err != nil {
				return lazyerrors.Error(err)
			}

			if err = relayNaN(doc); err != nil {
				return err
			}
		}
	}

	return nil
}

func relayNaN(v any) error {
	switch v := v.(type) {
	case *wirebson.Document:
		for i := range v.Len() {
			_, f := v.GetByIndex(i)
			if err := relayNaN(f); err != nil {
				return err
			}
		}

	case *wirebson.Array:
		for i := range v.Len() {
			if err := relayNaN(v.Get(i)); err != nil {
				return err
			}
		}

	case float64:
		if math.IsNaN(v) {
			return errors.New("NaN is not supported")
		}
	}

	return nil
}
