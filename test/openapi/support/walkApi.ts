// Every public and admin operation once (or more, where one operation answers in more than one
// way), against the real app: a tenant is bootstrapped, its bot learns a row, a webhook delivers
// to a real local sink, an agent takes a conversation over, and plan limits give their real 429s.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TEST_ADMIN_TOKEN, waitFor } from '../../helpers/harness.ts';
import type { Sink } from '../../gateway/support/servers.ts';
import type { Call, Method, Recorder } from './recorder.ts';

const P = '/api/public/channels/{channelId}/{version}';
const BOT = '/bots/{botId}';
const WEBHOOK = `${BOT}/webhooks/{webhookId}`;
const HOOK = `${BOT}/sync-hooks/{hookId}`;
const CONVERSATION = '/conversations/{conversationId}';

const adminAuth = () => ({ Authorization: `Bearer ${TEST_ADMIN_TOKEN}` });

/** A local port nothing listens on: a test send there is refused by the network. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function walkApi(r: Recorder, sink: Sink): Promise<void> {
  const admin = r.admin.bind(r);

  // Tenancy.
  const tenant = await admin('post', '/bootstrap', '/bootstrap', { summary: 'A team, a bot and a channel', status: 201, body: { team: 'Acme', bot: 'Support' } });
  await admin('post', '/bootstrap', '/bootstrap', { summary: 'The team name exists', status: 409, body: { team: 'Acme', bot: 'Support' } });
  const { team } = await admin('post', '/teams', '/teams', { summary: 'A team on the pro plan', status: 201, body: { name: 'Globex', plan: 'pro' } });
  await admin('get', '/teams', '/teams', { summary: 'Every team', status: 200 });
  await admin('get', '/teams/{teamId}', `/teams/${team.id}`, { summary: 'A team', status: 200 });
  await admin('put', '/teams/{teamId}/plan', `/teams/${team.id}/plan`, { summary: 'Enterprise, with a chat token limit', status: 200, body: { plan: 'enterprise', limits: { chatTokens: 500000 } } });
  const { bot } = await admin('post', '/bots', '/bots', { summary: 'A bot', status: 201, body: { teamId: team.id, name: 'Helper', welcomeMessage: 'Hello! How can I help?' } });
  await admin('get', '/bots', '/bots', { summary: "A team's bots", status: 200, query: { teamId: team.id } });
  await admin('get', BOT, `/bots/${bot.id}`, { summary: 'A bot', status: 200 });
  await admin('patch', BOT, `/bots/${bot.id}`, { summary: 'A shorter message limit', status: 200, body: { maxMessageLength: 500 } });
  const { channel } = await admin('post', '/channels', '/channels', { summary: 'A channel and its key', status: 201, body: { botId: bot.id, name: 'Website' } });
  await admin('get', '/channels', '/channels', { summary: "A bot's channels", status: 200, query: { botId: bot.id } });
  await admin('post', '/channels/{channelId}/rotate', `/channels/${channel.channelId}/rotate`, { summary: 'A new key', status: 200 });
  await admin('put', '/channels/{channelId}/enabled', `/channels/${channel.channelId}/enabled`, { summary: 'Turned off', status: 200, body: { enabled: false } });

  const pubCall = (method: Method, path: string, rest: Omit<Call, 'key' | 'url'>) =>
    r.call({ ...rest, key: `${method} ${P}${path}`, url: `/api/public/channels/${tenant.channelId}/2.0${path}`, auth: { 'X-API-Secret-Key': tenant.secretKey, ...rest.auth } });
  const B = `/bots/${tenant.botId}`;

  // Data sources and rows.
  const { dataSource } = await pubCall('post', '/data-sources', { summary: 'An empty manual data source', status: 200 });
  const dataSourceId = dataSource.id;
  await pubCall('post', '/data-sources/list', { summary: 'The first page', status: 200, body: { limit: 10 } });
  await pubCall('get', '/data-sources', { summary: 'A data source', status: 200, query: { dataSourceId } });
  await pubCall('put', '/data-sources', { summary: 'Weekly syncs', status: 200, body: { dataSourceId, syncInterval: 'week' } });
  const returns = '# Returns\n\nItems can be returned within 30 days of delivery, in their original packaging.';
  await pubCall('post', '/data-sources/row', { summary: 'One row', status: 200, body: { dataSourceId, dataSourceRows: [{ name: 'returns.md', content: returns }] } });
  await pubCall('post', '/data-sources/row', { summary: 'Not JSON', status: 415, raw: { contentType: 'text/plain', text: returns } });
  const huge = { dataSourceId, dataSourceRows: [{ name: 'huge.md', content: 'x'.repeat(1_100_000) }] };
  await pubCall('post', '/data-sources/row', { summary: 'Larger than BODY_LIMIT', status: 413, body: huge });
  const rows = await pubCall('post', '/data-sources/row/list', { summary: 'The first page', status: 200, body: { dataSourceId, limit: 10 } });
  const rowId = rows.dataSourceRows[0].id;
  await pubCall('get', '/data-sources/row', { summary: 'A row with its content', status: 200, query: { dataSourceId, dataSourceRowId: rowId } });
  const edited = `${returns}\n\nRefunds reach the original payment method within 5 business days.`;
  await pubCall('put', '/data-sources/row', { summary: 'New content', status: 200, body: { dataSourceId, dataSourceRows: [{ id: rowId, name: 'returns.md', content: edited }] } });
  await pubCall('post', '/data-sources/sync', { summary: 'Sync started', status: 200, body: { dataSourceId } });
  const synced = () =>
    waitFor(async () => (await r.send({ key: `get /api/admin${BOT}/data-sources/{dataSourceId}`, url: `/api/admin${B}/data-sources/${dataSourceId}`, auth: adminAuth() })).body.dataSource?.state === 'synced');
  await synced();

  // The admin view of data sources, and a sync hook.
  await admin('get', `${BOT}/data-sources`, `${B}/data-sources`, { summary: "A bot's data sources", status: 200 });
  await admin('get', `${BOT}/data-sources/{dataSourceId}`, `${B}/data-sources/${dataSourceId}`, { summary: 'A synced data source', status: 200 });
  await admin('patch', `${BOT}/data-sources/{dataSourceId}`, `${B}/data-sources/${dataSourceId}`, { summary: 'Named', status: 200, body: { name: 'Returns policy' } });
  const issued = await admin('post', `${BOT}/data-sources/{dataSourceId}/sync-hooks`, `${B}/data-sources/${dataSourceId}/sync-hooks`, { summary: 'A hook and its URL', status: 201 });
  const H = `${B}/sync-hooks/${issued.hook.id}`;
  const hookPath = new URL(issued.url).pathname;
  await admin('get', `${BOT}/sync-hooks`, `${B}/sync-hooks`, { summary: "A bot's hooks", status: 200 });
  await admin('get', HOOK, H, { summary: 'A hook', status: 200 });
  await admin('put', `${HOOK}/enabled`, `${H}/enabled`, { summary: 'Turned off', status: 200, body: { enabled: false } });
  const trigger = { key: 'post /api/public/hooks/{hookId}/{secret}', url: hookPath };
  await r.call({ ...trigger, summary: 'The hook is off', status: 403 });
  await admin('put', `${HOOK}/enabled`, `${H}/enabled`, { summary: 'Turned on', status: 200, body: { enabled: true } });
  await r.call({ ...trigger, summary: 'Sync started', status: 200 });
  await synced();
  await r.call({ ...trigger, url: `${hookPath.slice(0, hookPath.lastIndexOf('/'))}/not-the-secret`, summary: 'Unknown hook or wrong secret', status: 404 });
  await admin('post', `${HOOK}/secret`, `${H}/secret`, { summary: 'A new secret and URL', status: 200 });
  await admin('delete', HOOK, H, { summary: 'Deleted', status: 200 });

  // Webhooks: one delivering to a real sink, one whose receiver is gone.
  const created = await admin('post', `${BOT}/webhooks`, `${B}/webhooks`, { summary: 'A hook (off until turned on)', status: 201, body: { type: 'conversation.started', url: `${sink.url}/hooks/relay` } });
  const W = `${B}/webhooks/${created.webhook.id}`;
  await admin('get', `${BOT}/webhooks`, `${B}/webhooks`, { summary: "A bot's hooks", status: 200, query: { limit: '10' } });
  await admin('get', WEBHOOK, W, { summary: 'A hook', status: 200 });
  await admin('patch', WEBHOOK, W, { summary: 'Its own retry schedule and lane', status: 200, body: { retryDelaysSeconds: [10, 60, 600], concurrency: 2, ratePerSecond: 5 } });
  await admin('put', `${WEBHOOK}/enabled`, `${W}/enabled`, { summary: 'Turned on', status: 200, body: { enabled: true } });
  await admin('post', `${WEBHOOK}/secret`, `${W}/secret`, { summary: 'A new secret', status: 200 });
  await admin('post', `${WEBHOOK}/test`, `${W}/test`, { summary: 'The receiver answered', status: 200 });
  const gone = await r.send({ key: `post /api/admin${BOT}/webhooks`, url: `/api/admin${B}/webhooks`, auth: adminAuth(), body: { type: 'sync.success', url: `http://127.0.0.1:${await closedPort()}/hook` } });
  const G = `${B}/webhooks/${gone.body.webhook.id}`;
  const refused = await admin('post', `${WEBHOOK}/test`, `${G}/test`, { summary: 'The receiver could not be reached', status: 200 });

  // Chat: the conversation fires the hook; the reply is grounded in the row.
  const started = await pubCall('post', '/conversation', { summary: 'A conversation and the welcome message', status: 200, headers: { 'Idempotency-Key': 'order-4711-chat' }, body: {} });
  await pubCall('post', '/conversation', { summary: 'The key was used for another request', status: 422, headers: { 'Idempotency-Key': 'order-4711-chat' }, body: { message: 'Hello' } });
  const { conversationId } = started;
  await pubCall('post', '/message', { summary: 'A whole reply with its sources', status: 200, body: { conversationId, message: 'How long do I have to return an item?' } });
  await pubCall('post', '/message', { summary: 'No message', status: 400, body: { conversationId } });
  await pubCall('post', '/conversations', { summary: 'The first page', status: 200, body: { limit: 10 } });
  await pubCall('post', '/messages', { summary: 'The first page', status: 200, body: { conversationId, limit: 10 } });

  // An agent takes the conversation over and hands it back.
  const C = `/conversations/${conversationId}`;
  await admin('get', `${BOT}/conversations`, `${B}/conversations`, { summary: 'Open conversations', status: 200, query: { state: 'Open', limit: '10' } });
  await admin('post', `${CONVERSATION}/messages`, `${C}/messages`, { summary: 'Not claimed yet', status: 409, body: { message: 'Ana here.' } });
  const agent = { name: 'Ana', email: 'ana@example.com' };
  await admin('post', `${CONVERSATION}/claim`, `${C}/claim`, { summary: 'Claimed', status: 200, body: { agent } });
  await admin('post', `${CONVERSATION}/claim`, `${C}/claim`, { summary: 'Already claimed', status: 409, body: { agent } });
  await admin('post', `${CONVERSATION}/messages`, `${C}/messages`, { summary: 'An agent reply', status: 201, body: { message: 'Ana here: I can help with your return.' } });
  await admin('get', `${CONVERSATION}/messages`, `${C}/messages`, { summary: 'The conversation so far', status: 200, query: { limit: '10' } });
  await admin('post', `${CONVERSATION}/release`, `${C}/release`, { summary: 'Back to the bot', status: 200 });
  await admin('post', `${CONVERSATION}/release`, `${C}/release`, { summary: 'Not claimed', status: 409 });

  // The delivery log: the conversation's delivery, and the refused test send with its attempt's error.
  const delivery = await waitFor(async () => {
    const list = (await r.send({ key: `get /api/admin${WEBHOOK}/deliveries`, url: `/api/admin${W}/deliveries`, auth: adminAuth() })).body.deliveries;
    return list.find((d: { test: boolean; status: string }) => !d.test && d.status === 'delivered');
  });
  await admin('get', `${WEBHOOK}/deliveries`, `${W}/deliveries`, { summary: 'The log', status: 200, query: { limit: '10' } });
  await admin('get', `${WEBHOOK}/deliveries/{deliveryId}`, `${W}/deliveries/${delivery.id}`, { summary: 'A delivered event', status: 200 });
  await admin('get', `${WEBHOOK}/deliveries/{deliveryId}`, `${G}/deliveries/${refused.test.deliveryId}`, { summary: 'A test send that failed', status: 200 });
  await admin('post', `${WEBHOOK}/deliveries/{deliveryId}/resend`, `${W}/deliveries/${delivery.id}/resend`, { summary: 'Sent again', status: 202 });
  await admin('delete', WEBHOOK, W, { summary: 'Deleted with its log', status: 200 });

  // Plan limits: a team out of storage tokens, a full plan, a short message limit, no chat tokens.
  const limit = (limits: Record<string, number>) => r.send({ key: 'put /api/admin/teams/{teamId}/plan', url: `/api/admin/teams/${tenant.teamId}/plan`, auth: adminAuth(), body: { plan: 'standard', limits } });
  await limit({ storageTokens: 1, dataSourcesPerBot: 1 });
  await pubCall('post', '/data-sources/sync', { summary: 'No storage tokens left', status: 429, body: { dataSourceId } });
  await pubCall('post', '/data-sources', { summary: 'The plan allows no more', status: 429 });
  const spare = await r.send({ key: `post /api/admin${BOT}/data-sources/{dataSourceId}/sync-hooks`, url: `/api/admin${B}/data-sources/${dataSourceId}/sync-hooks`, auth: adminAuth() });
  await r.send({ key: `put /api/admin${HOOK}/enabled`, url: `/api/admin${B}/sync-hooks/${spare.body.hook.id}/enabled`, auth: adminAuth(), body: { enabled: true } });
  await r.call({ ...trigger, url: new URL(spare.body.url).pathname, summary: 'No storage tokens left', status: 429 });
  await limit({ maxMessageLength: 20 });
  await pubCall('post', '/message', { summary: 'Longer than the bot allows', status: 429, body: { conversationId, message: 'A question that is longer than twenty characters' } });
  await limit({ chatTokens: 0 });
  await pubCall('post', '/conversation', { summary: 'No chat tokens left', status: 429, body: {} });
  await limit({ storageTokens: 1_000_000, dataSourcesPerBot: 5, maxMessageLength: 2_000, chatTokens: 1_000_000 });

  // Deletes last.
  await pubCall('delete', '/data-sources/row', { summary: 'One row deleted', status: 200, body: { dataSourceId, dataSourceRows: [{ id: rowId }] } });
  await pubCall('delete', '/data-sources', { summary: 'Deleted with its rows', status: 200, body: { dataSourceId } });
}
