import type { AppDeps } from '../../context.ts';
import { stemmer } from 'stemmer';
import { searchForVisitors } from '../search/search.service.ts';
import { renderSearchDropdown, renderSearchResults, type ShownResult, type MainFragments } from './published.presenter.ts';
import { SEARCH_PATH, type PlacedSiteSpace, type Structure } from './reader-structure.ts';

/* The search page and the instant-search dropdown of a published site. */

type Deps = Pick<AppDeps, 'db' | 'config' | 'clock' | 'caches' | 'files'>;
/** Stems of the searched words: what the results mark (a word matches when it starts with one). */
function searchStems(text: string): string[] {
  const words = text.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words.slice(0, 32).map((w) => (w.length > 3 ? stemmer(w) : w)))].filter((w) => w.length > 0);
}

/**
 * The search page and the instant-search dropdown: the site spaces this visitor sees (one
 * entry per space), searched with the spaces' full-text index; results link to the pages
 * on this site, section hits to their heading anchors. Not indexable.
 */
export async function searchPage(deps: Deps, structure: Structure, text: string): Promise<{ main: MainFragments; dropdown: string; count: number }> {
  const placed = new Map<string, PlacedSiteSpace>();
  for (const p of structure.siteSpaces) if (!placed.has(p.row.space_id)) placed.set(p.row.space_id, p);
  const spaces = [...placed.values()].map((p) => ({ id: p.row.space_id, revision_id: p.row.revision_id }));
  const { count, results } = text.trim() ? await searchForVisitors(deps, spaces, text, SEARCH_RESULTS) : { count: 0, results: [] };
  const shown: ShownResult[] = results.map((r) => {
    const where = placed.get(r.spaceId) as PlacedSiteSpace;
    const url = `${where.base}${r.path}`;
    return {
      url,
      title: r.title,
      space: placed.size > 1 ? where.title : null,
      sections: r.sections.map((s) => ({ title: s.title, body: s.body, url: s.anchor ? `${url}#${encodeURIComponent(s.anchor)}` : url })),
    };
  });
  const words = searchStems(text);
  const main: MainFragments = { title: 'Search', description: '', sidebar: '', article: renderSearchResults(text, count, shown, words), outline: '', prev: null, next: null, noindex: true };
  const allUrl = `${structure.base}${SEARCH_PATH}?q=${encodeURIComponent(text)}`;
  return { main, dropdown: renderSearchDropdown(text, shown.slice(0, DROPDOWN_RESULTS), words, allUrl), count };
}

/** Pages shown in the instant-search dropdown. */
const DROPDOWN_RESULTS = 8;

/** Results shown on the search page. */
const SEARCH_RESULTS = 50;
