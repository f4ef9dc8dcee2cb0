/*
 * Space rules live with the content access core (permissions.policy.ts), because spaces,
 * collections and their grants share one notion of an effective role. This file names
 * them for the spaces module, as every module has its policy file.
 */
export { spacePolicy, spacePermissions, type ContentAccess } from '../permissions/permissions.policy.ts';
