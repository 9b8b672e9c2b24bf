// Rules as files: validation that names the file and expression, isolation of broken files,
// reload on change, and JSONata's guardrails failing one rule only.
import { afterAll, describe, expect, it } from 'vitest';
import { compileExpression } from '../../src/gateway/rules/expression.ts';
import { loadRuleSet } from '../../src/gateway/rules/loader.ts';
import { planDelivery, type RuleInput } from '../../src/gateway/rules/plan.ts';
import { RuleBook } from '../../src/gateway/rules/watch.ts';
import { createLogger } from '../../src/observability/logger.ts';
import { waitFor } from '../helpers/harness.ts';
import { gatewayFiles } from './support/gatewayFiles.ts';

const logRule = (name: string, extra: Record<string, unknown> = {}) => ({ name, actions: [{ type: 'log', message: `'${name} ran'` }], ...extra });

const input = (payload: unknown, over: Partial<RuleInput> = {}): RuleInput => ({
  payload,
  headers: {},
  source: 'relay',
  event: 'conversation.started',
  test: false,
  signed: { deliveryId: true, event: true, test: true },
  deliveryId: '6f1c1d2e-3b4a-4c5d-8e9f-0a1b2c3d4e5f',
  receivedAt: '2025-05-01T10:00:00.000Z',
  vars: {},
  ...over,
});

describe('rule files', () => {
  it('ships example rules that all load', () => {
    const set = loadRuleSet('rules');
    expect(set.errors).toEqual([]);
    expect(set.rules.map((r) => r.name).sort()).toEqual(['crm-conversation-started', 'email-support-on-escalation', 'github-urgent-issue', 'resync-on-sync-failure', 'stripe-payment-failed']);
  });

  it('rejects a broken file with the file, rule and expression named, and still loads the others', () => {
    const files = gatewayFiles({ sources: {} }, {
      'a-good.json': logRule('good'),
      'b-syntax.json': logRule('syntax', { when: 'payload.x = = 1' }),
      'c-not-json.json': '{ "name": ',
      'd-bad-type.json': { name: 'bad-type', actions: [{ type: 'sms', to: "'x'" }] },
      'e-bad-field.json': { name: 'bad-field', actions: [{ type: 'http', url: "'http://x' &", method: 'POST' }] },
      'f-good-array.json': [logRule('one'), logRule('two')],
      'g-duplicate.json': logRule('good'),
      'h-backreference.json': logRule('backref', { when: '$contains(payload.s, /(a)\\1/)' }),
      'notes.txt': 'ignored',
    });
    const set = loadRuleSet(files.rulesDir);
    expect(set.rules.map((r) => r.name)).toEqual(['good', 'one', 'two']);
    const byFile = Object.fromEntries(set.errors.map((e) => [e.file.split('/').pop(), e]));
    expect(Object.keys(byFile).sort()).toEqual(['b-syntax.json', 'c-not-json.json', 'd-bad-type.json', 'e-bad-field.json', 'g-duplicate.json', 'h-backreference.json']);
    expect(byFile['b-syntax.json']).toMatchObject({ rule: 'syntax' });
    expect(byFile['b-syntax.json']!.message).toContain('when:');
    expect(byFile['b-syntax.json']!.message).toContain('"payload.x = = 1"');
    expect(byFile['c-not-json.json']!.message).toMatch(/not valid JSON/);
    expect(byFile['d-bad-type.json']!.message).toMatch(/actions\.0\.type/);
    expect(byFile['e-bad-field.json']!.message).toContain("actions.0.url");
    expect(byFile['e-bad-field.json']!.message).toContain(`"'http://x' &"`);
    expect(byFile['g-duplicate.json']!.message).toMatch(/already used/);
    expect(byFile['h-backreference.json']!.message).toMatch(/not supported/);
  });

  it('reports a missing rules folder as an error instead of failing', () => {
    const set = loadRuleSet('/nonexistent/relay-rules');
    expect(set.rules).toEqual([]);
    expect(set.errors[0]!.message).toMatch(/unreadable/);
  });

  it('applies sources, events and the when condition, and gives rules the test flag', async () => {
    const files = gatewayFiles({ sources: {} }, {
      'a.json': logRule('escalations-only', { events: ['conversation.escalated'] }),
      'b.json': logRule('other-source', { sources: ['crm'] }),
      'c.json': logRule('tests-only', { when: 'test' }),
      'd.json': logRule('any', { sources: ['*'] }),
    });
    const set = loadRuleSet(files.rulesDir);
    const real = await planDelivery(set, input({}));
    expect(real.map((p) => [p.rule, p.result])).toEqual([
      ['tests-only', 'skipped'],
      ['any', 'matched'],
    ]);
    const test = await planDelivery(set, input({}, { test: true }));
    expect(test.find((p) => p.rule === 'tests-only')!.result).toBe('matched');
  });
});

describe('JSONata guardrails', () => {
  const files = gatewayFiles({ sources: {} }, {
    'a-recursion.json': logRule('recursion', { when: '($f := function($x){ $f($x) + 1 }; $f(1))' }),
    'b-loop.json': logRule('loop', { when: '($f := function($x){ $f($x + 1) }; $f(1))' }),
    'c-range.json': logRule('range', { when: '$count([1..100000000]) > 0' }),
    'd-sequence.json': logRule('sequence', { when: '$count([1..5000000]) > 0' }),
    'e-redos.json': logRule('redos', { when: '$contains(payload.text, /(a+)+$/)' }),
    'f-field.json': { name: 'field-error', actions: [{ type: 'log', message: '$count([1..5000000])' }, { type: 'log', message: "'second action still planned'" }] },
    'z-healthy.json': logRule('healthy'),
  });
  const set = loadRuleSet(files.rulesDir);

  it('fails runaway rules with a recorded error and still runs the healthy one, in bounded time', async () => {
    const started = Date.now();
    const plans = await planDelivery(set, input({ text: `${'a'.repeat(50_000)}b` }));
    expect(Date.now() - started).toBeLessThan(5_000);
    const byRule = Object.fromEntries(plans.map((p) => [p.rule, p]));
    expect(byRule.recursion).toMatchObject({ result: 'error' });
    expect(byRule.recursion!.error).toMatch(/D1011/);
    expect(byRule.loop!.error).toMatch(/STEPS: Evaluation took more than 10000 steps/);
    expect(byRule.range!.error).toMatch(/D2014/);
    expect(byRule.sequence!.error).toMatch(/D2015/);
    // The catastrophic-backtracking regex runs in linear time and simply does not match.
    expect(byRule.redos).toMatchObject({ result: 'skipped', error: null });
    expect(byRule['field-error']!.actions.map((a) => [a.error?.slice(0, 26) ?? null, a.spec])).toEqual([
      ['actions.0.message: D2015: ', null],
      [null, { level: 'info', message: 'second action still planned' }],
    ]);
    expect(byRule.healthy).toMatchObject({ result: 'matched' });
  });
});

describe('rule reload', () => {
  const books: RuleBook[] = [];
  afterAll(() => books.forEach((b) => b.close()));

  it('picks up a new, changed and removed file without a restart, keeping good files when one breaks', async () => {
    const files = gatewayFiles({ sources: {} }, { 'a.json': logRule('first') });
    const book = new RuleBook(files.rulesDir, createLogger('silent'), 20);
    books.push(book);
    book.watch();
    expect(book.rules.rules.map((r) => r.name)).toEqual(['first']);

    files.writeRule('b.json', logRule('second'));
    await waitFor(() => book.rules.rules.length === 2);

    files.writeRule('a.json', '{ broken');
    await waitFor(() => book.rules.errors.length === 1);
    expect(book.rules.rules.map((r) => r.name)).toEqual(['second']);

    files.writeRule('a.json', logRule('first-again'));
    await waitFor(() => book.rules.rules.some((r) => r.name === 'first-again'));
    expect(book.rules.errors).toEqual([]);
  });

  it('warns, naming file, rule and source, about a rule for a source GATEWAY_CONFIG does not define', () => {
    const files = gatewayFiles({ sources: {} }, { 'a.json': { ...logRule('for-stripe'), sources: ['github', 'stripe', '*'] } });
    const lines: Record<string, unknown>[] = [];
    const logger = createLogger('warn', { write: (line: string) => void lines.push(JSON.parse(line)) });
    const book = new RuleBook(files.rulesDir, logger, 100, () => ['github']);
    expect(book.rules.rules.map((r) => r.name)).toEqual(['for-stripe']);
    expect(lines).toEqual([
      expect.objectContaining({ level: 40, file: `${files.rulesDir}/a.json`, rule: 'for-stripe', source: 'stripe', msg: expect.stringMatching(/a\.json \(rule for-stripe\): source "stripe" is not configured/) }),
    ]);
  });

  it('reloads on demand', () => {
    const files = gatewayFiles({ sources: {} }, {});
    const book = new RuleBook(files.rulesDir, createLogger('silent'));
    expect(book.rules.rules).toEqual([]);
    files.writeRule('a.json', logRule('on-demand'));
    expect(book.reload().rules.map((r) => r.name)).toEqual(['on-demand']);
  });
});

describe('the step limit', () => {
  it('counts steps per evaluation, so the same expression passes or fails whatever the load and however evaluations interleave', async () => {
    const within = compileExpression('$count([1..2000].($ * 2))');
    const beyond = compileExpression('$count([1..3000].($ * 2))');
    // Ten evaluations at once: each keeps its own count (a shared one would fail them all).
    expect(await Promise.all(Array.from({ length: 10 }, () => within.evaluate({})))).toEqual(Array(10).fill(2000));
    for (let i = 0; i < 3; i++) await expect(beyond.evaluate({})).rejects.toThrow(/STEPS: Evaluation took more than 10000 steps/);
  });
});
