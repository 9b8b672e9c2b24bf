// What every action executor receives and returns. An executor never throws: it reports success,
// a retryable failure or a permanent one, plus a result to record (and to resume from).
import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import type { Logger } from '../../observability/logger.ts';
import type { Source } from '../sources.ts';
import type { OutboundClient } from '../../outbound/client.ts';

export interface ActionOutcomeReport {
  ok: boolean;
  /** Whether another attempt may succeed (network trouble, 5xx); ignored when ok. */
  retry: boolean;
  error: string | null;
  result: Record<string, unknown> | null;
}

/** What the `email` action sends, through SMTP or to the outbox (email.ts). */
export interface MailMessage {
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
  replyTo?: string;
  subject: string;
  text: string;
  html?: string;
  messageId: string;
}

export interface Mailer {
  send(message: MailMessage, name: string): Promise<Record<string, unknown>>;
  close(): void;
}

/** What the `http` action sends through: the outbound client (http.ts). */
export type OutboundSender = Pick<OutboundClient, 'send'>;

export interface ActionContext {
  outcomeId: string;
  rule: string;
  delivery: { id: string; source: string; deliveryId: string; event: string };
  /** The delivery's source (its API settings for resync), or null if it left the config. */
  source: Source | null;
  /** What an earlier attempt recorded, so a retry resumes instead of repeating. */
  previous: Record<string, unknown> | null;
  config: Config;
  logger: Logger;
  clock: Clock;
  mailer: Mailer;
  outbound: OutboundSender;
}

export const ok = (result: Record<string, unknown> | null = null): ActionOutcomeReport => ({ ok: true, retry: false, error: null, result });
export const failed = (error: string, retry: boolean, result: Record<string, unknown> | null = null): ActionOutcomeReport => ({ ok: false, retry, error, result });

