import type { Db } from '../../db/database.ts';
import { conflict } from '../../errors.ts';
import { spacesRepository } from './spaces.repository.ts';

/* Space rules that another module applies too: a collection's transfer moves its spaces. */

/**
 * A transfer moves spaces to another organization, but not what their old organization
 * built on them: its sites would keep publishing them, its translations keep reading or
 * writing them, across the two tenants. Refused until they are taken out of those.
 */
export async function assertMovableToAnotherOrganization(db: Db, spaceIds: string[], what: string): Promise<void> {
  const uses = await spacesRepository.organizationUses(db, spaceIds);
  if (uses.site) throw conflict(`${what} is published on the site "${uses.site.title}" of its organization: remove it from the site first`);
  if (uses.translation) throw conflict(`${what} is used by the translation ${uses.translation.id} of its organization: delete the translation first`);
}
