import { Type, type Static } from 'typebox';
import { component } from '../../schemas/registry.ts';

export const User = component(
  'User',
  Type.Object(
    {
      object: Type.Literal('user', { description: 'Always "user"' }),
      id: Type.String({ description: 'Unique identifier for the user' }),
      displayName: Type.String({ description: 'Full name of the user' }),
      email: Type.Optional(Type.String({ description: 'Email address of the user' })),
      photoURL: Type.Optional(Type.String({ description: "URL of the user's profile picture" })),
      urls: Type.Object({ location: Type.String({ format: 'uri', description: 'URL of the user in the API' }) }),
    },
    { description: 'A user of the server' },
  ),
);
export type UserWire = Static<typeof User>;

export const UserIdParams = Type.Object({ userId: Type.String({ minLength: 1, maxLength: 64 }) });
