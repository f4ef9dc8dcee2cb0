import type { Db } from '../../db/database.ts';
import { badRequest } from '../../errors.ts';
import { conversationsRepository } from './conversations.repository.ts';

/* The rule a change request applies when it names an issues cluster. */

/** 400 unless the organization has the cluster (a change request names one). */
export async function assertClusterOf(db: Db, organizationId: string, clusterId: string, field: string): Promise<void> {
  if (!(await conversationsRepository.clusterExists(db, organizationId, clusterId))) throw badRequest(`${field}: no issues cluster "${clusterId}" in this organization`);
}
