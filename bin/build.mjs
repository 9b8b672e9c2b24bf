// Compiles the TypeScript under src/ (and any .ts it imports from outside src/) to JavaScript in
// dist/, one file per source file, so `relay` starts without a compile per call. Runs at install
// (`prepare`), from the test setup, and from bin/relay.js when a source is newer than the build.
// The layout mirrors the repository (dist/src/cli/main.js) so paths taken from import.meta.url
// still meet the files beside them; the Go files of the FerretDB patch are copied with them.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { takeLockFolder } from './lock-folder.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const OUT = path.join(ROOT, 'dist');
export const CLI_ENTRY = path.join(OUT, 'src', 'cli', 'main.js');
/** The sources of the last build, for the staleness check in bin/relay.js. */
export const STAMP = path.join(OUT, 'build-inputs.json');

function tsFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** True when the build is missing or a source it was made from (or a new one under src/) is newer. */
export function isStale() {
  let stamp;
  try {
    stamp = JSON.parse(fs.readFileSync(STAMP, 'utf8'));
  } catch {
    return true;
  }
  const builtAt = stamp.builtAt;
  if (!fs.existsSync(CLI_ENTRY)) return true;
  const known = new Set(stamp.inputs);
  for (const file of tsFiles(path.join(ROOT, 'src'))) if (!known.has(path.relative(ROOT, file))) return true;
  for (const input of stamp.inputs) {
    const stat = fs.statSync(path.join(ROOT, input), { throwIfNoEntry: false });
    if (!stat || stat.mtimeMs > builtAt) return true;
  }
  return false;
}

// Relative imports stay imports of the sibling .js file; packages stay imports from node_modules.
const keepImports = {
  name: 'keep-imports',
  setup(build) {
    build.onResolve({ filter: /^\.\.?\// }, (args) => (args.kind === 'entry-point' ? undefined : { path: args.path.replace(/\.ts$/, '.js'), external: true }));
  },
};

async function compile(esbuild) {
  const started = Date.now();
  // Everything under src/, plus what it imports from elsewhere in the repository.
  const graph = await esbuild.build({
    entryPoints: [path.join(ROOT, 'src/main.ts'), path.join(ROOT, 'src/cli/main.ts')],
    bundle: true,
    write: false,
    outdir: OUT,
    metafile: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'silent',
  });
  const inputs = new Set(tsFiles(path.join(ROOT, 'src')).map((f) => path.relative(ROOT, f)));
  for (const input of Object.keys(graph.metafile.inputs)) if (input.endsWith('.ts') && !input.startsWith('node_modules')) inputs.add(path.normalize(input));
  const staging = fs.mkdtempSync(path.join(ROOT, '.dist-'));
  try {
    await esbuild.build({
      entryPoints: [...inputs].map((f) => path.join(ROOT, f)),
      outbase: ROOT,
      outdir: staging,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      plugins: [keepImports],
      logLevel: 'warning',
    });
    // Files read at run time beside the code (the patch's Go sources).
    for (const dir of new Set([...inputs].map((f) => path.dirname(f)))) {
      for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
        if (entry.isFile() && !entry.name.endsWith('.ts')) fs.copyFileSync(path.join(ROOT, dir, entry.name), path.join(staging, dir, entry.name));
      }
    }
    // dist/src/cli reads ../../package.json for its version, as src/cli does.
    fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(staging, 'package.json'));
    fs.writeFileSync(path.join(staging, 'build-inputs.json'), JSON.stringify({ builtAt: started, inputs: [...inputs].sort() }));
    // Swap in whole: src/ mirror and stamp together. dist/ may also hold `npm run build`'s output.
    fs.mkdirSync(OUT, { recursive: true });
    for (const name of ['src', 'package.json', 'build-inputs.json', ...fs.readdirSync(staging).filter((n) => !['src', 'package.json', 'build-inputs.json'].includes(n))]) {
      const target = path.join(OUT, name);
      const old = `${target}.old-${process.pid}`;
      if (fs.existsSync(target)) fs.renameSync(target, old);
      fs.renameSync(path.join(staging, name), target);
      fs.rmSync(old, { recursive: true, force: true });
    }
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * Builds dist/ when it is stale; callers at the same time take turns. Returns false when esbuild is
 * not installed.
 */
export async function ensureBuilt({ quiet = false } = {}) {
  if (!isStale()) return true;
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    return false;
  }
  const release = takeLockFolder(path.join(ROOT, '.dist-lock'));
  try {
    if (!isStale()) return true;
    if (!quiet) process.stderr.write('relay: compiling src/ to dist/ …\n');
    await compile(esbuild);
    return true;
  } finally {
    release();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (!fs.existsSync(path.join(ROOT, 'src'))) process.exit(0); // an install without sources (e.g. before the Dockerfile copies them)
  const built = await ensureBuilt({ quiet: true });
  if (!built) process.stderr.write('relay: esbuild is not installed; `relay` will compile TypeScript on each call (slower)\n');
  // --install-db (npm ci's `prepare`): build the embedded FerretDB now, where a wait is expected,
  // not at the first start. A missing Go or a failed build is a warning: MONGODB_URI needs neither.
  if (built && process.argv.includes('--install-db') && !process.env.MONGODB_URI) {
    try {
      const { ensureFerretBinary } = await import(pathToFileURL(path.join(OUT, 'src/db/ferretdb.js')).href);
      ensureFerretBinary();
    } catch (err) {
      process.stderr.write(`relay: warning: the embedded FerretDB was not built (${err.message.split('\n')[0]}).\n` +
        'relay: `npm start` will try again; with MONGODB_URI set it is not needed. Details: `npx relay db install`.\n');
    }
  }
}
