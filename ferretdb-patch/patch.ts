// Relay's patch to FerretDB v1.24.2: anchored edits to FerretDB's source plus the Go files of each
// concern's folder, applied to a copy of the module. An anchor that is not found (or is found
// twice) stops the build, so a changed upstream never builds silently unpatched. README.md lists
// the concerns.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { atomicUpdate } from './atomic-update/edits.ts';
import { counts } from './counts/edits.ts';
import { document } from './document/edits.ts';
import { indexes } from './indexes/edits.ts';
import { nan } from './nan/edits.ts';
import { probeCache } from './probe-cache/edits.ts';
import { projection } from './projection/edits.ts';
import { pushdown } from './pushdown/edits.ts';
import { resourceTracking } from './resource-tracking/edits.ts';
import { sjson } from './sjson/edits.ts';
import { stmtCache } from './stmt-cache/edits.ts';
import type { PatchTopic } from './topic.ts';
import { updateBatch } from './update-batch/edits.ts';
import { walRestart } from './wal-restart/edits.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** Each concern by its folder, applied in this order; edits to one file within a concern apply in its order. */
const TOPICS: Record<string, PatchTopic> = {
  'update-batch': updateBatch,
  indexes,
  counts,
  pushdown,
  'atomic-update': atomicUpdate,
  'wal-restart': walRestart,
  'resource-tracking': resourceTracking,
  sjson,
  document,
  projection,
  nan,
  'probe-cache': probeCache,
  'stmt-cache': stmtCache,
};

/** The dependency modules the concerns patch: directory in FerretDB's tree -> module@version. */
export function patchedModules(): Record<string, string> {
  return Object.assign({}, ...Object.values(TOPICS).map((topic) => topic.modules ?? {}));
}

/** Applies the edits and copies the added Go files into a writable copy of FerretDB's source. */
export function applyPatch(work: string): void {
  for (const edit of Object.values(TOPICS).flatMap((topic) => topic.edits)) {
    const file = path.join(work, edit.file);
    const text = fs.readFileSync(file, 'utf8');
    const at = text.indexOf(edit.anchor);
    if (at < 0 || text.indexOf(edit.anchor, at + 1) >= 0) {
      throw new Error(`FerretDB patch: anchor ${at < 0 ? 'not found' : 'found twice'} in ${edit.file}:\n${edit.anchor}`);
    }
    fs.writeFileSync(file, text.slice(0, at) + edit.replace + text.slice(at + edit.anchor.length));
  }
  for (const [dir, topic] of Object.entries(TOPICS)) {
    for (const [name, target] of Object.entries(topic.added)) fs.copyFileSync(path.join(HERE, dir, name), path.join(work, target));
  }
}

/** The FerretDB packages that hold the patch's Go tests. */
export function testedPackages(): string[] {
  const targets = Object.values(TOPICS).flatMap((topic) => Object.values(topic.added).filter((target) => target.endsWith('_test.go')));
  return [...new Set(targets.map((target) => `./${path.dirname(target)}`))].sort();
}
