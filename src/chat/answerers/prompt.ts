// What a model sees: the system prompt (instructions, user details, request context, retrieved
// passages) and the conversation so far as chat messages.
import type { ModelMessage } from 'ai';
import type { Message } from '../model.ts';
import type { AnswerInput } from './types.ts';

export function buildSystemPrompt(input: AnswerInput): string {
  const sections = [input.instructions.trim()];
  const userData = Object.entries(input.userData ?? {}).filter(([, v]) => v !== undefined && v !== null && v !== '');
  if (userData.length) {
    // The spec: user data is not validated, so it is not proof of identity.
    sections.push(`About the user (self-reported, not verified):\n${userData.map(([k, v]) => `- ${k}: ${v}`).join('\n')}`);
  }
  const ctx = input.extendContext;
  if (ctx) {
    const lines: string[] = [];
    if (ctx.pageMeta) {
      const meta = ctx.pageMeta;
      lines.push(`The user is on the page ${meta.url}`);
      for (const key of ['title', 'description', 'og:title', 'og:description'] as const) if (meta[key]) lines.push(`- ${key}: ${meta[key]}`);
    }
    for (const [k, v] of Object.entries(ctx.custom ?? {})) lines.push(`- ${k}: ${v}`);
    if (ctx.markdown) lines.push(ctx.markdown);
    if (lines.length) sections.push(`Context for this message:\n${lines.join('\n')}`);
  }
  if (input.passages.length) {
    const passages = input.passages.map((p, i) => `[${i + 1}]${p.heading ? ` ${p.heading}` : ''}\n${p.text}`);
    sections.push(`Knowledge passages (answer from these; if they do not contain the answer, say you don't know):\n\n${passages.join('\n\n')}`);
  } else {
    sections.push('No knowledge passage matched this message; if you cannot answer from the conversation, say you don\'t know.');
  }
  if (input.recordedEmail) sections.push(`The user just gave ${input.recordedEmail} as the address a human agent can reach them at; it has been recorded.`);
  return sections.join('\n\n');
}

/** Agent replies read as the assistant's; tool records are summarised by the replies that follow them. */
export function historyMessages(history: Message[]): ModelMessage[] {
  const out: ModelMessage[] = [];
  for (const m of history) {
    if (m.role === 'user') out.push({ role: 'user', content: m.message });
    else if (m.role === 'assistant' && m.message) out.push({ role: 'assistant', content: m.message });
    else if (m.role === 'agent') out.push({ role: 'assistant', content: `(human agent) ${m.message}` });
  }
  return out;
}
