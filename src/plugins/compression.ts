import compress from '@fastify/compress';
import { constants as zlibConstants } from 'node:zlib';
import type { FastifyInstance } from 'fastify';

/*
 * Compressed responses (issue 20): brotli or gzip, as the client accepts, for the JSON API
 * and anything else over 1 KiB. Published pages compress their own bytes once per cached
 * outcome (published.routes.ts) and arrive here already encoded, which this plugin skips.
 * Brotli quality 5: its default (11) is meant for static files and costs far more CPU on
 * dynamic responses for a few percent of size.
 *
 * Responses only: request bodies are not decompressed (`globalDecompression: false`). No
 * GitBook client compresses what it sends, a decompressor on every route costs each request
 * a hook, and an inflated body is one more way past the body limit. A compressed JSON body
 * is answered 415 by the JSON parser (app.ts).
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    global: true,
    globalDecompression: false,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } },
    zlibOptions: { level: 6 },
  });
}
