import { Type, type Static } from 'typebox';
import { ListOf, PageQuery, Id } from '../../schemas/common.ts';
import { component, ref } from '../../schemas/registry.ts';

const Score = Type.Number({ minimum: 0, description: 'Relevance: higher is better, unbounded (a page whose title matches scores above 1)' });

export const SearchSectionResult = component(
  'SearchSectionResult',
  Type.Object(
    {
      id: Type.String({ description: 'Anchor of the section’s heading (the page id for the text before the first heading)' }),
      title: Type.String(),
      path: Type.String({ description: 'Path of the page, with #anchor for a heading section' }),
      score: Score,
      resultType: Type.Optional(Type.Union([Type.Literal('page'), Type.Literal('section')])),
      body: Type.String({ description: 'The section’s text around what matched' }),
      urls: Type.Object({ app: Type.String({ format: 'uri' }) }),
    },
    { description: 'A section of a page matching the search' },
  ),
);

export const SearchPageResult = component(
  'SearchPageResult',
  Type.Object(
    {
      id: Type.String(),
      title: Type.String(),
      description: Type.String(),
      path: Type.String(),
      score: Score,
      rank: Type.Integer({ minimum: 1, description: 'One-based position in the whole ranked result' }),
      resultType: Type.Optional(Type.Union([Type.Literal('page'), Type.Literal('section')])),
      sections: Type.Optional(Type.Array(ref(SearchSectionResult))),
      ancestors: Type.Array(Type.Object({ title: Type.String() }), { description: 'Ancestor pages, from the top to the direct parent' }),
      urls: Type.Object({ app: Type.String({ format: 'uri' }) }),
    },
    { description: 'A page matching the search' },
  ),
);

export const SpaceSearchList = ListOf(ref(SearchPageResult), 'Pages matching the search, best first (title matches first)');

export const SearchQueryParams = Type.Object({
  query: Type.String({ minLength: 1, maxLength: 512, description: 'Text to search for; the last word also matches as a prefix' }),
  ...PageQuery,
});

export const SpaceParams = Type.Object({ spaceId: Id('Id of the space') });

export type SearchPageResultWire = Static<typeof SearchPageResult>;

// GET {O}/search (searchOrganizationContent): one item per space.
export const SearchQuery = Type.Object({
  query: Type.String({ minLength: 1, maxLength: 512, description: 'Text to search for' }),
  ...PageQuery,
});

export const SearchSpaceResult = component(
  'SearchSpaceResult',
  Type.Object({
    type: Type.Literal('space'),
    id: Type.String(),
    title: Type.String(),
    score: Type.Number({ minimum: 0 }),
    pages: Type.Array(ref(SearchPageResult)),
  }),
);
export const OrganizationSearchList = ListOf(ref(SearchSpaceResult), 'Search results, one item per space');
