// Issue 19, "Rule tests as files": every shipped rule has rules/<name>.test.json, and its cases
// pass through the real rule engine (loader + planning); a fixture that no longer matches its rule
// fails, naming the case and the difference, in the library and through `relay rules test`.
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { matches, runRuleFixtures } from '../../src/gateway/rules/fixtures.ts';
import { gatewayFiles } from './support/gatewayFiles.ts';

const run = promisify(execFile);
const relay = (args: string[]) =>
  run('node', ['bin/relay.js', ...args], { env: { ...process.env, LOG_LEVEL: 'silent' } }).then(
    (r) => ({ code: 0, ...r }),
    (err) => err as { code: number; stdout: string; stderr: string },
  );

const rule = { name: 'greet', events: ['hello'], when: 'payload.n > 1', actions: [{ type: 'log', message: "'n=' & $string(payload.n)" }] };
const delivery = (n: number) => ({ event: 'hello', payload: { n } });

describe('rule fixtures', () => {
  it('every shipped rule has a fixture and every case passes', async () => {
    const report = await runRuleFixtures('rules');
    const ruleFiles = readdirSync('rules').filter((n) => n.endsWith('.json') && !n.endsWith('.test.json'));
    expect(report.missing).toEqual([]);
    expect(report.files.map((f) => f.rules).sort()).toEqual(ruleFiles.map((n) => `rules/${n}`).sort());
    expect(report.files.filter((f) => f.error)).toEqual([]);
    expect(report.files.flatMap((f) => f.cases.filter((c) => !c.passed))).toEqual([]);
    expect(report.failed).toBe(0);
    expect(report.passed).toBeGreaterThanOrEqual(ruleFiles.length * 2);
  });

  it('fails a case whose actions differ, a missing fixture and a fixture without its rule file', async () => {
    const files = gatewayFiles({ sources: {} }, {
      'greet.json': rule,
      'greet.test.json': {
        cases: [
          { name: 'ok', delivery: delivery(2), actions: [{ type: 'log', spec: { message: 'n=2' } }] },
          { name: 'wrong text', delivery: delivery(3), actions: [{ type: 'log', spec: { message: 'n=4' } }] },
          { name: 'expects none', delivery: delivery(5), actions: [] },
          { name: 'wrong type', delivery: delivery(6), actions: [{ type: 'email' }] },
        ],
      },
      'untested.json': { ...rule, name: 'untested' },
      'orphan.test.json': { cases: [{ name: 'x', delivery: delivery(1), actions: [] }] },
    });
    const report = await runRuleFixtures(files.rulesDir);
    expect(report.missing).toEqual([`${files.rulesDir}/untested.json`]);
    const greet = report.files.find((f) => f.file.endsWith('greet.test.json'))!;
    expect(greet.cases.map((c) => [c.name, c.passed])).toEqual([
      ['ok', true],
      ['wrong text', false],
      ['expects none', false],
      ['wrong type', false],
    ]);
    expect(greet.cases[1]!.problems[0]).toMatch(/"message":"n=3".*does not match.*"n=4"/);
    expect(greet.cases[2]!.problems[0]).toMatch(/expected 0 action\(s\), the rules produced 1/);
    expect(report.files.find((f) => f.file.endsWith('orphan.test.json'))!.error).toMatch(/no rule file orphan\.json/);
    expect(report.failed).toBe(4);
  });

  it('matches objects by the keys expected and arrays in full', () => {
    expect(matches({ a: 1, b: { c: [1, 2], d: 'x' } }, { b: { c: [1, 2] } })).toBe(true);
    expect(matches({ a: [1, 2, 3] }, { a: [1, 2] })).toBe(false);
    expect(matches({ a: null }, { a: undefined })).toBe(false);
    expect(matches('1', 1)).toBe(false);
  });

  it('relay rules test exits 0 on the shipped rules and 1 naming a failing case', async () => {
    const ok = await relay(['rules', 'test', '--dir', 'rules']);
    expect(ok.code).toBe(0);
    const okReport = JSON.parse(ok.stdout);
    expect(okReport.failed).toBe(0);
    const okLines = ok.stderr.trim().split('\n');
    expect(okLines).toEqual([`rules test: ${okReport.files.length} fixture file(s), ${okReport.passed} case(s), ${okReport.passed} passed, 0 failed`]);
    const files = gatewayFiles({ sources: {} }, { 'greet.json': rule, 'greet.test.json': { cases: [{ name: 'wrong text', delivery: delivery(3), actions: [{ type: 'log', spec: { message: 'n=4' } }] }] } });
    const bad = await relay(['rules', 'test', '--dir', files.rulesDir]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/greet\.test\.json "wrong text"/);
    expect(JSON.parse(bad.stdout).failed).toBe(1);
    expect(bad.stderr.trim().split('\n').at(-1)).toMatch(/^rules test: 1 fixture file\(s\), 1 case\(s\), 0 passed, 1 failed \(.*greet\.test\.json "wrong text"\)$/);
  });
});
