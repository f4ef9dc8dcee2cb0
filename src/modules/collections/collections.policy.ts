/*
 * Collection rules live beside the space rules in the access layer
 * (src/access/content.policy.ts): both decide on the same ContentAccess (effective role
 * from organization role, grants and defaultLevel). Re-exported here so this module reads
 * like the others.
 */
export { collectionPermissions, collectionPolicy } from '../../access/content.policy.ts';
export type { ContentAccess } from '../../access/effective-role.ts';
