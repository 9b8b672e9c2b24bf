// Custom payload templating (spec "Delivery behaviour" 5): `{{dot.path}}` placeholders in the
// target URL, header values and body, resolved against the event payload. Rules and the
// reason this is hand-written rather than a mustache library: docs/OUTBOUND.md.
import { tooLarge } from './unsendable.ts';

export type TemplateMode = 'url' | 'header' | 'body';
/** `unresolved`: placeholder tokens sent literally, as written (e.g. `{{conversation.nope}}`). */
export interface RenderResult {
  text: string;
  unresolved: string[];
}
export interface CustomRequestTemplate {
  url: string;
  headers: Record<string, string>;
  body: string | null;
}

/**
 * `{{ a.b.0.c }}`: spaces allowed inside the braces; segments are separated by dots and may
 * not contain whitespace, braces, dots, quotes or backslashes (so a placeholder never
 * changes the quoting state of a JSON body). Anything else is plain text, not a placeholder.
 */
const PLACEHOLDER = /\{\{\s*([^\s{}."\\]+(?:\.[^\s{}."\\]+)*)\s*\}\}/y;

/** Never followed, even when present as an own property (JSON.parse makes `__proto__` one). */
const FORBIDDEN_SEGMENTS = new Set(['__proto__', 'constructor', 'prototype']);

/** C0 controls except tab, and DEL: CR/LF would split a header; undici refuses the others. */
const HEADER_UNSAFE = /[\u0000-\u0008\u000a-\u001f\u007f]/g;

type Lookup = { found: true; value: unknown } | { found: false };

/** Follows own data properties only: no prototype walk, no getters run. */
function resolvePath(payload: unknown, path: string): Lookup {
  let current: unknown = payload;
  for (const segment of path.split('.')) {
    if (FORBIDDEN_SEGMENTS.has(segment)) return { found: false };
    if (current === null || typeof current !== 'object') return { found: false };
    const descriptor = Object.getOwnPropertyDescriptor(current, segment);
    if (!descriptor || !('value' in descriptor)) return { found: false };
    current = descriptor.value;
  }
  return current === undefined ? { found: false } : { found: true, value: current };
}

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}

function jsonText(value: unknown): string | null {
  try {
    const text = JSON.stringify(value);
    return typeof text === 'string' ? text : null;
  } catch {
    return null; // cycles, BigInt
  }
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** encodeURIComponent throws on a lone surrogate; it becomes U+FFFD instead. */
function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, '\ufffd');
}

/** The text a resolved value becomes, or null when this mode cannot take it (sent literally). */
function substitute(value: unknown, mode: TemplateMode, inJsonString: boolean): string | null {
  if (mode === 'url') return isScalar(value) ? encodeURIComponent(wellFormed(String(value))) : null;
  if (mode === 'header') return isScalar(value) ? String(value).replace(HEADER_UNSAFE, '') : null;
  const text = typeof value === 'string' ? value : jsonText(value);
  if (text === null) return null;
  // Inside a JSON string literal the value is escaped so the body stays valid JSON.
  return inJsonString ? JSON.stringify(text).slice(1, -1) : text;
}

/**
 * A body template is treated as JSON when it parses as JSON once every placeholder is
 * replaced by `0`. Only then do quotes mark string literals whose placeholders get escaped;
 * a plain-text body is substituted raw.
 */
function isJsonTemplate(template: string): boolean {
  const skeleton = template.replace(new RegExp(PLACEHOLDER.source, 'g'), '0');
  try {
    JSON.parse(skeleton);
    return true;
  } catch {
    return false;
  }
}

const PART = { url: 'url', header: 'headers', body: 'body' } as const;

/**
 * The scheme, host and port of a URL template (everything before its path, query or fragment), or
 * null when a placeholder is in them: a template fills the path and query only, so a value never
 * chooses where an operator's payload goes (docs/WEBHOOKS.md, "Custom payloads").
 */
export function fixedOrigin(url: string): string | null {
  const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/?#\\]*/i.exec(url)?.[0];
  return origin && !origin.includes('{{') ? origin : null;
}

/**
 * `maxLength`: rendering stops with UnsendableRequest once the text is longer (a body that repeats
 * a large value thousands of times would otherwise be built whole before it is refused).
 */
export function renderTemplate(template: string, payload: unknown, mode: TemplateMode, maxLength = Infinity): RenderResult {
  const trackStrings = mode === 'body' && template.includes('"') && isJsonTemplate(template);
  const unresolved = new Set<string>();
  let out = '';
  let inString = false;
  let i = 0;
  while (i < template.length) {
    const ch = template[i];
    if (ch === '{' && template[i + 1] === '{') {
      PLACEHOLDER.lastIndex = i;
      const match = PLACEHOLDER.exec(template);
      if (match) {
        const found = resolvePath(payload, match[1]);
        const text = found.found ? substitute(found.value, mode, inString) : null;
        if (text === null) unresolved.add(match[0]);
        out += text ?? match[0];
        // Characters, not bytes: a text longer in characters is longer in UTF-8 bytes too.
        if (out.length > maxLength) throw tooLarge(PART[mode], maxLength);
        i = PLACEHOLDER.lastIndex;
        continue;
      }
    }
    if (trackStrings) {
      if (inString && ch === '\\') {
        out += template.slice(i, i + 2);
        i += 2;
        continue;
      }
      if (ch === '"') inString = !inString;
    }
    out += ch;
    i += 1;
  }
  if (mode === 'header') out = out.replace(HEADER_UNSAFE, '');
  return { text: out, unresolved: [...unresolved] };
}

/** Each part's rendered text is cut short past its limit (the whole request is checked after). */
export interface RenderLimits {
  urlBytes: number;
  headersBytes: number;
  bodyBytes: number;
}
const NO_LIMITS: RenderLimits = { urlBytes: Infinity, headersBytes: Infinity, bodyBytes: Infinity };

/** Renders a hook's custom request; `unresolved` lists each literal token once, URL first. */
export function renderCustomRequest(
  custom: CustomRequestTemplate,
  payload: unknown,
  limits: RenderLimits = NO_LIMITS,
): { url: string; headers: Record<string, string>; body: string | null; unresolved: string[] } {
  const unresolved = new Set<string>();
  const collect = (result: RenderResult): string => {
    for (const token of result.unresolved) unresolved.add(token);
    return result.text;
  };
  const url = collect(renderTemplate(custom.url, payload, 'url', limits.urlBytes));
  // fromEntries defines own properties, so a header literally named `__proto__` stays data.
  const headers: Record<string, string> = Object.fromEntries(
    Object.entries(custom.headers).map(([name, value]) => [name, collect(renderTemplate(value, payload, 'header', limits.headersBytes))]),
  );
  const body = custom.body === null ? null : collect(renderTemplate(custom.body, payload, 'body', limits.bodyBytes));
  return { url, headers, body, unresolved: [...unresolved] };
}
