import { Type } from 'typebox';
import { component } from '../../schemas/registry.ts';

export const ApiInformation = component(
  'ApiInformation',
  Type.Object(
    {
      version: Type.String({ description: 'Current release of Quire' }),
      build: Type.String({ description: 'Date of the release in ISO format' }),
    },
    { description: 'Release of the server; GET /v1/ is also the readiness probe' },
  ),
);

export const Liveness = component(
  'Liveness',
  Type.Object(
    { status: Type.Literal('ok') },
    { description: 'The process runs and answers; GET /healthz is the liveness probe (it asks no database)' },
  ),
);
