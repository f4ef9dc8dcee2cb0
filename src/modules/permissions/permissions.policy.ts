/*
 * The content rules and the effective role live in the access layer (src/access): spaces,
 * collections, change requests, comments and grants decide on the same ContentAccess.
 * Named here for the permissions module, as every module has its policy file.
 */
export { collectionPermissions, collectionPolicy, spacePermissions, spacePolicy } from '../../access/content.policy.ts';
export { effectiveDefaultLevel, effectiveRole, type ContentAccess, type RoleInputs } from '../../access/effective-role.ts';
