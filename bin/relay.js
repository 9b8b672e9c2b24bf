#!/usr/bin/env node
// Runs the compiled CLI (dist/src/cli/main.js, built at install by bin/build.mjs). In a clone it is
// rebuilt first when a source is newer; without esbuild it falls back to compiling through tsx.
// The production image has no src/ and runs dist/cli/main.js from `npm run build`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
if (!fs.existsSync(path.join(root, 'src'))) {
  await import(pathToFileURL(path.join(root, 'dist/cli/main.js')).href);
} else {
  const build = await import('./build.mjs');
  if (build.isStale() && !(await build.ensureBuilt())) {
    const { register } = await import('tsx/esm/api');
    register();
    await import('../src/cli/main.ts');
  } else {
    await import(pathToFileURL(build.CLI_ENTRY).href);
  }
}
