/*
 * Collection rules live beside the space rules in permissions.policy.ts: both decide on
 * the same ContentAccess (effective role from organization role, grants and defaultLevel),
 * and the permissions module needs them to guard grant management. Re-exported here so
 * this module reads like the others.
 */
export { collectionPermissions, collectionPolicy, type ContentAccess } from '../permissions/permissions.policy.ts';
