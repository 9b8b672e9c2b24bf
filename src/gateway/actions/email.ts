// `email` through nodemailer: SMTP when SMTP_URL is set (Mailpit in docker-compose), otherwise each
// message is written as an .eml file under DATA_DIR/outbox, named after its action outcome.
// The Message-ID is derived from the outcome too, so a retried send is recognisable downstream.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Config } from '../../config.ts';
import { failed, ok, type ActionContext, type ActionOutcomeReport, type Mailer, type MailMessage } from './report.ts';
import type { EmailSpec } from './specs.ts';

export type { Mailer, MailMessage } from './report.ts';

export function createMailer(config: Config): Mailer {
  if (config.SMTP_URL) {
    const transport = nodemailer.createTransport(config.SMTP_URL);
    return {
      async send(message) {
        const info = await transport.sendMail(message);
        return { transport: 'smtp', messageId: info.messageId, accepted: info.accepted.map(String), rejected: info.rejected.map(String) };
      },
      close: () => transport.close(),
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const outbox = path.join(config.dataDir, 'outbox');
  return {
    async send(message, name) {
      const info = await transport.sendMail(message);
      await mkdir(outbox, { recursive: true });
      const file = path.join(outbox, `${name}.eml`);
      await writeFile(file, info.message as Buffer);
      return { transport: 'outbox', messageId: info.messageId, file };
    },
    close: () => transport.close(),
  };
}

export async function runEmail(spec: EmailSpec, ctx: ActionContext): Promise<ActionOutcomeReport> {
  const message: MailMessage = {
    from: spec.from ?? ctx.config.MAIL_FROM,
    to: spec.to,
    cc: spec.cc,
    bcc: spec.bcc,
    ...(spec.replyTo ? { replyTo: spec.replyTo } : {}),
    subject: spec.subject,
    text: spec.text,
    ...(spec.html ? { html: spec.html } : {}),
    messageId: `<${ctx.outcomeId}@relay.gateway>`,
  };
  try {
    return ok(await ctx.mailer.send(message, ctx.outcomeId));
  } catch (err) {
    const code = (err as { responseCode?: number }).responseCode;
    // A 5xx SMTP reply (unknown mailbox, refused) will not change on retry; anything else may.
    return failed(`email not sent: ${(err as Error).message}`, !(code && code >= 500));
  }
}
