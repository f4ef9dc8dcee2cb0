import type { FastifyRequest } from 'fastify';
import type { PageRequest } from '../lib/pagination/index.ts';

/** The page request of a list call: the opaque `page` cursor and `limit` (default from config). */
export function pageRequest(request: FastifyRequest, query: { page?: string; limit?: number }): PageRequest {
  return { page: query.page, limit: query.limit ?? request.server.deps.config.defaultPageSize };
}
