import type { Config } from '../../config.ts';
import type { TeamWire } from './teams.schemas.ts';

/** A team row with its counts, as every team query selects it. */
export interface TeamRowWithCounts {
  id: string;
  organization_id: string;
  title: string;
  created_at: string;
  members: number;
  spaces: number;
}

/** teams row (with counts) -> Team wire object, with the caller's permissions on it. */
export function presentTeam(
  _config: Pick<Config, 'publicUrl'>,
  row: TeamRowWithCounts,
  permissions: { admin: boolean; view: boolean },
): TeamWire {
  return {
    object: 'team',
    id: row.id,
    title: row.title,
    // count() is a bigint on PostgreSQL; the wire wants plain numbers whatever the driver gives.
    members: Number(row.members),
    spaces: Number(row.spaces),
    createdAt: row.created_at,
    permissions: { admin: permissions.admin, view: permissions.view },
  };
}
