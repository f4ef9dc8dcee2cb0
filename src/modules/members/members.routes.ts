import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const membersRoutes: FastifyPluginAsyncTypebox = async () => {};
