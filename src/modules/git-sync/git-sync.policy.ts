import { spacePolicy } from '../../access/index.ts';

/**
 * Git sync rules: triggering an import or export follows the space's `triggerGitSync`
 * permission (the edit role); reading the sync's state needs only to see the space.
 */
export const gitSyncPolicy = {
  authorizeTrigger: (access: Parameters<typeof spacePolicy.authorize>[1]) => spacePolicy.authorize('triggerGitSync', access, 'Git sync needs the edit role on the space'),
};
