import type { GitSyncRunRow } from './git-sync.repository.ts';

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
