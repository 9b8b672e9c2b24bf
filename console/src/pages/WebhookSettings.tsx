// A hook's delivery settings (issue 19): Standard Webhooks headers, its own retry schedule, and its
// lane (attempts in flight, rate). Saved with one PATCH; the server validates (docs/WEBHOOKS.md).
import { useState, type FormEvent } from 'react';
import { admin } from '../api.ts';
import { ErrorNote, Section, useAction } from '../components.tsx';

export interface HookDeliverySettings {
  id: string;
  type: string;
  url: string;
  standardWebhooks?: boolean;
  retryDelaysSeconds?: number[] | null;
  concurrency?: number | null;
  ratePerSecond?: number | null;
}

const numberOrNull = (text: string) => (text.trim() === '' ? null : Number(text));

export function WebhookSettings({ path, hook, onSaved }: { path: string; hook: HookDeliverySettings; onSaved: () => Promise<void> }) {
  const [standardWebhooks, setStandardWebhooks] = useState(hook.standardWebhooks ?? false);
  const [delays, setDelays] = useState(hook.retryDelaysSeconds ? hook.retryDelaysSeconds.join(', ') : '');
  const [concurrency, setConcurrency] = useState(hook.concurrency?.toString() ?? '');
  const [rate, setRate] = useState(hook.ratePerSecond?.toString() ?? '');
  const [saved, setSaved] = useState(false);
  const action = useAction();
  const save = (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    void action.run(async () => {
      await admin('PATCH', path, {
        standardWebhooks,
        // Empty: the service's schedule (the spec's 30 s, 1 min, 2 min, 4 min).
        retryDelaysSeconds: delays.trim() === '' ? null : delays.split(',').map((d) => Number(d.trim())),
        concurrency: numberOrNull(concurrency),
        ratePerSecond: numberOrNull(rate),
      });
      setSaved(true);
      await onSaved();
    });
  };
  return (
    <Section title={`Delivery settings of ${hook.type} → ${hook.url}`}>
      <ErrorNote error={action.error} />
      {saved && <p role="status">Saved.</p>}
      <form onSubmit={save} className="stack" aria-label="Delivery settings">
        <label className="check">
          <input type="checkbox" checked={standardWebhooks} onChange={(e) => setStandardWebhooks(e.target.checked)} /> Also send the Standard Webhooks
          headers (webhook-id, webhook-timestamp, webhook-signature)
        </label>
        <label>
          Retry waits, seconds (comma-separated; empty: 30, 60, 120, 240; at most 9 waits and 3 days){' '}
          <input name="retryDelays" value={delays} onChange={(e) => setDelays(e.target.value)} placeholder="30, 60, 120, 240" size={30} />
        </label>
        <label>
          Attempts in flight (empty: the service's, 10){' '}
          <input name="concurrency" type="number" min={1} max={64} value={concurrency} onChange={(e) => setConcurrency(e.target.value)} size={4} />
        </label>
        <label>
          Attempts per second (empty: no limit) <input name="ratePerSecond" type="number" min={0} step="any" value={rate} onChange={(e) => setRate(e.target.value)} size={6} />
        </label>
        <button type="submit" disabled={action.busy}>
          Save settings
        </button>
      </form>
    </Section>
  );
}
