import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const teamsRoutes: FastifyPluginAsyncTypebox = async () => {};
