// Row content at rest: deflated, with a content hash. FerretDB v1 reads and writes cost about in
// proportion to the bytes it decodes, and markdown deflates 2-4x, so every scan a sync or a
// listing does touches a fraction of the bytes (docs/DATA_SOURCES.md, "Storage").
import { createHash } from 'node:crypto';
import { deflateRawSync, inflateRawSync, constants } from 'node:zlib';

export function contentHash(content: string): string {
  return createHash('sha256').update(content, 'utf8').digest('base64url').slice(0, 22);
}

export function packContent(content: string): Buffer {
  return deflateRawSync(Buffer.from(content, 'utf8'), { level: constants.Z_BEST_SPEED });
}

export function unpackContent(data: Buffer | { buffer: Uint8Array }): string {
  const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data.buffer);
  return inflateRawSync(bytes).toString('utf8');
}

/** Storage tokens a sync of this much text is expected to use (cl100k_base averages ~4 bytes/token). */
export const estimateTokens = (bytes: number): number => Math.ceil(bytes / 4);
