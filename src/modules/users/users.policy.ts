import { definePolicy } from '../../policies/index.ts';

export interface UserSubject {
  isSelf: boolean;
  sharesOrganization: boolean;
}

/** A user's profile is visible to themselves and to people they work with. */
export const userPolicy = definePolicy<UserSubject, 'view'>({
  view: (s) => s.isSelf || s.sharesOrganization,
});
