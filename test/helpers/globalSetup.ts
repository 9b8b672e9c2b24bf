// One database server per test run: MONGODB_URI when set (a real MongoDB), else a FerretDB
// started here in a temporary directory on a free port. Each test file uses its own database.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startFerretDb, type EmbeddedDb } from '../../src/db/ferretdb.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    mongoBaseUri: string;
    /** The embedded FerretDB's data directory (a database's SQLite files are `<name>.sqlite*`); '' on MONGODB_URI. */
    embeddedDataDir: string;
  }
}

let embedded: EmbeddedDb | undefined;
let dir: string | undefined;

export async function setup(project: TestProject) {
  // The CLI tests run the compiled `relay` (dist/), as users do; build it when missing or stale.
  const built = spawnSync(process.execPath, ['bin/build.mjs'], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error('bin/build.mjs failed: the relay CLI could not be compiled');
  if (process.env.MONGODB_URI) {
    project.provide('mongoBaseUri', process.env.MONGODB_URI);
    project.provide('embeddedDataDir', '');
    return;
  }
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-test-db-'));
  embedded = await startFerretDb({ dataDir: dir });
  project.provide('mongoBaseUri', embedded.uri);
  project.provide('embeddedDataDir', dir);
}

export async function teardown() {
  await embedded?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
}
