import type { FastifyRequest } from 'fastify';
import type { PageRequest } from '../lib/pagination/index.ts';

/**
 * The HTTP side of the one list helper (src/lib/pagination): a list call's opaque `page`
 * cursor and `limit` (default from config) as the PageRequest the strategies take.
 */
export function pageRequest(request: FastifyRequest, query: { page?: string; limit?: number }): PageRequest {
  return { page: query.page, limit: query.limit ?? request.server.deps.config.defaultPageSize };
}
