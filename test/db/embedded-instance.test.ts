// One data directory, one database (issue 35): the embedded FerretDB is reused only by the install
// that started it (the CLI beside `npm start`); another DATA_DIR on the same EMBEDDED_DB_PORT is
// refused with one line naming the variable. The data folder and its files are owner-only (F1).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { EmbeddedDbUnavailable, freePort, type EmbeddedDb } from '../../src/db/ferretdb.ts';
import { resolveDatabase } from '../../src/db/resolve.ts';

const dirs: string[] = [];
const started: EmbeddedDb[] = [];
afterAll(async () => {
  for (const db of started) await db.stop();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

const tempDir = (name: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `relay-${name}-`));
  dirs.push(dir);
  return path.join(dir, 'data');
};
const configFor = (dataDir: string, port: number) => loadConfig({ DATA_DIR: dataDir, EMBEDDED_DB_PORT: String(port) });
const modeOf = (file: string) => (fs.statSync(file).mode & 0o777).toString(8);

describe('the embedded database of a data directory', () => {
  it('is reused by the same DATA_DIR, refused to another one, and kept owner-only', async () => {
    const port = await freePort();
    const first = tempDir('first');
    const lines: string[] = [];
    const db = await resolveDatabase(configFor(first, port), (l) => lines.push(l));
    expect(db.embedded).toBeDefined();
    started.push(db.embedded!);

    // The CLI (or a restarted server) of the same data directory talks to the running instance.
    const again = await resolveDatabase(configFor(first, port), (l) => lines.push(l));
    expect(again).toEqual({ uri: db.uri });
    expect(lines.at(-1)).toContain(`already running on port ${port}`);

    // A second install with its own DATA_DIR on the same port: refused, saying whose it is and what to set.
    const second = tempDir('second');
    const refused = await resolveDatabase(configFor(second, port), () => {}).catch((err) => err);
    expect(refused).toBeInstanceOf(EmbeddedDbUnavailable);
    expect(refused.message).not.toContain('\n');
    expect(refused.message).toContain(`EMBEDDED_DB_PORT ${port}`);
    expect(refused.message).toContain(fs.realpathSync(first));
    expect(refused.message).toMatch(/set EMBEDDED_DB_PORT to a free port/);

    // F1: a fresh data folder and everything the database wrote in it are the owner's alone.
    expect(modeOf(first)).toBe('700');
    const dbDir = path.join(first, 'db');
    expect(modeOf(dbDir)).toBe('700');
    const files = fs.readdirSync(dbDir);
    expect(files.some((f) => f.endsWith('.sqlite'))).toBe(true);
    for (const file of files) expect([file, modeOf(path.join(dbDir, file))]).toEqual([file, fs.statSync(path.join(dbDir, file)).isDirectory() ? '700' : '600']);
    expect(files).toContain('ferretdb.lock');
  });

  it('refuses a port taken by something that is not an embedded database', async () => {
    const net = await import('node:net');
    const squatter = net.createServer((s) => s.destroy());
    await new Promise<void>((r) => squatter.listen(0, '127.0.0.1', r));
    const port = (squatter.address() as import('node:net').AddressInfo).port;
    try {
      const refused = await resolveDatabase(configFor(tempDir('squatted'), port), () => {}).catch((err) => err);
      expect(refused).toBeInstanceOf(EmbeddedDbUnavailable);
      expect(refused.message).toMatch(new RegExp(`EMBEDDED_DB_PORT ${port} is in use by .*; set EMBEDDED_DB_PORT to a free port`));
    } finally {
      squatter.close();
    }
  });
});
