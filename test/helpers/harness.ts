// Per-file test runtime: a fresh database, the real runtime and the Koa app, torn down after the file.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, inject } from 'vitest';
import request from 'supertest';
import mongoose from 'mongoose';
import type Koa from 'koa';
import { loadConfig, type Config } from '../../src/config.ts';
import { createLogger, type Logger } from '../../src/observability/logger.ts';
import { createRuntime, type Runtime } from '../../src/runtime.ts';
import { createApp } from '../../src/app.ts';
import type { Clock } from '../../src/clock.ts';
import type { DomainModule } from '../../src/module.ts';

const runFile = promisify(execFile);

export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789';

export function databaseUri(name: string): string {
  const url = new URL(inject('mongoBaseUri'));
  url.pathname = `/${name}`;
  return url.toString();
}

export function uniqueDatabaseName(): string {
  return `relay_test_${randomBytes(6).toString('hex')}`;
}

export interface TestRuntime {
  runtime: Runtime;
  app: Koa;
  config: Config;
  uri: string;
  http(): ReturnType<typeof request>;
}

export interface TestRuntimeOptions {
  env?: Record<string, string>;
  /** Start the Agenda worker (default true). */
  worker?: boolean;
  clock?: Clock;
  logger?: Logger;
  modules?: DomainModule[];
  /** Ask the driver for command events (`commandStarted`), to count what a path sends, Agenda's commands included. */
  monitorCommands?: boolean;
}

export function testConfig(env: Record<string, string> = {}, uri?: string): Config {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    OUTBOUND_ALLOW_PRIVATE: 'true',
    JOB_PROCESS_EVERY_MS: '100',
    // The fleet's heartbeat would add database calls at random points of the tests that count them;
    // tests of the fleet drive its poll themselves (InstanceRegistry.tick).
    FLEET_POLL_MS: '3600000',
    DATA_DIR: `/tmp/relay-test-data-${process.pid}`,
    ...(uri ? { MONGODB_URI: uri } : {}),
    ...env,
  });
}

/** Registers beforeAll/afterAll hooks; the returned object is filled in before the first test. */
export function useTestRuntime(opts: TestRuntimeOptions = {}): TestRuntime {
  const state = {} as TestRuntime;
  beforeAll(async () => {
    const url = new URL(databaseUri(uniqueDatabaseName()));
    if (opts.monitorCommands) url.searchParams.set('monitorCommands', 'true');
    const uri = url.toString();
    const config = testConfig(opts.env, uri);
    const logger = opts.logger ?? createLogger(config.LOG_LEVEL);
    const runtime = await createRuntime({ config, logger, uri, clock: opts.clock, modules: opts.modules });
    if (opts.worker !== false) await runtime.startWorker();
    const app = createApp(runtime.ctx, runtime.modules);
    const callback = app.callback();
    Object.assign(state, { runtime, app, config, uri, http: () => request(callback) });
  });
  afterAll(async () => {
    if (!state.runtime) return;
    await mongoose.connection.db?.dropDatabase().catch(() => undefined);
    await state.runtime.shutdown();
  });
  return state;
}

/** Polls `check` until it returns a truthy value; no fixed sleeps in tests. */
export async function waitFor<T>(check: () => Promise<T | undefined | null | false> | T | undefined | null | false, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The runtime's app on a real loopback port: for streams, and for anything that must cross a socket. */
export function useListeningApp(rt: TestRuntime): { baseUrl: string } {
  const state = { baseUrl: '' };
  let server: http.Server | undefined;
  beforeAll(async () => {
    server = http.createServer(rt.app.callback());
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server!.close(() => resolve()));
  });
  return state;
}

/**
 * The `relay` CLI as a process, the way a user runs it next to a server: RELAY_URL and ADMIN_TOKEN
 * lead its server commands to the listening app, MONGODB_URI its offline ones (bootstrap) to the same data.
 */
export function relayCli(rt: TestRuntime, server: { baseUrl: string }, env: Record<string, string> = {}) {
  return (...args: string[]) =>
    runFile('node', ['bin/relay.js', ...args], {
      env: { ...process.env, RELAY_URL: server.baseUrl, ADMIN_TOKEN: TEST_ADMIN_TOKEN, MONGODB_URI: rt.uri, LOG_LEVEL: 'silent', ...env },
    });
}
