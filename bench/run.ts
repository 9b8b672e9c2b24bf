// `npm run bench -- <name>` runs bench/<name>.ts; without a name it lists the scenarios.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const dir = path.dirname(fileURLToPath(import.meta.url));
const scenarios = fs.readdirSync(dir).filter((f) => f.endsWith('.ts') && f !== 'run.ts').map((f) => f.slice(0, -3));
const name = process.argv[2];
if (!name || !scenarios.includes(name)) {
  console.log(`usage: npm run bench -- <scenario>\nscenarios: ${scenarios.join(', ')}`);
  process.exit(name ? 1 : 0);
}
console.error(`relay bench: running ${name} (bounded; loopback only)…`);
await import(pathToFileURL(path.join(dir, `${name}.ts`)).href);
