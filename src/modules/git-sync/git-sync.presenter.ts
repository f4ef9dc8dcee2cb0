import type { GitSyncStateWire } from './git-sync.schemas.ts';
import type { GitSyncRunRow } from './git-sync.repository.ts';

/** The space's gitSync object (spec 2.3; GitBook's GitSyncState), as stored on the space row. */
export function presentGitSync(input: { spaceId: string; remote: string; provider?: string; browseUrl?: string; updatedAt: string }): GitSyncStateWire {
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

/** One line of `cli -- git-sync log SPACE`. */
export function presentRunLine(run: GitSyncRunRow): string {
  const parts = [
    run.started_at,
    run.direction.padEnd(6),
    run.status.padEnd(14),
    (run.commit ?? '-').slice(0, 12).padEnd(12),
    `${run.pages_changed} page(s)`,
    `${run.duration_ms} ms`,
  ];
  if (run.change_request_id) parts.push(`change request ${run.change_request_id}`);
  if (run.error) parts.push(`error: ${run.error}`);
  return parts.join('  ');
}
