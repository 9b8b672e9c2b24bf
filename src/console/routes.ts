// Serves the web console's built files (console/ at the repo root, built into console/dist) at
// /console. The files hold no data: every page asks for the admin token and sends it as a Bearer
// header to /api/admin, which is where the protection lives. The token never enters a URL.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { AppContext } from '../context.ts';
import { sendStaticFile } from '../http/staticFiles.ts';
import { setPageSecurityHeaders } from '../http/pageHeaders.ts';

/** src/console/routes.ts and dist/console/routes.js both sit two folders below the repo root. */
export const CONSOLE_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../console/dist');

async function sendConsole(c: Context, file: string | undefined): Promise<void> {
  setPageSecurityHeaders(c); // the console performs admin actions: never framed
  if (file && file.startsWith('assets/')) {
    // Hashed names: cache for good; a missing asset is a plain 404 (no HTML fallback for scripts).
    await sendStaticFile(c, CONSOLE_DIST, file, { immutable: true });
    return;
  }
  if (file && (await sendStaticFile(c, CONSOLE_DIST, file))) return;
  // Any other path is a page of the single-page app: send index.html and let it route.
  if (await sendStaticFile(c, CONSOLE_DIST, 'index.html')) return;
  c.status = 503;
  c.type = 'text/plain; charset=utf-8';
  c.body = 'The console is not built. Run `npm run build:console` (npm start and npm test build it when missing).\n';
}

/** Relay's icon: browsers ask for /favicon.ico on every site, and SVG is accepted under that name. */
export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#1f4e79"/>' +
  '<path d="M9 24V8h8a5 5 0 0 1 0 10h-8m7 0 6 6" fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/></svg>\n';

export function consoleRoutes(router: Router, _ctx: AppContext): void {
  router.get('/favicon.ico', (c) => {
    c.type = 'image/svg+xml';
    c.set('Cache-Control', 'public, max-age=86400');
    c.body = FAVICON_SVG;
  });
  // The site root has nothing of its own: send a visitor to the console.
  router.get('/', (c) => c.redirect('/console'));
  router.get('/console', (c) => sendConsole(c, undefined));
  router.get('/console/{*file}', (c) => sendConsole(c, c.params.file));
}
