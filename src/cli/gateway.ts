// `relay gateway check | dry-run | send`: validate rule files, show what a sample event would set
// off (without doing it), and sign a sample event as a source of any scheme signs and send it to a
// gateway by hand.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Option, type Command } from 'commander';
import type { Source } from '../gateway/sources.ts';
// Names only (types.ts loads no scheme code at run time).
import { SCHEME_NAMES } from '../gateway/schemes/types.ts';
import type { FixtureReport } from '../gateway/rules/fixtures.ts';
import { TOP_LEVEL } from './topLevel.ts';
import { printJson } from './output.ts';

// The rule engine (JSONata) and the intake load only in the commands that use them.
const rulesDir = async () => (await import('../config.ts')).loadConfig().RULES_DIR;
const rules = () => import('../gateway/rules/loader.ts');

function readEventFile(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (err) {
    throw new Error(`cannot read ${file}: ${(err as Error).message}`);
  }
}

/** The event body as an object; a file that is not one is named, since a dry run may be handed many. */
function parseEventFile(file: string, raw: Buffer): Record<string, unknown> {
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch (err) {
    throw new Error(`${file} is not valid JSON: ${(err as Error).message}`);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new Error(`${file} must hold a JSON object (the event body)`);
  return body as Record<string, unknown>;
}

/** `--hmac`: the JSON of a source's `hmac` block, checked as GATEWAY_CONFIG's is. */
async function parseHmacOption(text: string) {
  const { HmacSchema } = await import('../gateway/schemes/hmacConfig.ts');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(`--hmac is not valid JSON: ${(err as Error).message}`);
  }
  const parsed = HmacSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`--hmac${issue.path.length ? `.${issue.path.join('.')}` : ''}: ${issue.message}`);
  }
  return parsed.data;
}

/** The operator is the sender of a dry run: a relay-scheme source with nothing to verify. */
function operatorSource(name: string): Source {
  return { name, scheme: 'relay', secrets: [], toleranceSeconds: 0, hmac: null, allowLegacySecretHeader: false, maxBodyBytes: 0, api: null, resync: { maxAttemptsPerHour: 0 } };
}

/** One line for a person at a terminal; the JSON on stdout stays for scripts. */
export function summarizeFixtures(report: FixtureReport): string {
  const cases = report.passed + report.failed;
  const firsts = [
    ...report.files.filter((f) => f.error).map((f) => `${f.file}: ${f.error}`),
    ...report.files.flatMap((f) => f.cases.filter((c) => !c.passed).map((c) => `${f.file} "${c.name}"`)),
    ...report.missing.map((m) => `${m}: no fixture`),
  ];
  const more = firsts.length > 1 ? ` and ${firsts.length - 1} more` : '';
  const missing = report.missing.length ? `, ${report.missing.length} rule file(s) without a fixture` : '';
  const broken = report.files.filter((f) => f.error).length;
  const errors = broken ? `, ${broken} fixture file(s) not run` : '';
  return `rules test: ${report.files.length} fixture file(s), ${cases} case(s), ${report.passed} passed, ${report.failed} failed${errors}${missing}${firsts.length ? ` (${firsts[0]}${more})` : ''}`;
}

export function registerGatewayCommands(program: Command): void {
  const gateway = program.command('gateway').description(TOP_LEVEL.gateway);

  const check = async (o: { dir?: string }) => {
    const [{ loadConfig }, { loadRuleSet, formatLoadError }, { presentRuleSet }, { loadGatewayConfig }] = await Promise.all([
      import('../config.ts'),
      rules(),
      import('../gateway/presenters.ts'),
      import('../gateway/sources.ts'),
    ]);
    const config = loadConfig();
    const set = loadRuleSet(o.dir ?? config.RULES_DIR);
    for (const e of set.errors) process.stderr.write(`rejected: ${formatLoadError(e)}\n`);
    let sources: string[] | undefined;
    try {
      sources = [...loadGatewayConfig(config.GATEWAY_CONFIG, config.gatewaySecretEnv).sources.keys()];
    } catch (err) {
      process.stderr.write(`warning: sources not checked, GATEWAY_CONFIG cannot be read: ${(err as Error).message}\n`);
    }
    const view = presentRuleSet(set, sources);
    for (const w of view.warnings ?? []) process.stderr.write(`warning: ${formatLoadError(w)}\n`);
    printJson(view);
    if (set.errors.length) process.exitCode = 1;
  };
  const checkHelp = 'validate every rule file in RULES_DIR and warn about rules for sources GATEWAY_CONFIG does not define; exits 1 when a file is rejected';
  gateway.command('check').description(checkHelp).option('--dir <dir>', 'rules folder (default RULES_DIR, ./rules)').action(check);

  const rulesCommand = program.command('rules').description(TOP_LEVEL.rules);
  rulesCommand.command('check').description(checkHelp).option('--dir <dir>', 'rules folder (default RULES_DIR, ./rules)').action(check);
  rulesCommand
    .command('test')
    .description('run each rules/<name>.test.json through the rule engine; exits 1 when a case fails or a rule file has no fixture')
    .option('--dir <dir>', 'rules folder (default RULES_DIR, ./rules)')
    .action(async (o) => {
      const { runRuleFixtures } = await import('../gateway/rules/fixtures.ts');
      const report = await runRuleFixtures(o.dir ?? (await rulesDir()));
      for (const f of report.files) {
        if (f.error) process.stderr.write(`${f.file}: ${f.error}\n`);
        for (const c of f.cases) if (!c.passed) process.stderr.write(`${f.file} "${c.name}":\n  ${c.problems.join('\n  ')}\n`);
      }
      for (const m of report.missing) process.stderr.write(`${m}: no fixture (${m.replace(/\.json$/, '.test.json')})\n`);
      process.stderr.write(`${summarizeFixtures(report)}\n`);
      printJson(report);
      if (report.failed || report.missing.length) process.exitCode = 1;
    });

  gateway
    .command('dry-run')
    .description('print the actions the rules would take for a sample event, without running them')
    .requiredOption('--event <file>', 'JSON file with the event body')
    .option('--source <name>', 'source the event arrives from', 'cli')
    .option('--name <event>', 'event name (default: the body\'s "event", or inferred for sync events)')
    .option('--test', 'mark as a test send (X-Service-Test: true)')
    .option('--dir <dir>', 'rules folder (default RULES_DIR, ./rules)')
    .action(async (o) => {
      const [{ loadConfig }, { readDelivery }, { loadRuleSet, formatLoadError }, { planDelivery }, { loadGatewayConfig }] = await Promise.all([
        import('../config.ts'),
        import('../gateway/intake.ts'),
        rules(),
        import('../gateway/rules/plan.ts'),
        import('../gateway/sources.ts'),
      ]);
      const config = loadConfig();
      const raw = readEventFile(o.event);
      const headers: Record<string, string> = { 'x-service-delivery-id': randomUUID() };
      const body = parseEventFile(o.event, raw);
      if (typeof body.deliveryId === 'string') headers['x-service-delivery-id'] = body.deliveryId;
      if (o.name) headers['x-service-event'] = o.name;
      if (o.test) headers['x-service-test'] = 'true';
      // The operator is the sender here: the facts given on the command line count as signed.
      const now = new Date();
      const incoming = await readDelivery(operatorSource(o.source), headers, raw, config.JSON_MAX_DEPTH, { bodySigned: true, factsSigned: true }, now);
      const set = loadRuleSet(o.dir ?? config.RULES_DIR);
      for (const e of set.errors) process.stderr.write(`rejected: ${formatLoadError(e)}\n`);
      const { vars } = loadGatewayConfig(config.GATEWAY_CONFIG, config.gatewaySecretEnv);
      const plans = await planDelivery(set, {
        payload: incoming.payload,
        headers: incoming.headers,
        source: o.source,
        event: incoming.event,
        test: incoming.test,
        signed: incoming.signed,
        deliveryId: incoming.deliveryId,
        receivedAt: now.toISOString(),
        vars,
      });
      printJson({ source: o.source, event: incoming.event, test: incoming.test, deliveryId: incoming.deliveryId, rules: plans });
    });

  gateway
    .command('send')
    .description('sign a sample event as a source of the given scheme signs, and POST it to a gateway URL')
    .requiredOption('--url <url>', 'gateway URL, e.g. http://127.0.0.1:3000/gateway/relay')
    .requiredOption('--secret <secret>', 'the source secret to sign with (standard-webhooks: the whsec_… secret)')
    .requiredOption('--event <file>', 'JSON file with the event body')
    .addOption(new Option('--scheme <scheme>', 'how to sign, as the source\'s scheme in GATEWAY_CONFIG').choices(SCHEME_NAMES).default('relay'))
    .option('--name <event>', 'the event: relay X-Service-Event (default: the body\'s "event", or inferred for sync events); github X-GitHub-Event (required); stripe and standard-webhooks the body\'s "type"; hmac its eventHeader')
    .option('--delivery-id <id>', 'the delivery id: relay X-Service-Delivery-Id (default: the body\'s, else a new one); github X-GitHub-Delivery; stripe the body\'s "id"; standard-webhooks webhook-id; hmac its idHeader (default: a new one)')
    .option('--test', 'a test send: relay X-Service-Test: true; stripe "livemode": false')
    .option('--hmac <json>', 'with --scheme hmac: the source\'s "hmac" block of GATEWAY_CONFIG, e.g. \'{"header":"X-Signature","algorithm":"sha1"}\'')
    .action(async (o) => {
      const { signSend } = await import('../gateway/schemes/sign.ts');
      if (o.hmac !== undefined && o.scheme !== 'hmac') throw new Error('--hmac goes with --scheme hmac');
      const raw = readEventFile(o.event);
      const payload = parseEventFile(o.event, raw);
      const hmac = o.hmac === undefined ? undefined : await parseHmacOption(o.hmac);
      const { body, headers, deliveryId } = signSend({ scheme: o.scheme, secret: o.secret, raw, payload, deliveryId: o.deliveryId, event: o.name, test: o.test === true, hmac, now: new Date() });
      const res = await fetch(o.url, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(10_000) });
      const text = await res.text();
      let answer: unknown = text;
      try {
        answer = JSON.parse(text);
      } catch {
        // not JSON: print it as text
      }
      printJson({ status: res.status, scheme: o.scheme, deliveryId, response: answer });
      if (!res.ok) process.exitCode = 1;
    });
}
