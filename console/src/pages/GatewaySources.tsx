// The gateway's configured sources (GATEWAY_CONFIG) and how each verifies its senders: the
// signature scheme, the time tolerance, how many secrets (rotation); never the secrets themselves.
import { admin } from '../api.ts';
import { ErrorNote, Section, useLoad } from '../components.tsx';
import { Table } from '../table.tsx';

interface SourceView {
  name: string;
  scheme: string;
  secrets: number;
  toleranceSeconds: number;
  allowLegacySecretHeader: boolean;
  hmac: { header: string; algorithm: string; encoding: string; timestampHeader: string | null; idHeader: string | null; idPath: string | null; eventHeader: string | null; eventPath: string | null } | null;
}

/** What the generic hmac scheme reads, in one line. */
function hmacLine(h: NonNullable<SourceView['hmac']>): string {
  const id = h.idPath ? `id at ${h.idPath}` : h.idHeader ? `id from ${h.idHeader}` : 'id from the body digest';
  const event = h.eventPath ? `event at ${h.eventPath}` : h.eventHeader ? `event from ${h.eventHeader}` : 'event from the body';
  return `${h.header} (${h.algorithm}, ${h.encoding}${h.timestampHeader ? `, time in ${h.timestampHeader}` : ''}); ${id}; ${event}`;
}

export function SourcesSection() {
  const sources = useLoad(() => admin<{ sources: SourceView[] }>('GET', '/gateway/sources'), []);
  return (
    <Section title="Sources">
      <ErrorNote error={sources.error} />
      <Table label="Sources" columns={['Source', 'Scheme', 'Secrets', 'Tolerance', 'Intake URL']}>
        {(sources.data?.sources ?? []).map((s) => (
          <tr key={s.name} data-source={s.name}>
            <td>{s.name}</td>
            <td data-testid="scheme">
              {s.scheme}
              {s.hmac && <div className="muted">{hmacLine(s.hmac)}</div>}
              {s.allowLegacySecretHeader && <div className="muted">also X-Secret-Key (legacy)</div>}
            </td>
            <td>{s.secrets}</td>
            <td>{s.scheme === 'github' || (s.scheme === 'hmac' && !s.hmac?.timestampHeader) ? 'no signed time' : `${s.toleranceSeconds} s`}</td>
            <td>
              <code>/gateway/{s.name}</code>
            </td>
          </tr>
        ))}
      </Table>
      {sources.data?.sources.length === 0 && <p className="muted">No sources: set GATEWAY_CONFIG (docs/GATEWAY.md).</p>}
    </Section>
  );
}
