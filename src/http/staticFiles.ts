// Serves files from one folder for the docs page and the console: no directory listing, no path
// escaping the folder (the name is resolved and must stay inside it), long caching for hashed names.
import fs from 'node:fs';
import path from 'node:path';
import type { Context } from 'koa';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.map': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
};

/** Sends `name` from `folder`; returns false (and sends nothing) when there is no such file. */
export async function sendStaticFile(c: Context, folder: string, name: string, opts: { immutable?: boolean } = {}): Promise<boolean> {
  const root = path.resolve(folder);
  const file = path.resolve(root, name);
  if (!file.startsWith(root + path.sep)) return false;
  const stat = await fs.promises.stat(file).catch(() => undefined);
  if (!stat?.isFile()) return false;
  c.type = TYPES[path.extname(file)] ?? 'application/octet-stream';
  c.length = stat.size;
  c.set('Cache-Control', opts.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
  c.set('X-Content-Type-Options', 'nosniff');
  c.body = fs.createReadStream(file);
  return true;
}
