// The response cap reads only about one chunk past the limit, whatever the body size.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CappedBody, decodeCapped, readCappedBody } from '../../src/outbound/responseBody.ts';

/** A 1 GiB body produced lazily; `pulled` counts the bytes the reader actually took. */
function hugeBody(chunkSize: number) {
  const total = 1024 * 1024 * 1024;
  const state = { pulled: 0, destroyed: false };
  const chunk = Buffer.alloc(chunkSize, 'z');
  const stream = new Readable({
    highWaterMark: chunkSize,
    read() {
      if (state.pulled >= total) return this.push(null);
      state.pulled += chunk.length;
      this.push(chunk);
    },
    destroy(err, cb) {
      state.destroyed = true;
      cb(err);
    },
  });
  return { stream, state };
}

describe('readCappedBody', () => {
  it('stops pulling a 1 GiB body soon after the limit and destroys the stream', async () => {
    const { stream, state } = hugeBody(16 * 1024);
    const body = new CappedBody(4096);
    await readCappedBody(stream, body);
    expect(body.truncated).toBe(true);
    expect(body.text()).toHaveLength(4096);
    expect(body.bytesRead).toBeLessThanOrEqual(4096 + 16 * 1024);
    // The stream may buffer one read ahead of the consumer, never more.
    expect(state.pulled).toBeLessThanOrEqual(3 * 16 * 1024);
    expect(state.destroyed).toBe(true);
  });

  it('keeps a short body whole', async () => {
    const body = new CappedBody(100);
    await readCappedBody(Readable.from([Buffer.from('ab'), Buffer.from('cd')]), body);
    expect({ text: body.text(), truncated: body.truncated, bytesRead: body.bytesRead }).toEqual({ text: 'abcd', truncated: false, bytesRead: 4 });
  });
});

describe('decodeCapped', () => {
  it('keeps the stored text within the byte limit even for invalid UTF-8', () => {
    const binary = Buffer.alloc(1000, 0xff);
    const text = decodeCapped(binary, 1000);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(1000);
    expect(text.startsWith('\ufffd')).toBe(true);
  });

  it('drops an incomplete trailing character', () => {
    expect(decodeCapped(Buffer.from('a€').subarray(0, 3), 3)).toBe('a');
  });
});
