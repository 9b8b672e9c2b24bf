// Builds the console when console/dist is missing or older than its sources, so `npm start` and
// `npm test` work straight after `npm ci`. Production images build it in the Dockerfile instead.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { takeLockFolder } from '../bin/lock-folder.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const built = path.join(here, 'dist', 'index.html');

function newestSource(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

const sources = Math.max(newestSource(path.join(here, 'src')), ...['index.html', 'vite.config.ts'].map((f) => fs.statSync(path.join(here, f)).mtimeMs));
const builtAt = fs.existsSync(built) ? fs.statSync(built).mtimeMs : 0;
if (builtAt >= sources) process.exit(0);

let vite;
try {
  vite = path.join(path.dirname(fileURLToPath(import.meta.resolve('vite/package.json'))), 'bin', 'vite.js');
} catch {
  // Installed without dev dependencies: serve what exists (the app answers 503 on /console if nothing).
  process.stderr.write('console: vite is not installed; skipping the console build (npm run build:console)\n');
  process.exit(0);
}
// Test files may call this at once: one builds, the others wait and then find it built.
const release = takeLockFolder(path.join(here, '.build-lock'), 100);
try {
  if (!fs.existsSync(built) || fs.statSync(built).mtimeMs < sources) {
    process.stderr.write('console: building the web console (console/dist)…\n');
    const result = spawnSync(process.execPath, [vite, 'build', '--config', path.join(here, 'vite.config.ts'), '--logLevel', 'warn'], { stdio: 'inherit' });
    process.exitCode = result.status ?? 1;
  }
} finally {
  release();
}
