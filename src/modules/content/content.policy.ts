/*
 * Reading content needs the `view` rule of the space (spacePolicy): whoever may see the
 * space may read every revision of it. loadSpace (spaces.service.ts) applies it, so the
 * content module has no rules of its own yet; editing rules come with change requests.
 */
export { spacePolicy as contentPolicy } from '../../access/index.ts';
