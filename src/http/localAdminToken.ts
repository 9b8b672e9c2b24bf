// The admin token of a local installation: when the service runs on its embedded database and
// ADMIN_TOKEN is unset, a random token is kept in DATA_DIR/admin-token (mode 0600) so the console
// and the admin API work straight after `npm start`. Deployments on MONGODB_URI set ADMIN_TOKEN.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export function localAdminTokenFile(dataDir: string): string {
  return path.join(dataDir, 'admin-token');
}

/** Reads the stored token, creating it on first use. The token itself is never logged. */
export function ensureLocalAdminToken(dataDir: string): string {
  const file = localAdminTokenFile(dataDir);
  try {
    const stored = fs.readFileSync(file, 'utf8').trim();
    if (stored.length >= 16) return stored;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const token = randomBytes(24).toString('hex');
  fs.writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return token;
}
