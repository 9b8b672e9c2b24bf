// Issue 37: browsers ask every site for /favicon.ico; Relay answers with its icon, not a 404,
// and the console's page names it.
import { describe, expect, it } from 'vitest';
import { useTestRuntime } from '../helpers/harness.ts';

describe('/favicon.ico', () => {
  const rt = useTestRuntime();

  it('answers 200 with an SVG icon that the console page links', async () => {
    const res = await rt.http().get('/favicon.ico').buffer(true).parse((r, done) => {
      let text = '';
      r.on('data', (c: Buffer) => (text += c.toString('utf8')));
      r.on('end', () => done(null, text));
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(res.body).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*>.*<\/svg>\n$/s);
    const page = await rt.http().get('/console');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<link rel="icon" type="image/svg+xml" href="/favicon.ico" />');
  });
});
