// What the admin API shows of deliveries, outcomes and rules. Header values that authenticate
// (Authorization, API keys, tokens) in an http action's spec are masked.
import type { DeliveryRecord } from './service.ts';
import type { ActionOutcome, RuleOutcome } from './model.ts';
import type { RuleSet } from './rules/loader.ts';
import type { Source } from './sources.ts';

const SENSITIVE_HEADER = /authorization|cookie|secret|token|api[-_]?key|password/i;

function maskSpec(spec: Record<string, unknown>): Record<string, unknown> {
  const headers = spec.headers as Record<string, string> | undefined;
  if (!headers) return spec;
  return { ...spec, headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, SENSITIVE_HEADER.test(k) ? '[redacted]' : v])) };
}

function presentAction(a: ActionOutcome) {
  return {
    id: a._id,
    index: a.index,
    type: a.type,
    status: a.status,
    attempts: a.attempts,
    error: a.error ?? null,
    result: a.result ?? null,
    spec: maskSpec(a.spec as Record<string, unknown>),
    createdAt: a.createdAt.toISOString(),
    finishedAt: a.finishedAt ? a.finishedAt.toISOString() : null,
  };
}

function presentRule(r: RuleOutcome, actions: ActionOutcome[]) {
  return {
    run: r.run,
    rule: r.rule,
    file: r.file,
    result: r.result,
    error: r.error ?? null,
    evaluatedAt: r.evaluatedAt.toISOString(),
    actions: actions.filter((a) => a.run === r.run && a.rule === r.rule).map(presentAction),
  };
}

export function presentDelivery(record: DeliveryRecord, opts: { body?: boolean } = {}) {
  const d = record.delivery;
  return {
    id: d.id,
    source: d.source,
    deliveryId: d.deliveryId,
    event: d.event,
    test: d.test,
    signed: { deliveryId: d.signed.deliveryId, event: d.signed.event, test: d.signed.test },
    receivedAt: d.receivedAt.toISOString(),
    run: d.run,
    processedRun: d.processedRun,
    processedAt: d.processedAt ? d.processedAt.toISOString() : null,
    // Null only for a delivery whose body is not stored (service.ts, bodyOf).
    ...(opts.body ? { headers: record.body?.headers ?? null, body: record.body?.rawBody.toString('utf8') ?? null } : {}),
    rules: record.rules.map((r) => presentRule(r, record.actions)),
  };
}

export function presentRuleSet(set: RuleSet) {
  return {
    dir: set.dir,
    loadedAt: set.loadedAt.toISOString(),
    rules: set.rules.map((r) => ({
      name: r.name,
      file: r.file,
      enabled: r.definition.enabled,
      sources: r.definition.sources ?? ['*'],
      events: r.definition.events ?? ['*'],
      actions: r.definition.actions.map((a) => a.type),
    })),
    errors: set.errors,
  };
}

/** A configured source as the admin API shows it: how it verifies, never its secrets (only how many). */
export const presentSource = (s: Source) => ({
  name: s.name,
  scheme: s.scheme,
  secrets: s.secrets.length,
  toleranceSeconds: s.toleranceSeconds,
  allowLegacySecretHeader: s.allowLegacySecretHeader,
  maxBodyBytes: s.maxBodyBytes,
  hmac: s.hmac
    ? {
        header: s.hmac.header,
        algorithm: s.hmac.algorithm,
        encoding: s.hmac.encoding,
        prefix: s.hmac.prefix,
        timestampHeader: s.hmac.timestampHeader,
        idHeader: s.hmac.idHeader,
        idPath: s.hmac.idPath?.text ?? null,
        eventHeader: s.hmac.eventHeader,
        eventPath: s.hmac.eventPath?.text ?? null,
      }
    : null,
  resyncApi: s.api ? { baseUrl: s.api.baseUrl, channelId: s.api.channelId } : null,
});
