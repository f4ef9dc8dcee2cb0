/*
 * Links and backlinks are read like the content they are in: whoever may see the space
 * (loadSpace) or the change request (loadChangeRequest) may list them. No rules of their own.
 */
export { spacePolicy as linksPolicy } from '../../access/index.ts';
