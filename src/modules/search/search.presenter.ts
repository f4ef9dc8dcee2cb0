import type { Config } from '../../config.ts';
import { appUrl } from '../../lib/urls.ts';
import { excerpt, type SearchQuery } from '../../content/search/query.ts';
import type { PageNode, RevisionSnapshot } from '../../content/store/types.ts';
import { shownSections, type OrganizationSearchResult, type SpaceSearchResult } from './search.model.ts';
import type { RankedPage } from './search.repository.ts';
import type { SearchPageResultWire } from './search.schemas.ts';

/**
 * GitBook's score is unbounded, higher is better. Relevance is squashed into [0, 1) and a
 * title match adds 1, so ordering by score is the order of the results (title matches first).
 */
export const scoreOf = (titleMatch: boolean, relevance: number) => (titleMatch ? 1 : 0) + relevance / (1 + relevance);

function ancestorsOf(snapshot: RevisionSnapshot, node: PageNode): { title: string }[] {
  const titles: { title: string }[] = [];
  for (let id = node.parentId; id; id = snapshot.byId.get(id)?.parentId ?? null) {
    const parent = snapshot.byId.get(id);
    if (!parent) break;
    titles.unshift({ title: parent.entry.title });
  }
  return titles;
}

/** A page of the search results (GitBook's SearchPageResult), its sections with the matched text. */
export function presentPageResult(config: Pick<Config, 'publicUrl'>, snapshot: RevisionSnapshot, hit: RankedPage, rank: number, query: SearchQuery): SearchPageResultWire {
  const node = snapshot.byId.get(hit.page_id)!;
  const pageUrl = appUrl(config, `/s/${hit.space_id}/pages/${hit.page_id}`);
  return {
    id: hit.page_id,
    title: node.entry.title,
    description: node.entry.description ?? '',
    path: node.path,
    score: scoreOf(hit.title_match, hit.relevance),
    rank,
    resultType: hit.title_match ? 'page' : 'section',
    sections: shownSections(hit).map((s) => ({
      id: s.section_id || hit.page_id,
      title: s.title || node.entry.title,
      path: s.section_id ? `${node.path}#${s.section_id}` : node.path,
      score: scoreOf(false, s.rank),
      resultType: 'section' as const,
      body: excerpt(s.body, query, s.match_at),
      urls: { app: s.section_id ? `${pageUrl}#${encodeURIComponent(s.section_id)}` : pageUrl },
    })),
    ancestors: ancestorsOf(snapshot, node),
    urls: { app: pageUrl },
  };
}

/** A page of one space's search results -> the SpaceSearchList wire object. */
export function presentSpaceSearch(config: Pick<Config, 'publicUrl'>, result: SpaceSearchResult) {
  const { query, ...page } = result;
  return { ...page, items: result.items.map((p) => presentPageResult(config, p.snapshot, p.hit, p.rank, query)) };
}

/** A page of an organization's search results -> the OrganizationSearchList wire object (a space's score is its best page's). */
export function presentOrganizationSearch(config: Pick<Config, 'publicUrl'>, result: OrganizationSearchResult) {
  const { query, ...page } = result;
  return {
    ...page,
    items: result.items.map(({ space, pages: hits }) => {
      const pages = hits.map((p) => presentPageResult(config, p.snapshot, p.hit, p.rank, query));
      return { type: 'space' as const, id: space.id, title: space.title, score: pages[0]?.score ?? 0, pages };
    }),
  };
}
