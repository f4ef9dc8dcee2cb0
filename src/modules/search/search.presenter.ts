import type { Config } from '../../config.ts';
import { appUrl } from '../../lib/urls.ts';
import { excerpt, type SearchQuery } from '../../content/search/query.ts';
import type { PageNode, RevisionSnapshot } from '../../content/store/types.ts';
import type { SectionHit } from './search.repository.ts';
import type { SearchPageResultWire } from './search.schemas.ts';

/** A page's matching sections, ranked. */
export interface PageHit {
  spaceId: string;
  pageId: string;
  titleMatch: boolean;
  /** Best relevance of its sections (higher is better). */
  relevance: number;
  sections: SectionHit[];
}

/** Sections shown per page: the best ones. */
export const MAX_SECTIONS = 5;

export type SectionTexts = Map<number, { section_title: string; body: string }>;

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
export function presentPageResult(config: Pick<Config, 'publicUrl'>, snapshot: RevisionSnapshot, hit: PageHit, rank: number, query: SearchQuery, texts: SectionTexts): SearchPageResultWire {
  const node = snapshot.byId.get(hit.pageId)!;
  const pageUrl = appUrl(config, `/s/${hit.spaceId}/pages/${hit.pageId}`);
  return {
    id: hit.pageId,
    title: node.entry.title,
    description: node.entry.description ?? '',
    path: node.path,
    score: scoreOf(hit.titleMatch, hit.relevance),
    rank,
    resultType: hit.titleMatch ? 'page' : 'section',
    sections: hit.sections.slice(0, MAX_SECTIONS).map((s) => ({
      id: s.section_id || hit.pageId,
      title: texts.get(s.id)?.section_title || node.entry.title,
      path: s.section_id ? `${node.path}#${s.section_id}` : node.path,
      score: scoreOf(false, s.rank),
      resultType: 'section' as const,
      body: excerpt(texts.get(s.id)?.body ?? '', query),
      urls: { app: s.section_id ? `${pageUrl}#${encodeURIComponent(s.section_id)}` : pageUrl },
    })),
    ancestors: ancestorsOf(snapshot, node),
    urls: { app: pageUrl },
  };
}
