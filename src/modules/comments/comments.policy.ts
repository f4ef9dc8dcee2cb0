import { definePolicy } from '../../policies/index.ts';
import { spacePolicy, type ContentAccess } from '../../access/index.ts';

/** The caller's standing towards one comment or reply: their access to its space, and whether they wrote it. */
export interface CommentAccess {
  space: ContentAccess;
  isAuthor: boolean;
}

/**
 * Comment rules (docs/decisions/comments.md). Comments are the organization's discussions:
 * seeing them needs membership with read on the space (a public space's visitors read its
 * content, not its discussions). The `comment` role and above post, reply, react and
 * resolve; authors edit their own words (while they may still comment) and delete them;
 * admins of the space delete anything.
 */
export const commentPolicy = definePolicy<CommentAccess, 'view' | 'edit' | 'reply' | 'delete'>({
  view: (a) => spacePolicy.can('access', a.space),
  edit: (a) => a.isAuthor && spacePolicy.can('comment', a.space),
  reply: (a) => spacePolicy.can('comment', a.space),
  delete: (a) => (a.isAuthor && spacePolicy.can('comment', a.space)) || spacePolicy.can('admin', a.space),
});
