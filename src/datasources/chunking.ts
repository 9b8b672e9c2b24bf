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

/** An ATX heading; its closing `#`s are cut by withoutClosing. */
const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*)$/;
const FENCE = /^ {0,3}(```|~~~)/;
/** A setext underline: `===` makes the line above a level-1 heading, `---` a level-2 one. */
const UNDERLINE = /^ {0,3}(=+|-{2,})[ \t]*$/;
/** Lines that are not a paragraph's text, so an underline below one is not a heading (a list item, a quote, a table row, HTML, code). */
const NOT_PARAGRAPH = /^(?: {4}|\t| {0,3}(?:[-*+][ \t]|\d{1,9}[.)][ \t]|>|\||<|#|=|-{2,}[ \t]*$))/;

// No part of the next three scans past a `[` or `<` it could start again at, so a hostile heading of
// 100,000 `[` or `<a ` costs linear time, not quadratic.
/** An image, `![alt](src)`: a badge or a logo, no words of the section's. */
const IMAGE = /!\[[^[\]]*\]\((?:[^()\s]|\([^()]*\))*(?:\s+(?:"[^"]*"|'[^']*'))?\)/g;
/** An inline link, `[text](url "title")`: its text is what the reader sees. */
const LINK = /\[([^[\]]*)\]\((?:[^()\s]|\([^()]*\))*(?:\s+(?:"[^"]*"|'[^']*'))?\)/g;
/** Anchors, images and line breaks written as HTML; other `<…>` stays (`Promise<Result>` is a type). */
const HTML_TAG = /<(?:\/?a\b[^<>]*|img\b[^<>]*|br\s*\/?)>/gi;

/**
 * A heading as the reader sees it: a release heading that links to its diff, a title with badges,
 * read as their text, so a heading path carries no URLs ("[4.16.5](https://…) (2024-12-18)" → "4.16.5 (2024-12-18)").
 */
export function headingText(markdown: string): string {
  // A code span is literal: `<img>` and `[a](b)` in backticks stay as written.
  const parts = markdown.split(/(`+[^`]*`+)/);
  return parts
    .map((part, i) => (i % 2 ? part : part.replace(IMAGE, '').replace(LINK, '$1').replace(HTML_TAG, ' ')))
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * A heading's text without its closing `#`s (`## Title ##`), which follow a space. Done by hand: a
 * pattern for the closing run beside a lazy title backtracks quadratically on a line of many spaces.
 */
function withoutClosing(text: string): string {
  const trimmed = text.trimEnd();
  let end = trimmed.length;
  while (end > 0 && trimmed[end - 1] === '#') end--;
  return end < trimmed.length && (trimmed[end - 1] === ' ' || trimmed[end - 1] === '\t') ? trimmed.slice(0, end).trimEnd() : trimmed;
}

interface Section {
  path: string[];
  lines: string[];
  /** How many of `lines` are the heading itself (1 for `# Title`, 2 for a title and its underline). */
  headingLines: number;
}

function sections(markdown: string): Section[] {
  const out: Section[] = [];
  const stack: Array<{ level: number; title: string }> = [];
  let current: Section = { path: [], lines: [], headingLines: 0 };
  let fence: string | null = null;
  // The line before, when it is a one-line paragraph: the title an underline would make a heading.
  let title: string | null = null;
  const open = (level: number, text: string, lines: string[]) => {
    out.push(current);
    while (stack.length && stack[stack.length - 1]!.level >= level) stack.pop();
    stack.push({ level, title: headingText(text) });
    current = { path: stack.map((s) => s.title).filter(Boolean), lines, headingLines: lines.length };
  };
  for (const line of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    const fenceMatch = FENCE.exec(line);
    if (fenceMatch) fence = fence === null ? fenceMatch[1]! : fence === fenceMatch[1] ? null : fence;
    const inText = fence === null && !fenceMatch;
    const heading = inText ? HEADING.exec(line) : null;
    const underline: RegExpExecArray | null = inText && title !== null ? UNDERLINE.exec(line) : null;
    if (heading) {
      open(heading[1]!.length, withoutClosing(heading[2]!), [line]);
    } else if (underline) {
      current.lines.pop();
      open(underline[1]!.startsWith('=') ? 1 : 2, title!, [title!, line]);
    } else {
      current.lines.push(line);
    }
    // A title is a paragraph's only line: it follows a blank line or a heading, and is no other block.
    const previous = current.lines.at(-2);
    const startsParagraph = previous === undefined || !previous.trim() || current.headingLines === current.lines.length - 1;
    title = inText && !heading && !underline && line.trim() && !NOT_PARAGRAPH.test(line) && startsParagraph ? line : null;
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
    const isBareHeading = section.headingLines > 0 && section.lines.filter((l) => l.trim()).length <= section.headingLines;
    if (!body || isBareHeading) continue;
    const heading = section.path.length ? section.path.join(' > ') : null;
    for (const piece of split(body, maxChars)) {
      const text = piece.trim();
      if (text) chunks.push({ heading, text, tokens: countTokens(text, PLAIN) });
    }
  }
  return chunks;
}
