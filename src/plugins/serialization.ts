import type { FastifyInstance } from 'fastify';
import { isReusable } from '../lib/reusable.ts';

/**
 * Serializes a reusable response body (a cached listing) once: its bytes are remembered
 * beside the object and sent again as they are. Everything else goes through the route's
 * response schema as usual.
 */
export function registerSerialization(app: FastifyInstance): void {
  const serialized = new WeakMap<object, string>();
  app.addHook('preSerialization', (_request, reply, payload, done) => {
    if (isReusable(payload) && reply.statusCode === 200) {
      let text = serialized.get(payload);
      if (text === undefined) {
        text = reply.serialize(payload) as string;
        serialized.set(payload, text);
      }
      const bytes = text;
      reply.serializer(() => bytes);
    }
    done(null, payload);
  });
}
