import type { LinkOccurrence } from '../../content/links/report.ts';
import type { RevisionSnapshot } from '../../content/store/types.ts';
import type { LinkStatusName } from './links.schemas.ts';

/*
 * What the links service answers: link targets with their occurrences, and where they are
 * read from (the revision, its space and what other spaces are live). The routes present
 * them (links.presenter.ts); a cached listing is the same object on every read, so the
 * route presents and serializes it once (presentReused).
 */

/** The revision or change request a listing reads. */
export type VersionContext = { type: 'revision'; revision: string } | { type: 'changeRequest'; changeRequest: string };

/** What presenting needs to know besides the occurrence. */
export interface LocationScope {
  organizationId: string;
  spaceId: string;
  snapshot: RevisionSnapshot;
  versionContext: VersionContext;
  /** Organizations of other live spaces links point at. */
  foreign: Map<string, { organizationId: string }>;
}

/** One link target: its final status and where it is linked from (first occurrence first). */
export interface LinkTarget {
  status: LinkStatusName;
  occurrences: LinkOccurrence[];
}

/** A page of link targets, with the listing's counts. */
export interface LinkListingResult {
  next?: { page: string };
  count: number;
  stats: { total: number; broken: { total: number; changeRequest: number } };
  scope: LocationScope;
  items: LinkTarget[];
}

/** A page of backlinks: one occurrence per linking page. */
export interface BacklinksResult {
  next?: { page: string };
  count: number;
  scope: LocationScope;
  items: LinkOccurrence[];
}
