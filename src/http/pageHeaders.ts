// Security headers for the HTML pages Relay serves (the console and the API reference at /docs):
// scripts and styles from our own origin only, no framing (clickjacking), no content sniffing.
import type { Context } from 'koa';

const PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

export function setPageSecurityHeaders(c: Context): void {
  c.set('Content-Security-Policy', PAGE_CSP);
  c.set('Referrer-Policy', 'no-referrer');
  c.set('X-Frame-Options', 'DENY');
  c.set('X-Content-Type-Options', 'nosniff');
}
