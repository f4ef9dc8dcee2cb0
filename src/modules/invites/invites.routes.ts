import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const invitesRoutes: FastifyPluginAsyncTypebox = async () => {};
