// A retrieved chunk made readable for the grounded reply: cleaned markdown (knowledge/clean.ts, so
// chunks synced before cleaning existed read the same), the section's heading first, the body cut
// at a paragraph, list item or sentence boundary (never inside a code block), and the row named.
import { cleanMarkdown } from '../../knowledge/clean.ts';
import type { KnowledgeHit } from '../../knowledge/service.ts';

/** About a screenful: enough to answer, short enough to read in a chat bubble. */
export const PASSAGE_LIMIT = 700;

const HEADING_LINE = /^ {0,3}#{1,6}[ \t]/;
/** MDX/JSX component tags on a line of their own (`<Note>`, `</Tab>`): markup, not prose. */
const COMPONENT_LINE = /^\s*<\/?[A-Z][\w.]*(?:\s[^>]*)?\/?>\s*$/;
const FENCE = /^ {0,3}(```|~~~)/;
const LIST_ITEM = /^ {0,3}(?:[-*+]|\d{1,9}[.)])[ \t]/;

/** The body as blocks: paragraphs, single list items, whole code blocks. */
function blocks(markdown: string): string[] {
  const out: string[] = [];
  let current: string[] = [];
  let fence: string | null = null;
  const flush = () => {
    if (current.length) out.push(current.join('\n'));
    current = [];
  };
  for (const line of markdown.split('\n')) {
    const marker = FENCE.exec(line)?.[1];
    if (fence !== null) {
      current.push(line);
      if (marker === fence) {
        fence = null;
        flush();
      }
      continue;
    }
    if (marker) {
      flush();
      fence = marker;
      current.push(line);
    } else if (!line.trim()) flush();
    else {
      if (LIST_ITEM.test(line)) flush();
      current.push(line);
    }
  }
  flush();
  return out;
}

/** The longest start of a paragraph that ends a sentence within `room` characters, or null. */
function sentencesWithin(paragraph: string, room: number): string | null {
  const cut = paragraph.slice(0, room);
  const ends = [...cut.matchAll(/[.!?](?=\s|$)/g)].map((m) => m.index! + 1);
  const end = ends[ends.length - 1];
  return end && end > room / 3 ? cut.slice(0, end) : null;
}

/** The passage's body, cut at the last whole block (or sentence) that fits in `limit`. */
export function cutBody(markdown: string, limit = PASSAGE_LIMIT): string {
  const kept: string[] = [];
  let used = 0;
  for (const block of blocks(markdown)) {
    const room = limit - used;
    if (block.length <= room) {
      kept.push(block);
      used += block.length + 2;
      continue;
    }
    // The first block alone is too long: keep its first sentences, or cut a code block at a line.
    if (!kept.length) {
      if (FENCE.test(block)) {
        const lines = block.split('\n');
        let body = lines[0]!;
        for (const line of lines.slice(1, -1)) if (body.length + line.length + 1 < room) body += `\n${line}`;
        kept.push(`${body}\n${FENCE.exec(lines[0]!)![1]}`);
      } else kept.push(sentencesWithin(block, room) ?? `${block.slice(0, room).replace(/\s+\S*$/, '')}…`);
    }
    break;
  }
  return kept.join('\n\n');
}

/** One passage of the reply: heading path in bold, the cut body, the row it came from. */
export function readablePassage(hit: Pick<KnowledgeHit, 'heading' | 'text'>, rowName: string | null): string {
  const lines = cleanMarkdown(hit.text)
    .split('\n')
    .filter((line) => !COMPONENT_LINE.test(line));
  // The chunk starts with its own heading line; the heading path below says it with its context.
  while (lines.length && (HEADING_LINE.test(lines[0]!) || !lines[0]!.trim())) lines.shift();
  const parts: string[] = [];
  if (hit.heading) parts.push(`**${hit.heading.replaceAll(' > ', ' › ')}**`);
  parts.push(cutBody(lines.join('\n')));
  if (rowName) parts.push(`_Source: ${rowName}_`);
  return parts.filter(Boolean).join('\n\n');
}
