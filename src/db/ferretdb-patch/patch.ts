// Relay's patch to FerretDB v1.24.2 (docs/FERRETDB.md, "Relay's patch"): anchored edits to
// FerretDB's source plus the Go files beside this one, applied to a copy of the module before
// `go build`. An anchor that is not found stops the build, so a changed upstream never builds
// silently unpatched. Each concern's edits live in its own `*.edits.ts` beside its Go files.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { atomicUpdate } from './atomic-update.edits.ts';
import { counts } from './counts.edits.ts';
import { document } from './document.edits.ts';
import { indexes } from './indexes.edits.ts';
import { projection } from './projection.edits.ts';
import { nan } from './nan.edits.ts';
import { probeCache } from './probe-cache.edits.ts';
import { pushdown } from './pushdown.edits.ts';
import { resourceTracking } from './resource-tracking.edits.ts';
import { sjson } from './sjson.edits.ts';
import type { PatchTopic } from './topic.ts';
import { updateBatch } from './update-batch.edits.ts';
import { walRestart } from './wal-restart.edits.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));

// Applied in this order; edits to one file within a topic apply in the topic's order.
const TOPICS: PatchTopic[] = [updateBatch, indexes, counts, pushdown, atomicUpdate, walRestart, resourceTracking, sjson, document, projection, nan, probeCache];

const ADDED: Record<string, string> = Object.assign({}, ...TOPICS.map((topic) => topic.added));
const EDITS = TOPICS.flatMap((topic) => topic.edits);

/** The patch's identity: the binary's name carries it, so a changed patch is always rebuilt. */
export function patchHash(): string {
  const hash = crypto.createHash('sha256');
  hash.update(JSON.stringify(EDITS));
  for (const name of Object.keys(ADDED).sort()) hash.update(name).update(fs.readFileSync(path.join(HERE, name)));
  return hash.digest('hex').slice(0, 12);
}

/** Applies the edits and copies the added files into a writable copy of FerretDB's source. */
export function applyPatch(work: string): void {
  for (const edit of EDITS) {
    const file = path.join(work, edit.file);
    const text = fs.readFileSync(file, 'utf8');
    const at = text.indexOf(edit.anchor);
    if (at < 0 || text.indexOf(edit.anchor, at + 1) >= 0) {
      throw new Error(`FerretDB patch: anchor ${at < 0 ? 'not found' : 'found twice'} in ${edit.file}:\n${edit.anchor}`);
    }
    fs.writeFileSync(file, text.slice(0, at) + edit.replace + text.slice(at + edit.anchor.length));
  }
  for (const [name, target] of Object.entries(ADDED)) fs.copyFileSync(path.join(HERE, name), path.join(work, target));
}
