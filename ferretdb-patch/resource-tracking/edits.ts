// Relay's patch, resource tracking: FerretDB's leak tracking of every iterator, turned off.
import type { Edit, PatchTopic } from '../topic.ts';

const EDITS: Edit[] = [
  // Resource tracking records a stack trace (runtime.Callers) and a finalizer for every document
  // iterator: 10 % of FerretDB's CPU on a page of 100 webhook deliveries (docs/FERRETDB.md). It
  // only finds FerretDB's own leaks, and a leak it finds panics the server.
  {
    file: 'internal/util/resource/resource.go',
    anchor: `func Track(obj any, token *Token) {
	checkArgs(obj, token)
`,
    replace: `func Track(obj any, token *Token) {
	if relayUntracked {
		return
	}

	checkArgs(obj, token)
`,
  },
  {
    file: 'internal/util/resource/resource.go',
    anchor: `func Untrack(obj any, token *Token) {
	checkArgs(obj, token)
`,
    replace: `func Untrack(obj any, token *Token) {
	if relayUntracked {
		return
	}

	checkArgs(obj, token)
`,
  },
  {
    file: 'internal/util/resource/resource.go',
    anchor: `// profilesM protects access to profiles.`,
    replace: `// relayUntracked turns tracking off (Relay's patch).
const relayUntracked = true

// profilesM protects access to profiles.`,
  },
];

export const resourceTracking: PatchTopic = {
  added: {},
  edits: EDITS,
};
