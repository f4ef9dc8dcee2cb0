import { atLeast, definePolicy } from '../../policies/index.ts';
import type { OrganizationAccess } from '../organizations/organizations.policy.ts';

/**
 * SAML provider rules (docs/decisions/sso.md): only organization admins see and manage
 * providers (their configuration decides who becomes a member). The sign-in listing
 * `GET {O}/sso` is public: the sign-in page shows it before anyone is signed in.
 */
export const samlProviderPolicy = definePolicy<OrganizationAccess, 'manage'>({
  manage: (a) => atLeast(a.role, 'admin'),
});
