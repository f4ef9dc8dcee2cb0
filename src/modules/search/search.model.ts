import type { Page } from '../../lib/pagination/index.ts';
import type { SearchQuery } from '../../content/search/query.ts';
import type { RevisionSnapshot } from '../../content/store/types.ts';
import { SECTIONS_KEPT, type RankedPage, type SectionHit } from './search.repository.ts';

/** A page's best sections (most matches, then document order), at most `max` (none while unread: searchRepository.readSections). */
export function shownSections(page: RankedPage, max = SECTIONS_KEPT): SectionHit[] {
  return [...(page.sections ?? [])].sort((a, b) => b.rank - a.rank || a.position - b.position).slice(0, max);
}

/** A matching page as a search shows it: the ranking's hit, the snapshot it is read from, its rank among the results. */
export interface PageHit {
  hit: RankedPage;
  snapshot: RevisionSnapshot;
  rank: number;
}

/** A page of one space's search results, with the query they answer (excerpts show its words). */
export interface SpaceSearchResult extends Page<PageHit> {
  query: SearchQuery;
}

/** A space of an organization's search results, with its matching pages, best first. */
export interface SpaceHits {
  space: { id: string; title: string };
  pages: PageHit[];
}

/** A page of an organization's search results (one item per space), with the query they answer. */
export interface OrganizationSearchResult extends Page<SpaceHits> {
  query: SearchQuery;
}
