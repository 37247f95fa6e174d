import compress, { type FastifyCompressOptions } from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import { constants } from 'node:zlib';

/**
 * How API answers are compressed (@fastify/compress; the web app's files are compressed at build time, plugins/web.ts).
 *
 * Every browser asks for `br`. Measured on a season's packages with their forms (196 KB of JSON:API; server CPU per
 * request, decision 0007): sent uncompressed 3.0 ms, with the plugin's defaults 7.0 ms, with these 3.7 ms.
 * - In one call, not through a stream: the plugin's default compresses answers above 8 KB (on 2 cores) in a zlib
 *   stream on libuv's threads, and the stream's setup, chunks and hops cost more than the compression itself. Our
 *   answers are whole strings already, and a worker has no spare core to give the threads (one worker a core), so
 *   everything up to 4 MB (a page of 500 rows with includes is about 1.5 MB) is compressed at once.
 * - Brotli quality 1, not the plugin's 4: 17 KB instead of 14 KB for that document, in a third of the time.
 * - gzip (clients without brotli) at level 4: close to level 6's size for about half its time.
 */
const COMPRESSION: FastifyCompressOptions = {
  global: true,
  threshold: 1024,
  syncThreshold: 4 * 1024 * 1024,
  brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } },
  zlibOptions: { level: 4 },
};

/**
 * Registers the plugin for every route, with its request decompression only where a request can have a body: the
 * plugin would otherwise run a preParsing hook at every read (GET and HEAD have no body), a cost each small read
 * pays (decision 0007). A write sent gzip- or brotli-encoded is still decoded.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  // Before the plugin's own onRoute hook, which reads `decompress`.
  app.addHook('onRoute', (route) => {
    if ([route.method].flat().every((method) => method === 'GET' || method === 'HEAD')) route.decompress ??= false;
  });
  await app.register(compress, COMPRESSION);
}
