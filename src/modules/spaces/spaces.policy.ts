/*
 * Space rules live with the access layer (src/access/content.policy.ts), because spaces,
 * collections and their grants share one notion of an effective role. This file names
 * them for the spaces module, as every module has its policy file.
 */
export { spacePolicy, spacePermissions } from '../../access/content.policy.ts';
export type { ContentAccess } from '../../access/effective-role.ts';
