// Reads a response body as a stream, keeping at most `limit` bytes; the rest is never buffered.
import { StringDecoder } from 'node:string_decoder';
import type { Readable } from 'node:stream';

/**
 * Collects the first `limit` bytes of a body. It lives outside the read loop so that the
 * caller still has the partial body when the read is aborted by the total timeout.
 */
export class CappedBody {
  private readonly kept: Buffer[] = [];
  private keptBytes = 0;
  /** Bytes received from the socket (at most limit + one chunk): the memory bound, tested. */
  bytesRead = 0;
  truncated = false;

  constructor(private readonly limit: number) {}

  /** Returns false once the limit is exceeded: the caller must stop reading. */
  add(chunk: Buffer): boolean {
    this.bytesRead += chunk.length;
    const room = this.limit - this.keptBytes;
    if (room > 0) {
      const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
      this.kept.push(part);
      this.keptBytes += part.length;
    }
    if (chunk.length > room) this.truncated = true;
    return !this.truncated;
  }

  text(): string {
    return decodeCapped(Buffer.concat(this.kept), this.limit);
  }
}

/**
 * Stops reading as soon as one byte more than the limit arrives: the stream is destroyed,
 * which closes the connection, so a 50 MB body or a gzip bomb (we ask for identity encoding
 * and never decompress) costs about one chunk of memory, not the whole body.
 * Throws whatever the stream throws (an abort on timeout).
 */
export async function readCappedBody(body: Readable, into: CappedBody): Promise<void> {
  for await (const chunk of body as AsyncIterable<Buffer>) {
    if (!into.add(chunk)) {
      body.destroy();
      return;
    }
  }
}

/**
 * UTF-8 text of at most `limit` bytes. An incomplete trailing sequence is dropped, and since
 * invalid bytes decode to U+FFFD (3 bytes each), the text is re-cut so that the STORED
 * string also stays within the limit, binary bodies included.
 */
export function decodeCapped(bytes: Buffer, limit: number): string {
  const text = new StringDecoder('utf8').write(bytes);
  if (Buffer.byteLength(text, 'utf8') <= limit) return text;
  return new StringDecoder('utf8').write(Buffer.from(text, 'utf8').subarray(0, limit));
}
