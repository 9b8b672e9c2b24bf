// Prometheus metrics (prom-client). One registry per process; domains add their own counters here
// so /metrics lists everything in one place.
import { Registry, collectDefaultMetrics, Counter, Histogram, Gauge } from 'prom-client';

export const registry = new Registry();
collectDefaultMetrics({ register: registry });

export const httpRequests = new Counter({
  name: 'relay_http_requests_total',
  help: 'HTTP requests by route and status',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});

export const httpDuration = new Histogram({
  name: 'relay_http_request_duration_seconds',
  help: 'HTTP request latency by route',
  labelNames: ['method', 'route'] as const,
  buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
  registers: [registry],
});

export const deliveries = new Counter({
  name: 'relay_webhook_deliveries_total',
  help: 'Outgoing webhook delivery attempts by outcome, attempt number and whether it was a test send',
  labelNames: ['outcome', 'attempt', 'test'] as const,
  registers: [registry],
});

export const syncs = new Counter({
  name: 'relay_syncs_total',
  help: 'Data source syncs by outcome',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

export const gatewayDeliveries = new Counter({
  name: 'relay_gateway_deliveries_total',
  help: 'Gateway intake by source and result (accepted, duplicate, rejected)',
  labelNames: ['source', 'result'] as const,
  registers: [registry],
});

export const ruleOutcomes = new Counter({
  name: 'relay_gateway_rule_actions_total',
  help: 'Gateway rule actions by rule, action type and outcome',
  labelNames: ['rule', 'action', 'outcome'] as const,
  registers: [registry],
});

export const tokensUsed = new Counter({
  name: 'relay_tokens_used_total',
  help: 'Storage and chat tokens charged to teams',
  labelNames: ['kind'] as const,
  registers: [registry],
});

export const queueDepth = new Gauge({
  name: 'relay_job_queue_depth',
  help: 'Jobs due but not yet running, by job name',
  labelNames: ['job'] as const,
  registers: [registry],
});

export const jobLag = new Gauge({
  name: 'relay_job_lag_seconds',
  help: 'Age of the oldest job that is due and not yet running, by job name (0 when none waits)',
  labelNames: ['job'] as const,
  registers: [registry],
});

/** Route-level HTTP metrics; uses the matched route pattern so ids do not explode cardinality. */
export async function httpMetrics(ctx: { method: string; status: number; _matchedRoute?: string | RegExp }, next: () => Promise<unknown>) {
  const end = httpDuration.startTimer();
  try {
    await next();
  } finally {
    const route = String(ctx._matchedRoute ?? 'unmatched');
    end({ method: ctx.method, route });
    httpRequests.inc({ method: ctx.method, route, status: String(ctx.status) });
  }
}
