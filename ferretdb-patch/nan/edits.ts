// Relay's patch, the NaN check: on the messages clients send, not on every reply (relay_nan.go).
import type { Edit, PatchTopic } from '../topic.ts';

const EDITS: Edit[] = [
  {
    file: 'internal/clientconn/conn.go',
    anchor: `		reqHeader, reqBody, err = wire.ReadMessage(bufr)
		if err != nil {
			return
		}
`,
    replace: `		reqHeader, reqBody, err = wire.ReadMessage(bufr)
		if err != nil {
			return
		}

		if err = relayCheckNaNs(reqBody); err != nil {
			return
		}
`,
  },
];

export const nan: PatchTopic = {
  added: { 'relay_nan.go': 'internal/clientconn/relay_nan.go' },
  edits: EDITS,
};
