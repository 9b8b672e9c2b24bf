// The gateway as an operator sees it: the rules loaded from RULES_DIR with the files it rejected,
// the deliveries it received, newest first (filtered by source and event), each delivery's rule
// outcomes and action results, and a replay. The gateway serves every bot, so this page ignores
// the bot picker.
import { useState, type FormEvent } from 'react';
import { admin, query } from '../api.ts';
import { ErrorNote, Section, useAction, useLoad } from '../components.tsx';
import { Table } from '../table.tsx';
import { SourcesSection } from './GatewaySources.tsx';

interface LoadedRule {
  name: string;
  file: string;
  enabled: boolean;
  sources: string[];
  events: string[];
  actions: string[];
}
interface RuleLoadError {
  file: string;
  rule?: string;
  message: string;
}
interface RuleSetView {
  dir: string;
  loadedAt: string;
  rules: LoadedRule[];
  errors: RuleLoadError[];
}
interface ActionResult {
  id: string;
  index: number;
  type: string;
  status: string;
  attempts: number;
  error: string | null;
  result: unknown;
  finishedAt: string | null;
}
interface RuleOutcome {
  run: number;
  rule: string;
  file: string;
  result: string;
  error: string | null;
  evaluatedAt: string;
  actions: ActionResult[];
}
interface GatewayDelivery {
  id: string;
  source: string;
  deliveryId: string;
  event: string;
  test: boolean;
  receivedAt: string;
  run: number;
  processedAt: string | null;
  headers?: Record<string, string>;
  body?: string;
  rules: RuleOutcome[];
}

const time = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '-');
const PAGE = 25;

function RulesSection() {
  const rules = useLoad(() => admin<RuleSetView>('GET', '/gateway/rules'), []);
  const action = useAction();
  const reload = () => action.run(async () => (await admin('POST', '/gateway/reload'), rules.reload()));
  const set = rules.data;
  return (
    <Section
      title="Loaded rules"
      actions={
        <button type="button" onClick={reload} disabled={action.busy}>
          Reload rules
        </button>
      }
    >
      <ErrorNote error={rules.error ?? action.error} />
      {set && (
        <p className="muted">
          From <code>{set.dir}</code>, loaded {time(set.loadedAt)}.
        </p>
      )}
      {set && set.errors.length > 0 && (
        <div role="alert" aria-label="Rule load errors">
          {set.errors.map((e) => (
            <p key={`${e.file}:${e.rule ?? ''}`} className="note error">
              Rejected <code>{e.file}</code>
              {e.rule && <> (rule {e.rule})</>}: {e.message}
            </p>
          ))}
        </div>
      )}
      {set && (
        <Table label="Rules" columns={['Rule', 'Sources', 'Events', 'Actions', 'File']}>
          {set.rules.map((r) => (
            <tr key={r.name}>
              <td>
                {r.name}
                {!r.enabled && <span className="muted"> (disabled)</span>}
              </td>
              <td>{r.sources.join(', ')}</td>
              <td>{r.events.join(', ')}</td>
              <td>{r.actions.join(', ')}</td>
              <td>
                <code>{r.file}</code>
              </td>
            </tr>
          ))}
        </Table>
      )}
      {set?.rules.length === 0 && <p className="muted">No rules loaded.</p>}
    </Section>
  );
}

/** One line per rule outcome of the latest run, e.g. "email-support: matched, email succeeded". */
function outcomeSummary(d: GatewayDelivery): string {
  const latest = d.rules.filter((r) => r.run === d.run);
  if (!latest.length) return d.processedAt ? 'no rule matched' : 'waiting';
  return latest.map((r) => `${r.rule}: ${r.result}${r.actions.length ? `, ${r.actions.map((a) => `${a.type} ${a.status}`).join(', ')}` : ''}`).join('; ');
}

function DeliveryDetail({ id, onClose }: { id: string; onClose: () => void }) {
  const detail = useLoad(() => admin<{ delivery: GatewayDelivery }>('GET', `/gateway/deliveries/${encodeURIComponent(id)}`), [id]);
  const action = useAction();
  const [replayed, setReplayed] = useState<number>();
  const replay = () =>
    action.run(async () => {
      const res = await admin<{ run: number }>('POST', `/gateway/deliveries/${encodeURIComponent(id)}/replay`);
      setReplayed(res.run);
      await detail.reload();
    });
  const d = detail.data?.delivery;
  return (
    <Section
      title={`Delivery ${d ? `${d.event} from ${d.source}` : id}`}
      actions={
        <span>
          <button type="button" onClick={() => void detail.reload()}>
            Refresh
          </button>{' '}
          <button type="button" onClick={replay} disabled={action.busy}>
            Replay
          </button>{' '}
          <button type="button" className="link" onClick={onClose}>
            Close
          </button>
        </span>
      }
    >
      <ErrorNote error={detail.error ?? action.error} />
      {replayed !== undefined && <p className="note">Replay queued as run {replayed}: the rules run again on the stored bytes.</p>}
      {d && (
        <>
          <p className="muted">
            Delivery id <code>{d.deliveryId}</code>, received {time(d.receivedAt)}
            {d.test && ' (test)'}, run {d.run}, processed {time(d.processedAt)}.
          </p>
          {d.rules.length === 0 && <p className="muted">{d.processedAt ? 'No rule matched this delivery.' : 'Not processed yet.'}</p>}
          {d.rules.map((r) => (
            <div key={`${r.run}:${r.rule}`} className="card" data-testid="rule-outcome">
              <strong>{r.rule}</strong> <span className="muted">(run {r.run}, {r.file})</span>: <span data-testid="rule-result">{r.result}</span>
              {r.error && <p className="note error">{r.error}</p>}
              {r.actions.length > 0 && (
                <Table label={`Actions of ${r.rule}`} columns={['#', 'Action', 'Status', 'Attempts', 'Result or error']}>
                  {r.actions.map((a) => (
                    <tr key={a.id}>
                      <td>{a.index}</td>
                      <td>{a.type}</td>
                      <td data-testid="action-status">{a.status}</td>
                      <td>{a.attempts}</td>
                      <td className="wrap">{a.error ?? (a.result == null ? '-' : <code>{JSON.stringify(a.result)}</code>)}</td>
                    </tr>
                  ))}
                </Table>
              )}
            </div>
          ))}
          <details>
            <summary>Body and headers</summary>
            <pre className="wrap">{d.body}</pre>
            <pre className="wrap">{JSON.stringify(d.headers, null, 2)}</pre>
          </details>
        </>
      )}
    </Section>
  );
}

function DeliveriesSection() {
  const [filters, setFilters] = useState({ source: '', event: '' });
  const [draft, setDraft] = useState(filters);
  const [cursor, setCursor] = useState<string[]>([]);
  const [open, setOpen] = useState<string>();
  const list = useLoad(
    // Newest first: each cursor pages on to older deliveries, and the stack of them leads back.
    () => admin<{ deliveries: GatewayDelivery[]; pagination: { total: number; last: string | null; totalCapped: boolean } }>('GET', `/gateway/deliveries${query({ ...filters, order: 'desc', limit: PAGE, cursor: cursor.at(-1) })}`),
    [filters, cursor],
  );
  const apply = (e: FormEvent) => {
    e.preventDefault();
    setCursor([]);
    setFilters({ source: draft.source.trim(), event: draft.event.trim() });
  };
  const page = list.data;
  return (
    <>
      <Section
        title="Received deliveries"
        actions={
          <button type="button" onClick={() => void list.reload()}>
            Refresh
          </button>
        }
      >
        <form onSubmit={apply} className="inline" aria-label="Filter deliveries">
          <label>
            Source
            <input value={draft.source} onChange={(e) => setDraft({ ...draft, source: e.target.value })} placeholder="any" />
          </label>
          <label>
            Event
            <input value={draft.event} onChange={(e) => setDraft({ ...draft, event: e.target.value })} placeholder="any" />
          </label>
          <button type="submit">Filter</button>
        </form>
        <ErrorNote error={list.error} />
        {page && (
          <Table label="Gateway deliveries" columns={['Received', 'Source', 'Event', 'Rules and actions', '']}>
            {page.deliveries.map((d) => (
              <tr key={d.id} data-delivery={d.deliveryId}>
                <td>{time(d.receivedAt)}</td>
                <td>{d.source}</td>
                <td>
                  {d.event}
                  {d.test && <span className="muted"> (test)</span>}
                </td>
                <td className="wrap" data-testid="outcome">
                  {outcomeSummary(d)}
                </td>
                <td className="actions">
                  <button type="button" onClick={() => setOpen(d.id)}>
                    Open
                  </button>
                </td>
              </tr>
            ))}
          </Table>
        )}
        {page?.deliveries.length === 0 && <p className="muted">No deliveries{filters.source || filters.event ? ' match these filters' : ' yet'}.</p>}
        {page && (
          <p className="muted">
            {page.pagination.totalCapped ? `More than ${page.pagination.total.toLocaleString()}` : page.pagination.total} in all.{' '}
            {cursor.length > 0 && (
              <button type="button" className="link" onClick={() => setCursor(cursor.slice(0, -1))}>
                Newer
              </button>
            )}{' '}
            {page.deliveries.length === PAGE && page.pagination.last && (
              <button type="button" className="link" onClick={() => setCursor([...cursor, page.pagination.last!])}>
                Older
              </button>
            )}
          </p>
        )}
      </Section>
      {open && <DeliveryDetail key={open} id={open} onClose={() => setOpen(undefined)} />}
    </>
  );
}

export function GatewayPage() {
  return (
    <>
      <DeliveriesSection />
      <SourcesSection />
      <RulesSection />
    </>
  );
}
