// `relay public …`: the public API from the shell, as an API channel's holder sees it. Unlike the
// other commands it goes over HTTP through the typed client (src/client), never to the database.
import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { createRelayClient, RelayApiError, type DataSource, type MessageRequest, type NewDataSourceRow, type RelayClient, type ReplySource } from '../client/index.ts';
import { serverUrl } from './admin.ts';
import { TOP_LEVEL } from './topLevel.ts';
import { printJson } from './output.ts';

/** The spec allows more rows per add request; 100 keeps each body small and each progress step short. */
const ROWS_PER_REQUEST = 100;

interface Credentials {
  url?: string;
  channel: string;
  key: string;
}

/** Each command takes the same three options; the env fallback keeps the secret key out of `ps` and shell history. */
function withCredentials(command: Command): Command {
  return command
    .addOption(new Option('--url <url>', 'service base URL (default: RELAY_URL, else http://127.0.0.1:PORT)'))
    .addOption(new Option('--channel <channelId>', 'API channel id').env('RELAY_CHANNEL_ID').makeOptionMandatory())
    .addOption(new Option('--key <secretKey>', "the channel's secret key (prefer the env variable)").env('RELAY_SECRET_KEY').makeOptionMandatory());
}

const positive = (name: string) => (value: string) => {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError(`${name} must be a positive number`);
  return n;
};

const progress = (line: string) => process.stderr.write(`${line}\n`);

/** Runs a command with a client; an API refusal becomes the one line main.ts prints, `relay: <status> <code>: <message>`. */
async function withClient<T>(creds: Credentials, fn: (client: RelayClient) => Promise<T>): Promise<T> {
  const url = creds.url ?? serverUrl();
  const client = createRelayClient({ baseUrl: url, channelId: creds.channel, secretKey: creds.key });
  try {
    return await fn(client);
  } catch (err) {
    if (!(err instanceof RelayApiError)) throw err;
    // No response means no status worth printing; naming the URL is the useful hint.
    if (err.status === 0) throw new Error(`${err.code}: ${err.message} (${url})`);
    throw new Error(`${err.status} ${err.code}: ${err.message}`);
  }
}

/** Directories contribute their .md files (recursively); a file named on the command line must be .md too. */
async function markdownFiles(paths: string[]): Promise<string[]> {
  const files: string[] = [];
  for (const p of paths) {
    if ((await stat(p)).isDirectory()) {
      const found = (await readdir(p, { recursive: true })).filter((f) => f.endsWith('.md')).sort();
      files.push(...found.map((f) => path.join(p, f)));
    } else if (p.endsWith('.md')) {
      files.push(p);
    } else {
      throw new Error(`${p} is not a .md file`);
    }
  }
  if (!files.length) throw new Error(`no .md files in ${paths.join(', ')}`);
  return files;
}

async function upload(client: RelayClient, dataSourceId: string, files: string[]) {
  let uploaded = 0;
  let requests = 0;
  for (let i = 0; i < files.length; i += ROWS_PER_REQUEST) {
    const batch = files.slice(i, i + ROWS_PER_REQUEST);
    const rows: NewDataSourceRow[] = await Promise.all(batch.map(async (f) => ({ name: path.basename(f), content: await readFile(f, 'utf8') })));
    await client.rows.add(dataSourceId, rows);
    uploaded += rows.length;
    requests++;
    progress(`uploaded ${uploaded}/${files.length} rows`);
  }
  return { dataSourceId, uploaded, requests };
}

async function waitForSync(client: RelayClient, dataSourceId: string, opts: { pollMs: number; timeoutS: number }): Promise<DataSource> {
  const started = performance.now();
  for (;;) {
    const ds = await client.dataSources.get(dataSourceId);
    const elapsed = (performance.now() - started) / 1000;
    progress(`sync ${ds.state} ${elapsed.toFixed(1)} s`);
    if (ds.state !== 'syncing') return ds;
    if (elapsed > opts.timeoutS) throw new Error(`the sync of ${dataSourceId} is still running after ${opts.timeoutS} s`);
    await delay(opts.pollMs);
  }
}

interface Reply {
  conversationId: string | null;
  response: string;
  sources: ReplySource[];
  handledBy?: 'agent';
}

/** Reads a 2.0 stream, handing each text delta to `onDelta` as it arrives; a failed reply throws at its end. */
async function streamReply(client: RelayClient, req: MessageRequest, onDelta: (delta: string) => void): Promise<Reply> {
  const stream = await client.chat.streamMessage(req);
  const reply: Reply = { conversationId: null, response: '', sources: [] };
  let failure: string | undefined;
  for await (const chunk of stream) {
    if (chunk.type === 'text-delta') {
      reply.response += chunk.delta;
      onDelta(chunk.delta);
    } else if (chunk.type === 'data-turn') {
      reply.sources = chunk.data.sources;
      if (chunk.data.handledBy) reply.handledBy = chunk.data.handledBy;
    } else if (chunk.type === 'error') {
      failure = chunk.errorText;
    } else if (chunk.type === 'data-error') {
      failure = `${failure ?? 'The reply failed'} (${chunk.data.provider} ${chunk.data.model}: ${chunk.data.statusMessage})`;
    }
  }
  if (failure) throw new Error(`reply_failed: ${failure}`);
  return { ...reply, conversationId: stream.conversationId };
}

/** Sources carry ids only; the row names say which file the answer came from. A row deleted since the sync has none. */
async function namedSources(client: RelayClient, sources: ReplySource[]) {
  return Promise.all(
    sources.map(async (s) => {
      try {
        return { ...s, name: (await client.rows.get(s.dataSourceId, s.rowId)).name };
      } catch (err) {
        if (err instanceof RelayApiError && err.status === 404) return { ...s, name: null };
        throw err;
      }
    }),
  );
}

export function registerPublicCommands(program: Command): void {
  const pub = program
    .command('public')
    .description(TOP_LEVEL.public);

  withCredentials(pub.command('create-data-source'))
    .description('create an empty manual data source; prints it')
    .action(async (o: Credentials) => printJson(await withClient(o, (c) => c.dataSources.create())));

  withCredentials(pub.command('list-data-sources'))
    .description("list every data source of the channel's bot, oldest first")
    .action(async (o: Credentials) =>
      printJson(
        await withClient(o, async (c) => {
          const all: DataSource[] = [];
          for await (const ds of c.dataSources.iterate()) all.push(ds);
          return all;
        }),
      ),
    );

  withCredentials(pub.command('upload'))
    .description(`add each .md file as a row named after the file, ${ROWS_PER_REQUEST} rows per request; the bot learns them at the next sync`)
    .argument('<dataSourceId>')
    .argument('<paths...>', '.md files or directories holding them')
    .action(async (dataSourceId: string, paths: string[], o: Credentials) => {
      const files = await markdownFiles(paths);
      printJson(await withClient(o, (c) => upload(c, dataSourceId, files)));
    });

  withCredentials(pub.command('sync'))
    .description('start a sync; with --wait, poll until it ends and exit 1 on sync_error')
    .argument('<dataSourceId>')
    .option('--wait', 'wait for the sync to end, printing its state on stderr')
    .option('--poll <ms>', 'time between state checks with --wait', positive('--poll'), 1000)
    .option('--timeout <seconds>', 'give up waiting after this long', positive('--timeout'), 600)
    .action(async (dataSourceId: string, o: Credentials & { wait?: boolean; poll: number; timeout: number }) => {
      const ds = await withClient(o, async (c) => {
        await c.dataSources.sync(dataSourceId);
        return o.wait ? waitForSync(c, dataSourceId, { pollMs: o.poll, timeoutS: o.timeout }) : c.dataSources.get(dataSourceId);
      });
      printJson(ds);
      if (ds.state === 'sync_error') process.exitCode = 1;
    });

  withCredentials(pub.command('ask'))
    .description('ask the bot; prints the reply (conversation id and sources on stderr), or JSON with --json')
    .argument('<question>')
    .option('--conversation <conversationId>', 'continue this conversation (default: a new one)')
    .option('--stream', 'read the 2.0 stream and print the text as it arrives')
    .option('--json', 'print {conversationId, response, sources} with each source\'s row name')
    .action(async (question: string, o: Credentials & { conversation?: string; stream?: boolean; json?: boolean }) => {
      const req: MessageRequest = { message: question, ...(o.conversation ? { conversationId: o.conversation } : {}) };
      const live = o.stream && !o.json;
      await withClient(o, async (c) => {
        const reply: Reply = o.stream ? await streamReply(c, req, (d) => live && process.stdout.write(d)) : await c.chat.sendMessage(req);
        const sources = await namedSources(c, reply.sources);
        if (o.json) return printJson({ ...reply, sources });
        process.stdout.write(live ? '\n' : `${reply.response}\n`);
        progress(`conversation ${reply.conversationId}`);
        if (reply.handledBy) progress('a human agent holds this conversation; their replies do not come back here');
        if (sources.length) progress(`sources: ${sources.map((s) => s.name ?? s.rowId).join(', ')}`);
      });
    });
}
