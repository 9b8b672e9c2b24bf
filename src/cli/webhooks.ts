// `relay webhooks …`: outgoing webhooks of a bot from the shell, through the running server's admin
// API, so the server's rules (OUTBOUND_ALLOW_PRIVATE among them) decide what a hook may target.
import type { Command } from 'commander';
import { WEBHOOK_TYPES } from '../webhooks/model.ts';
import { adminCall, seg, type AdminAnswer } from './admin.ts';
import { TOP_LEVEL } from './topLevel.ts';
import { printJson } from './output.ts';
const collect = (value: string, previous: string[] = []) => [...previous, value];

function jsonObject(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    throw new Error(`not valid JSON: ${value}`);
  }
}

/** Custom payload flags → the API's customPayload object (undefined when no flag is given). */
function customPayloadOf(o: Record<string, unknown>) {
  if (o.custom === undefined && o.method === undefined && o.headers === undefined && o.body === undefined) return undefined;
  return { enabled: o.custom !== false, method: o.method, headers: o.headers, body: o.body };
}

function payloadOptions(cmd: Command): Command {
  return cmd
    .option('--url <url>', 'target URL (https://; http:// only when the server runs with OUTBOUND_ALLOW_PRIVATE=true)')
    .option('--data-source <id>', 'limit a sync hook to this data source (repeatable)', collect)
    .option('--custom', 'use the custom payload (method, headers, body)')
    .option('--no-custom', 'send the default JSON payload')
    .option('--method <method>', 'custom payload method: POST, PUT, PATCH, GET, DELETE')
    .option('--headers <json>', 'custom payload headers as a JSON object', jsonObject)
    .option('--body <text>', 'custom payload body, sent exactly; {{dot.path}} placeholders allowed')
    .option('--standard-webhooks', 'also send the Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature)')
    .option('--no-standard-webhooks', 'send the spec\'s headers only (the default)')
    .option('--concurrency <n>', 'this hook\'s attempts in flight at once, across every instance (default WEBHOOK_HOOK_CONCURRENCY, 10)', Number)
    .option('--rate <perSecond>', 'at most this many attempts of this hook started per second, across every instance', Number)
    .option('--retry-delays <seconds>', 'waits between attempts, comma-separated seconds (at most 9, 3 days in all); "default" for the spec\'s schedule', retryDelays);
}

/** `30,60,120` → [30, 60, 120]; `default` stays (commander turns a null from a parser into ''). */
function retryDelays(value: string): number[] | 'default' {
  if (value === 'default') return value;
  return value === '' ? [] : value.split(',').map((v) => Number(v.trim()));
}

/** The issue-19 hook settings given as flags (undefined when not given; `default` → null, the service's schedule). */
const deliveryOptionsOf = (o: Record<string, unknown>) => ({
  standardWebhooks: o.standardWebhooks,
  retryDelaysSeconds: o.retryDelays === 'default' ? null : o.retryDelays,
  concurrency: o.concurrency,
  ratePerSecond: o.rate,
});

export function registerWebhooksCommands(program: Command): void {
  const webhooks = program.command('webhooks').description(TOP_LEVEL.webhooks);
  const hook = (bot: string, id?: string) => `/bots/${seg(bot)}/webhooks${id === undefined ? '' : `/${seg(id)}`}`;
  const withSecret = (answer: AdminAnswer) => ({ ...(answer.webhook as object), secret: answer.secret });

  payloadOptions(webhooks.command('create').description('create a hook (disabled); prints it with its secret'))
    .requiredOption('--bot <botId>', 'bot id')
    .requiredOption('--type <type>', `event type (${WEBHOOK_TYPES.join(', ')})`)
    .action(async (o) => {
      const input = { type: o.type, url: o.url, dataSourceIds: o.dataSource, customPayload: customPayloadOf(o), ...deliveryOptionsOf(o), retryDelaysSeconds: o.retryDelays === 'default' ? undefined : o.retryDelays };
      printJson(withSecret(await adminCall('POST', hook(o.bot), input)));
    });

  webhooks
    .command('list')
    .description("list a bot's hooks")
    .requiredOption('--bot <botId>', 'bot id')
    .action(async (o) => printJson((await adminCall('GET', `${hook(o.bot)}?limit=100`)).webhooks));

  payloadOptions(webhooks.command('update').description('change a hook').argument('<webhookId>'))
    .requiredOption('--bot <botId>', 'bot id')
    .option('--type <type>', `event type (${WEBHOOK_TYPES.join(', ')})`)
    .option('--all-data-sources', 'remove the data source scope')
    .action(async (id, o) => {
      const dataSourceIds = o.allDataSources ? [] : o.dataSource;
      const input = { type: o.type, url: o.url, dataSourceIds, customPayload: customPayloadOf(o), ...deliveryOptionsOf(o) };
      printJson((await adminCall('PATCH', hook(o.bot, id), input)).webhook);
    });

  webhooks
    .command('enable')
    .description('turn a hook on (clears its failing record; see failingSince and disabledReason in list)')
    .argument('<webhookId>')
    .requiredOption('--bot <botId>', 'bot id')
    .option('--resend-failed', 'also resend the deliveries that failed or were cancelled since the hook began failing')
    .action(async (id, o) => {
      const answer = await adminCall('PUT', `${hook(o.bot, id)}/enabled`, { enabled: true, ...(o.resendFailed ? { resendFailed: true } : {}) });
      printJson({ ...(answer.webhook as object), resent: answer.resent });
    });

  webhooks
    .command('disable')
    .description('turn a hook off')
    .argument('<webhookId>')
    .requiredOption('--bot <botId>', 'bot id')
    .action(async (id, o) => printJson((await adminCall('PUT', `${hook(o.bot, id)}/enabled`, { enabled: false })).webhook));

  webhooks
    .command('delete')
    .description('delete a hook and its delivery log')
    .argument('<webhookId>')
    .requiredOption('--bot <botId>', 'bot id')
    .action(async (id, o) => {
      await adminCall('DELETE', hook(o.bot, id));
      printJson({ deleted: id });
    });

  webhooks
    .command('regenerate-secret')
    .description("replace a hook's secret; queued retries are signed with the new one")
    .argument('<webhookId>')
    .requiredOption('--bot <botId>', 'bot id')
    .action(async (id, o) => printJson(withSecret(await adminCall('POST', `${hook(o.bot, id)}/secret`))));

  webhooks
    .command('test')
    .description('send a sample event to the saved URL now (also when disabled); prints status, body and unresolved tokens')
    .argument('<webhookId>')
    .requiredOption('--bot <botId>', 'bot id')
    .action(async (id, o) => printJson((await adminCall('POST', `${hook(o.bot, id)}/test`)).test));

  webhooks
    .command('deliveries')
    .description("list a hook's deliveries with their attempts")
    .argument('<webhookId>')
    .requiredOption('--bot <botId>', 'bot id')
    .option('--limit <n>', 'page size (1-100)', '10')
    .option('--cursor <deliveryId>', 'continue after this delivery')
    .action(async (id, o) => {
      const query = new URLSearchParams({ limit: o.limit, ...(o.cursor ? { cursor: o.cursor } : {}) });
      const { deliveries, pagination } = await adminCall('GET', `${hook(o.bot, id)}/deliveries?${query}`);
      printJson({ deliveries, pagination });
    });

  webhooks
    .command('resend')
    .description('send a finished delivery again (same deliveryId and bytes); the server queues its first attempt at once')
    .argument('<webhookId>')
    .argument('<deliveryId>')
    .requiredOption('--bot <botId>', 'bot id')
    .action(async (id, deliveryId, o) => printJson((await adminCall('POST', `${hook(o.bot, id)}/deliveries/${seg(deliveryId)}/resend`)).delivery));
}
