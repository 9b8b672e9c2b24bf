// Rule tests as files (issue 19): `rules/<name>.test.json` holds deliveries for the rules of
// `rules/<name>.json` and the actions each must produce. They run through the real rule engine
// (loader + planDelivery, the job's own planning) with nothing sent; `relay rules test` and
// test/gateway/rule-fixtures.test.ts run them, so CI fails when a rule drifts from its examples.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { loadRuleFile, type RuleSet } from './loader.ts';
import { inferEventName } from '../schemes/common.ts';
import { planDelivery, type RuleInput } from './plan.ts';

export const FIXTURE_SUFFIX = '.test.json';

const ExpectedActionSchema = z.strictObject({
  /** The rule that produced it (default: any rule of the file). */
  rule: z.string().optional(),
  type: z.enum(['email', 'http', 'resync', 'log']),
  /** Fields the evaluated spec must have (objects match by the keys given, arrays in full). */
  spec: z.record(z.string(), z.unknown()).optional(),
  /** A substring of the planning error the action must fail with. */
  error: z.string().optional(),
});

const CaseSchema = z.strictObject({
  name: z.string().min(1),
  delivery: z.strictObject({
    source: z.string().default('relay'),
    /** The event the intake settled on (default: as the intake infers it from the payload: its `event`, a sync result's shape, else `unknown`). */
    event: z.string().optional(),
    test: z.boolean().default(false),
    signed: z.strictObject({ deliveryId: z.boolean(), event: z.boolean(), test: z.boolean() }).default({ deliveryId: true, event: true, test: true }),
    deliveryId: z.string().default('00000000-0000-4000-8000-000000000000'),
    receivedAt: z.string().default('2026-01-01T00:00:00.000Z'),
    headers: z.record(z.string(), z.string()).default({}),
    payload: z.record(z.string(), z.unknown()),
  }),
  /** GATEWAY_CONFIG `vars` as the rules should see them (fixtures never read the real config). */
  vars: z.record(z.string(), z.string()).default({}),
  /** Every action the delivery must produce, in order; `[]` means none. */
  actions: z.array(ExpectedActionSchema),
});

const FixtureFileSchema = z.strictObject({ cases: z.array(CaseSchema).min(1) });

export interface CaseResult {
  name: string;
  passed: boolean;
  problems: string[];
}

export interface FixtureFileResult {
  file: string;
  rules: string;
  cases: CaseResult[];
  /** The fixture file itself could not be read or its rule file not loaded. */
  error: string | null;
}

export interface FixtureReport {
  passed: number;
  failed: number;
  files: FixtureFileResult[];
  /** Rule files without a fixture next to them. */
  missing: string[];
}

/** `expected` holds for `actual`: objects by the keys expected, arrays element by element and in full. */
export function matches(actual: unknown, expected: unknown): boolean {
  if (Array.isArray(expected)) return Array.isArray(actual) && actual.length === expected.length && expected.every((e, i) => matches(actual[i], e));
  if (expected && typeof expected === 'object') {
    if (!actual || typeof actual !== 'object' || Array.isArray(actual)) return false;
    return Object.entries(expected).every(([k, v]) => matches((actual as Record<string, unknown>)[k], v));
  }
  return Object.is(actual, expected);
}

type Case = z.infer<typeof CaseSchema>;

async function runCase(loaded: RuleSet, c: Case): Promise<CaseResult> {
  const d = c.delivery;
  const input: RuleInput = {
    payload: d.payload,
    headers: Object.fromEntries(Object.entries(d.headers).map(([k, v]) => [k.toLowerCase(), v])),
    source: d.source,
    event: d.event ?? inferEventName(d.payload),
    test: d.test,
    signed: d.signed,
    deliveryId: d.deliveryId,
    receivedAt: d.receivedAt,
    vars: c.vars,
  };
  const plans = await planDelivery(loaded, input);
  const problems = plans.filter((p) => p.result === 'error').map((p) => `rule ${p.rule}: ${p.error}`);
  const produced = plans.flatMap((p) => p.actions.map((a) => ({ rule: p.rule, ...a })));
  if (produced.length !== c.actions.length) problems.push(`expected ${c.actions.length} action(s), the rules produced ${produced.length}: ${JSON.stringify(produced)}`);
  c.actions.forEach((want, i) => {
    const got = produced[i];
    if (!got) return;
    const where = `action ${i} (${got.rule} ${got.type})`;
    if (want.rule !== undefined && want.rule !== got.rule) problems.push(`${where}: expected rule ${want.rule}`);
    if (want.type !== got.type) problems.push(`${where}: expected type ${want.type}`);
    if (want.error !== undefined) {
      if (!got.error?.includes(want.error)) problems.push(`${where}: expected an error containing ${JSON.stringify(want.error)}, got ${JSON.stringify(got.error)}`);
    } else if (got.error) problems.push(`${where}: ${got.error}`);
    if (want.spec !== undefined && !matches(got.spec, want.spec)) problems.push(`${where}: spec ${JSON.stringify(got.spec)} does not match ${JSON.stringify(want.spec)}`);
  });
  return { name: c.name, passed: problems.length === 0, problems };
}

async function runFile(dir: string, fixture: string): Promise<FixtureFileResult> {
  const file = path.join(dir, fixture);
  const rules = path.join(dir, fixture.slice(0, -FIXTURE_SUFFIX.length) + '.json');
  const result: FixtureFileResult = { file, rules, cases: [], error: null };
  try {
    if (!existsSync(rules)) throw new Error(`no rule file ${path.basename(rules)} next to it`);
    const parsed = FixtureFileSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new Error(`${issue.path.join('.') || 'fixture'}: ${issue.message}`);
    }
    // Loaded once for all its cases, as the gateway holds a loaded file.
    const loaded: RuleSet = { dir, rules: loadRuleFile(rules), errors: [], loadedAt: new Date(0) };
    for (const c of parsed.data.cases) result.cases.push(await runCase(loaded, c));
  } catch (err) {
    result.error = (err as Error).message;
  }
  return result;
}

/** Runs every fixture of a rules folder; a rule file without a fixture is reported as missing. */
export async function runRuleFixtures(dir: string): Promise<FixtureReport> {
  const names = readdirSync(dir).filter((n) => n.endsWith('.json')).sort();
  const fixtures = names.filter((n) => n.endsWith(FIXTURE_SUFFIX));
  const ruleFiles = names.filter((n) => !n.endsWith(FIXTURE_SUFFIX));
  const report: FixtureReport = { passed: 0, failed: 0, files: [], missing: [] };
  for (const rule of ruleFiles) if (!fixtures.includes(rule.slice(0, -'.json'.length) + FIXTURE_SUFFIX)) report.missing.push(path.join(dir, rule));
  for (const fixture of fixtures) {
    const result = await runFile(dir, fixture);
    report.files.push(result);
    if (result.error) report.failed++;
    for (const c of result.cases) c.passed ? report.passed++ : report.failed++;
  }
  return report;
}
