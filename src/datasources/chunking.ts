// Heading-aware markdown chunking: each row becomes documents that follow its sections, so a
// retrieved chunk carries the heading path it sits under ("Setup > Install"). Long sections are
// cut at paragraph, then line, then hard boundaries. Tokens are counted with cl100k_base.
import { countTokens } from 'gpt-tokenizer/encoding/cl100k_base';
import { cleanMarkdown } from '../knowledge/clean.ts';

export interface Chunk {
  heading: string | null;
  text: string;
  tokens: number;
}

/** About 300-400 tokens of English: small enough to rank precisely, big enough to answer from. */
export const MAX_CHUNK_CHARS = 1_500;
/** A row's "<|endoftext|>" is text like any other: the library would throw and fail the sync. */
const PLAIN = { disallowedSpecial: new Set<string>() };

const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const FENCE = /^ {0,3}(```|~~~)/;

interface Section {
  path: string[];
  lines: string[];
}

function sections(markdown: string): Section[] {
  const out: Section[] = [];
  const stack: Array<{ level: number; title: string }> = [];
  let current: Section = { path: [], lines: [] };
  let fence: string | null = null;
  for (const line of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    const fenceMatch = FENCE.exec(line);
    if (fenceMatch) fence = fence === null ? fenceMatch[1]! : fence === fenceMatch[1] ? null : fence;
    const heading = fence === null && !fenceMatch ? HEADING.exec(line) : null;
    if (heading) {
      out.push(current);
      const level = heading[1]!.length;
      while (stack.length && stack[stack.length - 1]!.level >= level) stack.pop();
      stack.push({ level, title: heading[2]!.trim() });
      current = { path: stack.map((s) => s.title).filter(Boolean), lines: [line] };
    } else {
      current.lines.push(line);
    }
  }
  out.push(current);
  return out;
}

/** Cuts text into pieces of at most `max` characters, preferring the largest boundary that fits. */
function split(text: string, max: number, separators = ['\n\n', '\n', '. ', ' ']): string[] {
  if (text.length <= max) return [text];
  const [separator, ...rest] = separators;
  if (separator === undefined) {
    const pieces: string[] = [];
    for (let i = 0; i < text.length; i += max) pieces.push(text.slice(i, i + max));
    return pieces;
  }
  const pieces: string[] = [];
  let current = '';
  for (const part of text.split(separator)) {
    const candidate = current ? current + separator + part : part;
    if (candidate.length <= max) {
      current = candidate;
      continue;
    }
    if (current) pieces.push(current);
    if (part.length <= max) current = part;
    else {
      pieces.push(...split(part, max, rest));
      current = '';
    }
  }
  if (current) pieces.push(current);
  return pieces;
}

/** `clean` (default) strips what knowledge/clean.ts names first; off only to measure it. */
export function chunkMarkdown(markdown: string, maxChars = MAX_CHUNK_CHARS, clean = true): Chunk[] {
  const chunks: Chunk[] = [];
  for (const section of sections(clean ? cleanMarkdown(markdown) : markdown)) {
    const body = section.lines.join('\n').trim();
    // A heading with no text of its own adds nothing; its title lives on in its children's path.
    const isBareHeading = section.lines.filter((l) => l.trim()).length <= 1 && HEADING.test(section.lines[0] ?? '');
    if (!body || isBareHeading) continue;
    const heading = section.path.length ? section.path.join(' > ') : null;
    for (const piece of split(body, maxChars)) {
      const text = piece.trim();
      if (text) chunks.push({ heading, text, tokens: countTokens(text, PLAIN) });
    }
  }
  return chunks;
}
