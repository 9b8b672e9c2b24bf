// The refusals every operation can give, asked of each one with the request of its first
// successful call changed in one way: no credentials (401/403), ids that name nothing (404), and
// an invalid request (400). What the route really answers is recorded; an operation that does not
// answer, say, 404 for an unknown id records nothing, so the document claims no 404 for it.
import { randomUUID } from 'node:crypto';
import type { Call, Recorder } from './recorder.ts';

const PUBLIC = '/api/public/channels/{channelId}/{version}';
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const HAS_UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const BODY_METHODS = new Set(['post', 'put', 'patch', 'delete']);

/** The concrete URL with each id parameter of the template replaced. */
function withIds(template: string, url: string, id: () => string, which: (name: string) => boolean): string {
  const names = template.split('/');
  return url
    .split('/')
    .map((segment, i) => {
      const name = /^\{(\w+)\}$/.exec(names[i] ?? '')?.[1];
      return name && which(name) ? id() : segment;
    })
    .join('/');
}

const isId = (name: string) => /Id$|^id$/.test(name);
const replaceUuids = <T>(value: T): T => (value === undefined ? value : JSON.parse(JSON.stringify(value).replace(UUID, () => randomUUID())));

export async function walkRefusals(r: Recorder, doc: { paths: Record<string, Record<string, any>> }): Promise<void> {
  for (const [path, operations] of Object.entries(doc.paths)) {
    if (!path.startsWith('/api/admin/') && !path.startsWith(PUBLIC)) continue;
    for (const [method, operation] of Object.entries(operations)) {
      const key = `${method} ${path}`;
      const first = r.firstCalls.get(key);
      if (!first) continue;
      // One 400 per operation (the walk's own, when it has one); other statuses by summary.
      const has = (status: number, summary: string) => (r.exchanges[key] ?? []).some((e) => e.status === status && (status === 400 || e.summary === summary));
      const attempt = async (change: Partial<Call>, summary: string, status: number) => {
        if (has(status, summary)) return;
        const call: Call = { ...first, ...change, summary, status };
        const res = await r.send(call);
        if (res.status >= 500) throw new Error(`${key} (${summary}) answered ${res.status}: ${res.text}`);
        if (res.status === status) await r.call(call);
      };
      const ids = path.startsWith(PUBLIC) ? (name: string) => isId(name) && name !== 'channelId' : isId;

      // Credentials.
      if (path.startsWith(PUBLIC)) {
        await attempt({ auth: { 'X-API-Secret-Key': 'sk_not-a-key' } }, 'A wrong X-API-Secret-Key', 403);
        await attempt({ url: withIds(path, first.url, randomUUID, (name) => name === 'channelId') }, 'No such channel', 404);
      } else {
        await attempt({ auth: {} }, 'No admin token', 401);
      }

      // Ids that name nothing: in the path, else in the body or query.
      if (/\{\w*[iI]d\}/.test(path.replace(PUBLIC, ''))) {
        await attempt({ url: withIds(path, first.url, randomUUID, ids) }, 'No such id', 404);
        await attempt({ url: withIds(path, first.url, () => 'not-a-uuid', ids) }, 'An id that is not a UUID', 400);
      } else if (HAS_UUID.test(JSON.stringify([first.body ?? null, first.query ?? null]))) {
        await attempt({ body: replaceUuids(first.body), query: replaceUuids(first.query) }, 'No such id', 404);
      }

      // An invalid request: a required field missing, a limit out of range, no query, or broken JSON.
      const queryNames = (operation.parameters ?? []).filter((p: { in: string }) => p.in === 'query').map((p: { name: string }) => p.name);
      const bodyFields = Object.keys(operation.requestBody?.content?.['application/json']?.schema?.properties ?? {});
      if (operation.requestBody?.required) await attempt({ body: {}, raw: undefined }, 'A required field missing', 400);
      else if (queryNames.includes('limit')) await attempt({ query: { ...first.query, limit: '0' } }, 'A limit out of range', 400);
      else if (bodyFields.includes('limit')) await attempt({ body: { ...(first.body as object), limit: 0 } }, 'A limit out of range', 400);
      else if (first.query && queryNames.length) await attempt({ query: undefined }, 'A required parameter missing', 400);
      else if (BODY_METHODS.has(method)) await attempt({ raw: { contentType: 'application/json', text: '{"name":' } }, 'Broken JSON', 400);
    }
  }
}
