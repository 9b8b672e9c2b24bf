// NoSQL injection (issue 7): operator objects, operator-shaped query strings and `$where` in the
// ids, keys and filters of the admin lists are refused (400/403/404) and never select a document;
// below the edge, mongoose's sanitizeFilter turns an operator object in a filter into a literal.
import { randomUUID } from 'node:crypto';
import mongoose from 'mongoose';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestRuntime, waitFor } from '../helpers/harness.ts';
import { adminApi, createTenant, publicApi, type Tenant } from '../helpers/factories.ts';
import { trusted } from '../../src/db/connection.ts';
import { WebhookModel, DeliveryModel } from '../../src/webhooks/model.ts';
import { BotModel } from '../../src/platform/model.ts';
import { gatewayFiles } from '../gateway/support/gatewayFiles.ts';
import { modulesWithGateway } from '../gateway/support/runtime.ts';
import { sendSigned } from '../gateway/support/signing.ts';

const SECRET = 'injection-source-secret-0123';
const files = gatewayFiles({ sources: { relay: { secrets: [SECRET] }, crm: { secrets: [SECRET] } } });

type Method = 'get' | 'post' | 'put' | 'delete' | 'patch';
type Call = [Method, string, unknown?];

const enc = encodeURIComponent;
/** Operator-shaped values as they arrive in a path segment or a query value: plain strings. */
const operatorStrings = ['{"$ne":null}', '{"$gt":""}', '{"$where":"sleep(100) || true"}', '{"$regex":".*"}'];
/** Operator-shaped query-string keys, the qs / PHP nesting syntax. */
const bracketQueries = (name: string) => [`${name}[$ne]=x`, `${name}[$gt]=`, `${name}[$regex]=.*`, `$where=1`, `${name}[$where]=1`];

describe('NoSQL injection on the admin and public APIs', () => {
  const rt = useTestRuntime({ env: files.env, worker: false, ...modulesWithGateway() });
  const admin = (method: Method, path: string, body?: unknown) => adminApi(rt)(method, path, body);
  let mine: Tenant;
  let theirs: Tenant;
  let hookId: string;
  let theirHookId: string;

  const expectRefused = async ([method, path, body]: Call, allowed = [400, 403, 404]) => {
    const res = await admin(method, path, body);
    expect(allowed, `${method} ${path} ${JSON.stringify(body) ?? ''} answered ${res.status}`).toContain(res.status);
    expect(res.body.success).toBe(false);
    return res;
  };

  beforeAll(async () => {
    [mine, theirs] = [await createTenant(), await createTenant()];
    const created = await admin('post', `/bots/${mine.botId}/webhooks`, { type: 'conversation.started', url: 'https://hooks.example.com/in' }).expect(201);
    hookId = created.body.webhook.id;
    const theirCreated = await admin('post', `/bots/${theirs.botId}/webhooks`, { type: 'conversation.started', url: 'https://hooks.example.com/in' }).expect(201);
    theirHookId = theirCreated.body.webhook.id;
    for (const [t, id] of [[mine, hookId], [theirs, theirHookId]] as const) {
      await admin('put', `/bots/${t.botId}/webhooks/${id}/enabled`, { enabled: true }).expect(200);
      await publicApi(rt, t)('post', '/conversation', {}).expect(200);
    }
    // The fan-out creates one delivery per hook: there is something an injection could match.
    await waitFor(async () => (await DeliveryModel.countDocuments({ webhookId: trusted({ $in: [hookId, theirHookId] }) })) === 2);
    await sendSigned(rt, 'relay', SECRET, { event: 'conversation.started' }).expect(202);
    await sendSigned(rt, 'crm', SECRET, { event: 'deal.won' }).expect(202);
  });

  it('refuses operator strings and $where in the ids of the webhook delivery routes', async () => {
    const base = `/bots/${mine.botId}/webhooks/${hookId}`;
    for (const bad of operatorStrings) {
      await expectRefused(['get', `/bots/${enc(bad)}/webhooks/${hookId}/deliveries`]);
      await expectRefused(['get', `/bots/${mine.botId}/webhooks/${enc(bad)}/deliveries`]);
      await expectRefused(['get', `${base}/deliveries/${enc(bad)}`]);
      await expectRefused(['post', `${base}/deliveries/${enc(bad)}/resend`]);
      await expectRefused(['get', `${base}/deliveries?cursor=${enc(bad)}`]);
    }
    // Another bot's hook through my bot id is 404, whatever the hook id looks like.
    await expectRefused(['get', `/bots/${mine.botId}/webhooks/${theirHookId}/deliveries`], [404]);
  });

  it('refuses operator-shaped query-string keys on every list with 400', async () => {
    const lists = [
      `/bots/${mine.botId}/webhooks/${hookId}/deliveries`,
      `/bots/${mine.botId}/webhooks`,
      '/gateway/deliveries',
      '/bots',
      '/channels',
      '/teams',
      `/bots/${mine.botId}/conversations`,
    ];
    const keys = ['cursor', 'source', 'event', 'teamId', 'botId', 'state', 'limit'];
    for (const list of lists) {
      for (const key of keys) {
        for (const query of bracketQueries(key)) {
          const res = await expectRefused(['get', `${list}?${query}`], [400]);
          expect(res.body.code).toBe('bad_request');
        }
      }
    }
  });

  it('matches nothing for an operator string in the gateway ?source= and ?event= filters', async () => {
    const all = await admin('get', '/gateway/deliveries?limit=100').expect(200);
    expect(all.body.pagination.total).toBe(2);
    for (const bad of operatorStrings) {
      for (const key of ['source', 'event']) {
        const res = await admin('get', `/gateway/deliveries?${key}=${enc(bad)}`);
        expect([200, 400], `${key}=${bad}`).toContain(res.status);
        if (res.status === 200) expect(res.body.pagination.total, `${key}=${bad}`).toBe(0);
      }
    }
    // Repeating the parameter gives an array, which is not a source name.
    await expectRefused(['get', '/gateway/deliveries?source=relay&source=crm'], [400]);
    await expectRefused(['get', `/gateway/deliveries/${enc('{"$ne":null}')}`], [400]);
    await expectRefused(['post', `/gateway/deliveries/${enc('{"$gt":""}')}/replay`], [400]);
    // The plain filter still works.
    expect((await admin('get', '/gateway/deliveries?source=crm').expect(200)).body.pagination.total).toBe(1);
  });

  it('matches no bot or channel for an operator string in the bots and channels lists and lookups', async () => {
    for (const bad of operatorStrings) {
      const bots = await admin('get', `/bots?teamId=${enc(bad)}`);
      expect([200, 400]).toContain(bots.status);
      if (bots.status === 200) expect(bots.body.bots, bad).toEqual([]);
      const channels = await admin('get', `/channels?botId=${enc(bad)}`);
      expect([200, 400]).toContain(channels.status);
      if (channels.status === 200) expect(channels.body.channels, bad).toEqual([]);
      await expectRefused(['get', `/bots/${enc(bad)}`]);
      await expectRefused(['get', `/teams/${enc(bad)}`]);
      await expectRefused(['patch', `/bots/${enc(bad)}`, { name: 'renamed' }]);
      await expectRefused(['post', `/channels/${enc(bad)}/rotate`]);
      await expectRefused(['put', `/channels/${enc(bad)}/enabled`, { enabled: false }]);
    }
    // Operator objects in JSON bodies never reach a filter: they fail validation.
    for (const op of [{ $ne: null }, { $gt: '' }, { $where: 'true' }]) {
      await expectRefused(['post', '/channels', { botId: op, name: 'x' }], [400]);
      await expectRefused(['post', '/bots', { teamId: op, name: 'x' }], [400]);
      await expectRefused(['post', `/bots/${mine.botId}/webhooks`, { type: 'conversation.started', url: op }], [400]);
    }
    expect((await admin('get', `/bots?teamId=${theirs.teamId}`).expect(200)).body.bots.map((b: { id: string }) => b.id)).toEqual([theirs.botId]);
    expect((await BotModel.findOne({ id: theirs.botId }).lean())?.name).not.toBe('renamed');
  });

  it('refuses an operator in the conversations ?state= filter and in conversation ids', async () => {
    for (const bad of operatorStrings) {
      await expectRefused(['get', `/bots/${mine.botId}/conversations?state=${enc(bad)}`], [400]);
      await expectRefused(['post', `/conversations/${enc(bad)}/claim`, { agent: { name: 'A', email: 'a@example.com' } }], [400]);
      await expectRefused(['get', `/conversations/${enc(bad)}/messages`], [400]);
      await expectRefused(['post', `/conversations/${enc(bad)}/release`], [400]);
    }
    await expectRefused(['get', `/bots/${mine.botId}/conversations?state=Open&state=Active`], [400]);
    for (const state of [{ $ne: 'Active' }, { $in: ['Open'] }]) {
      const res = await publicApi(rt, mine)('post', '/conversations', { state });
      expect([200, 400]).toContain(res.status);
      if (res.status === 200) expect(res.body.conversations.length).toBe(1);
    }
  });

  it('stores a $-prefixed key inside free-form user data as data, or refuses it, never a 500', async () => {
    const res = await publicApi(rt, mine)('post', '/conversation', { userData: { $where: 'sleep(1000)', name: { $ne: null } } });
    expect([200, 400]).toContain(res.status);
  });
});

describe('mongoose sanitizeFilter', () => {
  useTestRuntime({ worker: false });

  it('is switched on for every query of the process', () => {
    expect(mongoose.get('sanitizeFilter')).toBe(true);
  });

  it('turns an operator object in a model filter into a literal that matches nothing', async () => {
    const botId = randomUUID();
    await WebhookModel.create({ _id: randomUUID(), id: randomUUID(), botId, teamId: randomUUID(), type: 'conversation.started', enabled: true, url: 'https://x.example.com', secret: 'whsec_x' });
    // The same operators written by our code, marked trusted, do match: the document is there.
    expect(await WebhookModel.countDocuments({ botId: trusted({ $ne: null }) })).toBeGreaterThan(0);
    for (const op of [{ $ne: null }, { $gt: '' }, { $regex: '.*' }, { $exists: true }]) {
      const found = await WebhookModel.find({ botId: op } as never).lean().catch((err: Error) => err);
      if (found instanceof Error) expect(found.name, JSON.stringify(op)).toBe('CastError');
      else expect(found, JSON.stringify(op)).toEqual([]);
    }
  });

  it('refuses $where and $expr in a filter instead of running them', async () => {
    await expect(WebhookModel.find({ $where: 'true' } as never).lean()).rejects.toThrow(/\$where is not allowed/);
    await expect(WebhookModel.find({ $expr: { $eq: [1, 1] } } as never).lean()).rejects.toThrow(/\$expr is not allowed/);
  });
});
