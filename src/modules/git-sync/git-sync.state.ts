import type { GitSyncStateWire } from './git-sync.schemas.ts';

/*
 * The state of a space's git sync, kept on the space row (spaces.git_sync) when a sync is
 * requested and answered as it was stored (GET {S}/git/info, the space's gitSync): its
 * shape is the wire's, so it is made once here, not presented per request.
 */

/** The space's gitSync object (spec 2.3; GitBook's GitSyncState), as stored on the space row. */
export function gitSyncState(input: { spaceId: string; remote: string; provider?: string; browseUrl?: string; updatedAt: string }): GitSyncStateWire {
  return {
    repoName: repoNameOf(input.browseUrl ?? input.remote),
    installationId: input.spaceId,
    // GitBook's schema names github, gitlab (and github-legacy); a plain git remote says github-compatible "github" only when told.
    installationProvider: input.provider ?? 'github',
    installationStatus: 'active',
    integration: input.provider ?? 'git',
    ...(input.browseUrl ? { url: input.browseUrl } : {}),
    updatedAt: input.updatedAt,
  };
}

/** `owner/name` of a repository URL (without `.git`), or its last path segment. */
export function repoNameOf(url: string): string {
  try {
    const parts = new URL(url).pathname.replace(/\.git$/, '').split('/').filter(Boolean);
    const tree = parts.indexOf('tree');
    const meaningful = tree > 0 ? parts.slice(0, tree) : parts;
    return meaningful.slice(-2).join('/') || new URL(url).hostname;
  } catch {
    return url;
  }
}
