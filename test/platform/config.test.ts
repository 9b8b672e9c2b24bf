// Configuration is validated once at start, with errors that name the variable.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { resolvePlanLimits, DEFAULT_PLAN_LIMITS } from '../../src/plans.ts';

describe('configuration', () => {
  it('applies documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ ROLE: 'all', PORT: 3000, BODY_LIMIT: '1mb', OUTBOUND_ALLOW_PRIVATE: false, OUTBOUND_TIMEOUT_MS: 10_000, REQUEST_TIMEOUT_MS: 120_000, RETENTION_DAYS: 30 });
  });

  it('names the variable that is wrong', () => {
    expect(() => loadConfig({ ROLE: 'boss' })).toThrow(/ROLE/);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ MONGODB_URI: 'not a url' })).toThrow(/MONGODB_URI/);
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '50' })).toThrow(/REQUEST_TIMEOUT_MS/);
  });

  it('refuses a job lock lifetime that is not well above the 10 s delivery timeout', () => {
    expect(() => loadConfig({ JOB_LOCK_LIFETIME_MS: '10000' })).toThrow(ConfigError);
    expect(() => loadConfig({ JOB_LOCK_LIFETIME_MS: '10000' })).toThrow(/JOB_LOCK_LIFETIME_MS/);
    expect(loadConfig({ JOB_LOCK_LIFETIME_MS: '30000' }).JOB_LOCK_LIFETIME_MS).toBe(30_000);
  });

  it('lowers the lock floor with a shorter outbound timeout, to three times it and never under 15 s', () => {
    expect(loadConfig({ OUTBOUND_TIMEOUT_MS: '5000', JOB_LOCK_LIFETIME_MS: '15000' }).lockLifetimeFloorMs).toBe(15_000);
    expect(() => loadConfig({ OUTBOUND_TIMEOUT_MS: '5000', JOB_LOCK_LIFETIME_MS: '14000' })).toThrow(/at least 15000 ms/);
    expect(() => loadConfig({ OUTBOUND_TIMEOUT_MS: '1000', JOB_LOCK_LIFETIME_MS: '10000' })).toThrow(/at least 15000 ms/);
    expect(loadConfig({ OUTBOUND_TIMEOUT_MS: '8000', JOB_LOCK_LIFETIME_MS: '24000' }).lockLifetimeFloorMs).toBe(24_000);
    // A longer timeout keeps the 30 s floor an operator could always set.
    expect(loadConfig({ OUTBOUND_TIMEOUT_MS: '20000', JOB_LOCK_LIFETIME_MS: '30000' }).lockLifetimeFloorMs).toBe(30_000);
  });

  it('requires a model name when a model server is configured', () => {
    expect(() => loadConfig({ OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' })).toThrow(/OPENAI_MODEL/);
  });

  it('takes an embedding model alone on a model server, and refuses one without a server', () => {
    expect(loadConfig({ OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', EMBEDDING_MODEL: 'nomic-embed-text' }).EMBEDDING_BATCH_SIZE).toBe(64);
    expect(() => loadConfig({ EMBEDDING_MODEL: 'nomic-embed-text' })).toThrow(/OPENAI_BASE_URL: required when EMBEDDING_MODEL is set/);
  });

  it('takes a similarity floor for vector hits between -1 and 1, 0.3 by default', () => {
    expect(loadConfig({}).EMBEDDING_MIN_SIMILARITY).toBe(0.3);
    expect(loadConfig({ EMBEDDING_MIN_SIMILARITY: '0.55' }).EMBEDDING_MIN_SIMILARITY).toBe(0.55);
    expect(loadConfig({ EMBEDDING_MIN_SIMILARITY: '-1' }).EMBEDDING_MIN_SIMILARITY).toBe(-1);
    for (const bad of ['1.5', '-2', 'high']) expect(() => loadConfig({ EMBEDDING_MIN_SIMILARITY: bad })).toThrow(/EMBEDDING_MIN_SIMILARITY/);
  });

  it('overrides plan limits from PLAN_LIMITS_JSON and keeps the other defaults', () => {
    const limits = resolvePlanLimits('{"pro":{"dataSourcesPerBot":99}}');
    expect(limits.pro).toEqual({ ...DEFAULT_PLAN_LIMITS.pro, dataSourcesPerBot: 99 });
    expect(limits.standard).toEqual(DEFAULT_PLAN_LIMITS.standard);
    expect(() => resolvePlanLimits('{"gold":{}}')).toThrow();
    expect(() => loadConfig({ PLAN_LIMITS_JSON: '{"pro":{"chatTokens":-1}}' })).toThrow(/PLAN_LIMITS_JSON/);
  });
});
