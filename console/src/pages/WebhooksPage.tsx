// Outgoing webhooks of a bot (admin API, issue 4): create, enable, regenerate the secret, send a
// test, and read each hook's delivery log with its attempts; resend a delivery. Issue 19: each
// hook's health (failing since, disabled by Relay; re-enable and resend what failed) and its
// delivery settings (WebhookSettings.tsx).
import { useState, type FormEvent } from 'react';
import { admin } from '../api.ts';
import { ErrorNote, SecretOnce, Section, Time, useAction, useLoad } from '../components.tsx';
import { Table } from '../table.tsx';
import type { BotRow } from './BotsPage.tsx';
import { WebhookSettings, type HookDeliverySettings } from './WebhookSettings.tsx';

const TYPES = ['sync.success', 'sync.failure', 'conversation.started', 'conversation.escalated', 'conversation.claimed', 'conversation.released', 'webhook.disabled'];

interface Webhook extends HookDeliverySettings {
  enabled: boolean;
  dataSourceIds?: string[];
  createdAt?: string;
  failingSince?: string | null;
  disabledAt?: string | null;
  disabledReason?: string | null;
}

/** Enabled, and whether its endpoint is failing or Relay turned it off for failing. */
function HookHealth({ hook }: { hook: Webhook }) {
  if (!hook.enabled && hook.disabledReason === 'failing') {
    return (
      <span className="state failed" data-testid="hook-health">
        disabled by Relay <Time value={hook.disabledAt} />: failing since <Time value={hook.failingSince} />
      </span>
    );
  }
  return (
    <span data-testid="hook-health">
      {hook.enabled ? 'yes' : 'no'}
      {hook.failingSince && (
        <span className="state failed">
          {' '}
          failing since <Time value={hook.failingSince} />
        </span>
      )}
    </span>
  );
}
/** A test send is one real request, answered inline and logged as a test delivery (docs/WEBHOOKS.md). */
interface TestResult {
  deliveryId: string;
  request: { method: string; url: string };
  status: number | null;
  body: string;
  durationMs: number;
  unresolved: string[];
  error: { code?: string; message?: string } | null;
}
interface Attempt {
  number: number;
  status: string;
  startedAt: string;
  httpStatus: number | null;
  durationMs: number | null;
  error: { code?: string; message?: string } | null;
  responseBody?: string | null;
}
interface Delivery {
  id: string;
  event: string;
  status: string;
  test?: boolean;
  attemptCount?: number;
  attempts?: Attempt[];
  nextAttemptAt?: string | null;
  cancelReason?: string | null;
  /** Why it failed before any attempt (payload_too_large, store_failed, ...): it was never sent. */
  error?: { code: string; message: string } | null;
  createdAt: string;
}

/** What went wrong in an attempt, as the CLI prints it: code, message, and the receiver's answer. */
function attemptError(a: Attempt): string | null {
  const parts = [a.error?.code, a.error?.message].filter(Boolean);
  if (a.status !== 'succeeded' && a.responseBody) parts.push(`response: ${a.responseBody.slice(0, 200)}`);
  return parts.length ? parts.join(': ') : null;
}

/** The webhooks admin API, in one place. */
const paths = {
  hooks: (botId: string) => `/bots/${botId}/webhooks`,
  hook: (botId: string, id: string) => `/bots/${botId}/webhooks/${id}`,
  enabled: (botId: string, id: string) => `/bots/${botId}/webhooks/${id}/enabled`,
  secret: (botId: string, id: string) => `/bots/${botId}/webhooks/${id}/secret`,
  test: (botId: string, id: string) => `/bots/${botId}/webhooks/${id}/test`,
  deliveries: (botId: string, id: string) => `/bots/${botId}/webhooks/${id}/deliveries?limit=50`,
  resend: (botId: string, id: string, deliveryId: string) => `/bots/${botId}/webhooks/${id}/deliveries/${deliveryId}/resend`,
};

function Deliveries({ bot, hook }: { bot: BotRow; hook: Webhook }) {
  const log = useLoad(() => admin<{ deliveries: Delivery[] }>('GET', paths.deliveries(bot.id, hook.id)), [hook.id]);
  const action = useAction();
  const resend = (d: Delivery) =>
    action.run(async () => {
      await admin('POST', paths.resend(bot.id, hook.id, d.id));
      await log.reload();
    });
  return (
    <Section
      title={`Deliveries of ${hook.type} → ${hook.url}`}
      actions={
        <button type="button" onClick={() => void log.reload()} disabled={log.loading}>
          Refresh
        </button>
      }
    >
      <ErrorNote error={log.error ?? action.error} />
      <Table label="Deliveries" columns={['Delivery', 'Event', 'Status', 'Attempts', 'Created', '']}>
        {(log.data?.deliveries ?? []).map((d) => (
          <tr key={d.id} data-delivery={d.id}>
            <td>
              <code>{d.id}</code>
              {d.test && <span className="muted"> (test)</span>}
            </td>
            <td>{d.event}</td>
            <td>
              <span className={`state ${d.status}`} data-testid="delivery-status">
                {d.status}
              </span>
            </td>
            <td className="attempts">
              {(d.attempts ?? []).map((a) => (
                <div key={a.number} className="attempt">
                  #{a.number} {a.status}
                  {a.httpStatus !== null && ` HTTP ${a.httpStatus}`}
                  {a.durationMs !== null && ` ${a.durationMs} ms`}
                  {attemptError(a) && (
                    <div className="muted wrap" data-testid="attempt-error">
                      {attemptError(a)}
                    </div>
                  )}
                </div>
              ))}
              {d.nextAttemptAt && d.status === 'pending' && (
                <div className="muted" data-testid="next-attempt">
                  next attempt <Time value={d.nextAttemptAt} />
                </div>
              )}
              {d.cancelReason && <div className="muted">cancelled: {d.cancelReason}</div>}
              {d.error && (
                <div className="muted wrap" data-testid="delivery-error">
                  not sent: {d.error.code}: {d.error.message}
                </div>
              )}
            </td>
            <td>
              <Time value={d.createdAt} />
            </td>
            <td className="actions">
              <button type="button" onClick={() => resend(d)} disabled={action.busy || d.status === 'pending' || d.test === true || !!d.error} title={d.test ? 'A test send is not resent: send a new test' : undefined}>
                Resend
              </button>
            </td>
          </tr>
        ))}
      </Table>
      {log.data?.deliveries.length === 0 && <p className="muted">No deliveries yet.</p>}
    </Section>
  );
}

export function WebhooksPage({ bot }: { bot: BotRow }) {
  const hooks = useLoad(() => admin<{ webhooks: Webhook[] }>('GET', `${paths.hooks(bot.id)}?limit=100`), [bot.id]);
  const [type, setType] = useState(TYPES[0]!);
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState<{ label: string; value: string }>();
  const [openId, setOpenId] = useState<string>();
  const [logVersion, setLogVersion] = useState(0);
  const [tested, setTested] = useState<TestResult>();
  const action = useAction();

  const create = (e: FormEvent) => {
    e.preventDefault();
    void action.run(async () => {
      const res = await admin<{ webhook: Webhook; secret: string }>('POST', paths.hooks(bot.id), { type, url });
      setUrl('');
      setSecret({ label: `Secret of the new ${res.webhook.type} hook`, value: res.secret });
      await hooks.reload();
    });
  };
  const [resent, setResent] = useState<string>();
  const toggle = (h: Webhook, resendFailed = false) =>
    action.run(async () => {
      setResent(undefined);
      const res = await admin<{ resent?: number }>('PUT', paths.enabled(bot.id, h.id), { enabled: !h.enabled, ...(resendFailed ? { resendFailed } : {}) });
      if (resendFailed) setResent(`Re-enabled the ${h.type} hook and resent ${res.resent ?? 0} failed deliveries.`);
      await hooks.reload();
      setLogVersion((v) => v + 1);
    });
  const regenerate = (h: Webhook) =>
    action.run(async () => {
      if (!confirm('Regenerate the secret? Receivers must switch to the new one.')) return;
      const res = await admin<{ secret: string }>('POST', paths.secret(bot.id, h.id));
      setSecret({ label: `New secret of the ${h.type} hook`, value: res.secret });
    });
  const testSend = (h: Webhook) =>
    action.run(async () => {
      setTested(undefined);
      const res = await admin<{ test: TestResult }>('POST', paths.test(bot.id, h.id));
      setTested(res.test);
      setOpenId(h.id);
      setLogVersion((v) => v + 1);
    });
  const remove = (h: Webhook) =>
    action.run(async () => {
      if (!confirm(`Delete the ${h.type} hook to ${h.url}?`)) return;
      await admin('DELETE', paths.hook(bot.id, h.id));
      if (openId === h.id) setOpenId(undefined);
      await hooks.reload();
    });
  const open = hooks.data?.webhooks.find((h) => h.id === openId);

  return (
    <>
      <Section title={`Webhooks of ${bot.name}`}>
        {secret && <SecretOnce label={secret.label} value={secret.value} onDismiss={() => setSecret(undefined)} />}
        <ErrorNote error={hooks.error ?? action.error} />
        {resent && (
          <p className="note" role="status" data-testid="resent">
            {resent}
          </p>
        )}
        {tested && (
          <div className={`note ${tested.status !== null && tested.status < 300 ? '' : 'error'}`} role="status" data-testid="test-result">
            Test send {tested.request.method} {tested.request.url}: {tested.status !== null ? `HTTP ${tested.status}` : (tested.error?.code ?? 'no response')} in{' '}
            {tested.durationMs} ms{tested.error?.message ? ` (${tested.error.message})` : ''}
            {tested.unresolved.length > 0 && ` · unresolved placeholders: ${tested.unresolved.join(', ')}`}
            {tested.body && <pre>{tested.body}</pre>}
          </div>
        )}
        <Table label="Webhooks" columns={['Event', 'Target URL', 'Enabled', '']}>
          {(hooks.data?.webhooks ?? []).map((h) => (
            <tr key={h.id} className={h.id === openId ? 'selected' : undefined} data-webhook={h.id}>
              <td>{h.type}</td>
              <td className="url">
                <code>{h.url}</code>
              </td>
              <td>
                <HookHealth hook={h} />
              </td>
              <td className="actions wrapping">
                <button type="button" onClick={() => toggle(h)} disabled={action.busy}>
                  {h.enabled ? 'Disable' : 'Enable'}
                </button>
                {!h.enabled && h.failingSince && (
                  <button type="button" onClick={() => toggle(h, true)} disabled={action.busy}>
                    Enable and resend failed
                  </button>
                )}
                <button type="button" onClick={() => testSend(h)} disabled={action.busy}>
                  Send test
                </button>
                <button type="button" onClick={() => setOpenId(h.id)}>
                  Deliveries
                </button>
                <button type="button" onClick={() => regenerate(h)} disabled={action.busy}>
                  New secret
                </button>
                <button type="button" onClick={() => remove(h)} disabled={action.busy}>
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </Table>
        {hooks.data?.webhooks.length === 0 && <p className="muted">No webhooks yet. New hooks start disabled (spec).</p>}
        <form onSubmit={create} className="inline" aria-label="Create a webhook">
          <select value={type} onChange={(e) => setType(e.target.value)} aria-label="Event">
            {TYPES.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
          <input name="url" type="url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://example.com/hook" required size={40} aria-label="Target URL" />
          <button type="submit" disabled={action.busy}>
            Create webhook
          </button>
        </form>
      </Section>
      {open && <WebhookSettings key={`settings:${open.id}`} path={paths.hook(bot.id, open.id)} hook={open} onSaved={hooks.reload} />}
      {open && <Deliveries key={`${open.id}:${logVersion}`} bot={bot} hook={open} />}
    </>
  );
}
