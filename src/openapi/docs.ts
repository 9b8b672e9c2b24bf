// The API reference: /openapi.json (generated, see document.ts) and /docs, a Swagger UI page whose
// files come from the swagger-ui-dist package on disk, so nothing is fetched from a CDN.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type Router from '@koa/router';
import type Koa from 'koa';
import { buildOpenApi, type OpenApiDocument } from './document.ts';
import { routersOf } from '../http/routers.ts';
import { sendStaticFile } from '../http/staticFiles.ts';
import { setPageSecurityHeaders } from '../http/pageHeaders.ts';

const require = createRequire(import.meta.url);
const swaggerUiFolder = path.dirname(require.resolve('swagger-ui-dist/package.json'));
/** The Swagger UI files the page loads; anything else under /docs/ is 404. */
const SWAGGER_FILES = new Set(['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'favicon-32x32.png', 'index.css']);

function packageVersion(): string {
  // src/openapi/docs.ts and dist/openapi/docs.js both sit two folders below package.json.
  const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../package.json');
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

const documents = new WeakMap<Koa, OpenApiDocument>();

/** The document of one app, built on first use (all routes are registered by then). */
export function openApiDocumentOf(app: Koa, opts: { serverUrl?: string } = {}): OpenApiDocument {
  let doc = documents.get(app);
  if (!doc) {
    doc = buildOpenApi(routersOf(app), { version: packageVersion(), serverUrl: opts.serverUrl });
    documents.set(app, doc);
  }
  return doc;
}

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Relay API reference</title>
  <link rel="icon" type="image/png" href="/docs/favicon-32x32.png">
  <link rel="stylesheet" href="/docs/swagger-ui.css">
  <link rel="stylesheet" href="/docs/index.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script src="/docs/swagger-ui-standalone-preset.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>
`;

// A file rather than an inline script, so a strict Content-Security-Policy can forbid inline code.
const DOCS_INIT = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout',
  persistAuthorization: false
});
`;

/** `serverUrl`: PUBLIC_BASE_URL, the document's server when set (else `/`, the server it came from). */
export function docsRoutes(router: Router, opts: { serverUrl?: string } = {}): void {
  router.get('/openapi.json', (c) => {
    c.body = openApiDocumentOf(c.app, opts);
  });
  router.get('/docs', (c) => {
    setPageSecurityHeaders(c);
    c.type = 'text/html; charset=utf-8';
    c.body = DOCS_PAGE;
  });
  router.get('/docs/:file', async (c) => {
    setPageSecurityHeaders(c);
    const file = c.params.file!;
    if (file === 'init.js') {
      c.type = 'text/javascript; charset=utf-8';
      c.body = DOCS_INIT;
      return;
    }
    if (SWAGGER_FILES.has(file)) await sendStaticFile(c, swaggerUiFolder, file);
  });
}
