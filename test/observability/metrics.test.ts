// /metrics exposes HTTP, job and domain series in the Prometheus text format.
import { describe, expect, it } from 'vitest';
import { useTestRuntime, waitFor } from '../helpers/harness.ts';

describe('/metrics', () => {
  const rt = useTestRuntime();

  it('counts requests by matched route and status', async () => {
    await rt.http().get('/healthz');
    const res = await rt.http().get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/plain/);
    expect(res.text).toMatch(/relay_http_requests_total\{method="GET",route="\/healthz",status="200"\} \d+/);
    expect(res.text).toContain('relay_http_request_duration_seconds_bucket');
  });

  it('reports queue depth and lag of due jobs that no worker has taken', async () => {
    // Nobody defines this job, so it stays due: one waiting, about a minute late.
    await rt.runtime.ctx.jobs.schedule(new Date(Date.now() - 60_000), 'metrics.unprocessed', {});
    const res = await rt.http().get('/metrics');
    expect(res.text).toMatch(/relay_job_queue_depth\{job="metrics.unprocessed"\} 1\n/);
    const lag = Number(/relay_job_lag_seconds\{job="metrics.unprocessed"\} ([\d.]+)/.exec(res.text)?.[1]);
    expect(lag).toBeGreaterThanOrEqual(59);
  });
});
