import { Type, type Static } from 'typebox';

export const ProviderParams = Type.Object({
  providerId: Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-zA-Z0-9_-]+$', description: 'The unique id of the SAML provider' }),
});

export const StartQuery = Type.Object({
  to: Type.Optional(Type.String({ maxLength: 2000, description: 'The app page to land on after signing in' })),
});

/** The HTTP-POST binding's form fields (SAML 2.0 bindings, 3.5). */
export const AcsBody = Type.Object(
  {
    SAMLResponse: Type.String({ minLength: 1, maxLength: 1_000_000, description: 'base64 of the IdP response XML' }),
    RelayState: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: true },
);
export type AcsInput = Static<typeof AcsBody>;
