import { createHash, type Hash } from 'node:crypto';

/** Chunks of `source` (a Buffer yields itself), counted and hashed as they pass. */
export async function* hashed(source: Buffer | AsyncIterable<Buffer | Uint8Array>, into: { hash: Hash; size: number }): AsyncGenerator<Buffer> {
  if (Buffer.isBuffer(source)) {
    into.hash.update(source);
    into.size += source.length;
    yield source;
    return;
  }
  for await (const piece of source) {
    const chunk = Buffer.isBuffer(piece) ? piece : Buffer.from(piece);
    into.hash.update(chunk);
    into.size += chunk.length;
    yield chunk;
  }
}

export function newDigest(): { hash: Hash; size: number } {
  return { hash: createHash('sha256'), size: 0 };
}

export function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}
