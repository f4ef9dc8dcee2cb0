/*
 * Searching needs what reading needs: `view` on each space searched (loadSpace for a
 * space, visibleSpaceIds for an organization, both applying spacePolicy). Search adds no
 * rule of its own; this file names the one it follows, as every module has its policy.
 */
export { spacePolicy as searchPolicy } from '../../access/index.ts';
