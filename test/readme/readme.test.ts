// The README as a newcomer reads it: its quick start keeps to two commands, and its shell section
// runs as written (bash, curl, jq) against a server started on a non-default port, with only PORT
// exported, as its Configuration section says; and that section names what an operator changes.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { databaseUri, TEST_ADMIN_TOKEN, uniqueDatabaseName } from '../helpers/harness.ts';
import { startServiceProcess, type ServiceProcess } from '../helpers/process.ts';

const run = promisify(execFile);
const readme = fs.readFileSync('README.md', 'utf8');

/** The first ```sh block after a heading. */
function shellBlock(heading: string): string {
  const section = readme.slice(readme.indexOf(`## ${heading}`));
  const match = /```sh\n([\s\S]*?)```/.exec(section);
  if (!match) throw new Error(`no sh block under "${heading}"`);
  return match[1]!;
}

describe('README', () => {
  let svc: ServiceProcess | undefined;
  afterAll(async () => {
    svc?.child.kill('SIGTERM');
    await svc?.exited;
  });

  it('keeps the quick start to two command lines', () => {
    const lines = shellBlock('Quick start').split('\n').filter((l) => l.trim() !== '');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^npm ci && npm start/);
  });

  it('names the ports, the data folder, .env.example and the health endpoints in a Configuration section', () => {
    const section = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('\n## ', readme.indexOf('## Configuration') + 3));
    for (const name of ['PORT', 'EMBEDDED_DB_PORT', 'DATA_DIR', '.env.example', '/healthz', '/readyz']) expect(section).toContain(name);
    // What it names exists.
    const example = fs.readFileSync('.env.example', 'utf8');
    for (const name of ['PORT', 'EMBEDDED_DB_PORT', 'DATA_DIR']) expect(example).toMatch(new RegExp(`^# ${name}=`, 'm'));
  });

  it('runs the shell section as written: bootstrap, a data source, a row, a sync and an answer from it', { timeout: 300_000 }, async () => {
    const uri = databaseUri(uniqueDatabaseName());
    svc = startServiceProcess({ MONGODB_URI: uri, ADMIN_TOKEN: TEST_ADMIN_TOKEN, JOB_PROCESS_EVERY_MS: '100' });
    const { port } = await svc.waitForLog((l) => typeof l.port === 'number', 180_000);
    expect(port).not.toBe(3000);
    const script = shellBlock('The same from a shell');
    expect(script).toContain('npx relay bootstrap');
    expect(script).not.toContain(':3000/');

    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', script], {
      env: { ...process.env, MONGODB_URI: uri, PORT: String(port), LOG_LEVEL: 'silent' },
      timeout: 200_000,
    });
    // Each curl prints one compact JSON object with no newline after it; the last is the answer.
    const replies = JSON.parse(`[${stdout.trim().replaceAll('}{', '},{')}]`);
    expect(replies.slice(0, -1)).toEqual([{ success: true }, { success: true }]);
    const answer = replies.at(-1);
    expect(answer).toMatchObject({ success: true, conversationId: expect.any(String), sources: [expect.objectContaining({ rowId: expect.any(String) })] });
    expect(answer.response).toContain('30 days');
  });
});
