import { Type, type Static } from 'typebox';
import { ListOf, PageQuery, Id } from '../../schemas/common.ts';
import { component, ref } from '../../schemas/registry.ts';
import { Space } from '../spaces/spaces.schemas.ts';

/*
 * Site spaces: a space attached to a docs site, at the site root or in a section
 * (spec 2.10, GitBook SiteSpace). docs/decisions/sites.md.
 */


/**
 * A path segment of the published site (1 to 100 characters): letters, digits and
 * `-._~`, not `.` or `..`, so it is one URL segment as it is (docs/decisions/sites.md).
 */
export const SitePathSchema = (description: string) =>
  Type.String({ minLength: 1, maxLength: 100, pattern: '^(?!\\.\\.?$)[A-Za-z0-9._~-]+$', description });

/** An adaptive-content condition (spec 2.10): an expression over visitor claims, max 1024. */
export const ConditionSchema = Type.String({
  maxLength: 1024,
  description: 'Expression deciding whether visitors see the item, e.g. visitor.claims.unsigned.beta == true',
});

export const SiteSpace = component(
  'SiteSpace',
  Type.Object(
    {
      object: Type.Literal('site-space'),
      id: Type.String({ description: 'Unique identifier of the site space' }),
      path: Type.String({ description: 'Path of the site space on the site' }),
      section: Type.Optional(Type.String({ description: 'Id of the section holding the site space (absent at the site root)' })),
      space: ref(Space),
      title: Type.String({ description: 'Title of the site space (its own, or the space title)' }),
      default: Type.Boolean({ description: 'Whether this is the default site space of its section (or of the site root)' }),
      condition: Type.Optional(Type.String({ description: 'Visibility expression for visitors' })),
      draft: Type.Boolean({ description: 'Always false: Quire has no draft structure' }),
      hidden: Type.Boolean({ description: 'Always false: every site space is in the navigation' }),
      hasAdvancedCustomizationFeature: Type.Boolean({ description: 'Always true on a self-hosted server' }),
      urls: Type.Object({
        published: Type.Optional(Type.String({ format: 'uri', description: 'Published URL; only while the site is published' })),
      }),
    },
    { description: 'A space attached to a docs site' },
  ),
);
export type SiteSpaceWire = Static<typeof SiteSpace>;

export const SiteSpaceList = ListOf(ref(SiteSpace), 'Site spaces in the order of the site structure');

export const SiteSpaceParams = Type.Object({
  organizationId: Id('The unique id of the organization'),
  siteId: Id('The unique id of the site'),
  siteSpaceId: Id('The unique id of the site space'),
});
export const SiteParams = Type.Object({
  organizationId: Id('The unique id of the organization'),
  siteId: Id('The unique id of the site'),
});

export const ListSiteSpacesQuery = Type.Object({
  ...PageQuery,
  shareKey: Type.Optional(Type.String({ maxLength: 128, description: 'Key of a share link, for share-link sites' })),
  default: Type.Optional(Type.Boolean({ description: 'true: only default site spaces; false: only the others; absent: all' })),
});

export const AddSiteSpaceBody = Type.Object({
  spaceId: Type.Union([Id('Id of a space of the organization'), Type.Null()], {
    description: 'The space to attach (null, which asks GitBook to make a new space, is refused)',
  }),
  sectionId: Type.Optional(Id('Section to add the site space to (default: the default section, or the root)')),
  title: Type.Optional(Type.String({ minLength: 2, maxLength: 128, description: 'Title of the site space (default: the space title)' })),
});
export type AddSiteSpaceInput = Static<typeof AddSiteSpaceBody>;

export const UpdateSiteSpaceBody = Type.Object({
  path: Type.Optional(SitePathSchema('New path of the site space (unique in its section: 409 otherwise)')),
  condition: Type.Optional(Type.Union([ConditionSchema, Type.Null()], { description: 'Condition; null removes it, absent keeps it' })),
  spaceId: Type.Optional(Id('The space the site space points to; absent keeps it')),
});
export type UpdateSiteSpaceInput = Static<typeof UpdateSiteSpaceBody>;

const SiteSpacePointer = Type.Object({ type: Type.Literal('site-space'), siteSpace: Id('Id of a site space') });
export const MoveSiteSpaceBody = Type.Object({
  position: Type.Optional(
    Type.Object(
      { before: Type.Optional(SiteSpacePointer), after: Type.Optional(SiteSpacePointer) },
      { description: 'Where to move the site space (absent: the end of its section)' },
    ),
  ),
});
export type MoveSiteSpaceInput = Static<typeof MoveSiteSpaceBody>;
