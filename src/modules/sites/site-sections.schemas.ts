import { Type, type Static } from 'typebox';
import { ListOf, PageQuery, Id } from '../../schemas/common.ts';
import { component, ref } from '../../schemas/registry.ts';
import { ConditionSchema, SitePathSchema, SiteSpace } from './site-spaces.schemas.ts';

/*
 * Site sections and section groups (spec 2.10, GitBook SiteSection, SiteSectionGroup,
 * SiteStructure). docs/decisions/sites.md.
 */


export const SectionTitle = Type.String({ minLength: 2, maxLength: 128, description: 'Title of the section (2 to 128 characters)' });
export const SectionDescription = Type.String({ maxLength: 256, description: 'Description of the section (max 256 characters)' });
export const IconSchema = Type.String({ maxLength: 50, description: 'Name of an icon (max 50 characters)' });
export const GroupTitle = Type.String({ minLength: 1, maxLength: 100, description: 'Title of the section group (1 to 100 characters)' });

export const SiteSection = component(
  'SiteSection',
  Type.Object(
    {
      object: Type.Literal('site-section'),
      id: Type.String({ description: 'Unique identifier of the section' }),
      title: Type.String({ description: 'Title of the section' }),
      description: Type.Optional(Type.String({ description: 'Description of the section' })),
      default: Type.Boolean({ description: 'Whether this is the default section of the site' }),
      draft: Type.Boolean({ description: 'Always false: Quire has no draft structure' }),
      path: Type.String({ description: 'Path of the section on the site' }),
      condition: Type.Optional(Type.String({ description: 'Visibility expression for visitors' })),
      sectionGroup: Type.Optional(Type.String({ description: 'Id of the group holding the section' })),
      siteSpaces: Type.Array(ref(SiteSpace)),
      urls: Type.Object({
        published: Type.Optional(Type.String({ format: 'uri', description: 'Published URL; only while the site is published' })),
      }),
      icon: Type.Optional(Type.String({ description: 'Name of the icon' })),
    },
    { description: 'A section of a docs site: site spaces under one path' },
  ),
);
export type SiteSectionWire = Static<typeof SiteSection>;

export interface SiteSectionGroupWire {
  object: 'site-section-group';
  id: string;
  title: string;
  draft: boolean;
  sectionGroup?: string;
  icon?: string;
  sections: SiteSectionWire[];
  children: (SiteSectionWire | SiteSectionGroupWire)[];
}

const GroupSelf = Type.Unsafe<SiteSectionGroupWire>({ $ref: 'SiteSectionGroup#' });

export const SiteSectionGroup = component(
  'SiteSectionGroup',
  Type.Unsafe<SiteSectionGroupWire>(
    Type.Object(
      {
        object: Type.Literal('site-section-group'),
        id: Type.String({ description: 'Unique identifier of the section group' }),
        title: Type.String({ description: 'Title of the section group' }),
        draft: Type.Boolean({ description: 'Always false: Quire has no draft structure' }),
        sectionGroup: Type.Optional(Type.String({ description: 'Id of the parent group (absent at the site root)' })),
        icon: Type.Optional(Type.String({ description: 'Name of the icon' })),
        sections: Type.Array(ref(SiteSection), { description: 'Deprecated (GitBook): the sections directly in the group' }),
        children: Type.Array(Type.Union([ref(SiteSection), GroupSelf]), { description: 'Sections and groups in the group, in order' }),
      },
      { description: 'A group of sections (and groups) of a docs site' },
    ),
  ),
);

export const SiteSectionList = ListOf(ref(SiteSection), 'Sections in the order of the site structure');
export const SiteSectionGroupList = ListOf(ref(SiteSectionGroup), 'Section groups in the order of the site structure');

export const SiteStructure = component(
  'SiteStructure',
  Type.Union(
    [
      Type.Object({
        type: Type.Literal('sections'),
        structure: Type.Array(Type.Union([ref(SiteSection), ref(SiteSectionGroup)])),
      }),
      Type.Object({ type: Type.Literal('siteSpaces'), structure: Type.Array(ref(SiteSpace)) }),
    ],
    { description: 'The site structure: sections and groups, or site spaces at the root of a site without sections' },
  ),
);
export type SiteStructureWire =
  | { type: 'sections'; structure: (SiteSectionWire | SiteSectionGroupWire)[] }
  | { type: 'siteSpaces'; structure: Static<typeof SiteSpace>[] };

export const SectionParams = Type.Object({
  organizationId: Id('The unique id of the organization'),
  siteId: Id('The unique id of the site'),
  siteSectionId: Id('The unique id of the section'),
});
export const GroupParams = Type.Object({
  organizationId: Id('The unique id of the organization'),
  siteId: Id('The unique id of the site'),
  siteSectionGroupId: Id('The unique id of the section group'),
});
export const GroupSectionParams = Type.Object({
  organizationId: Id('The unique id of the organization'),
  siteId: Id('The unique id of the site'),
  siteSectionGroupId: Id('The unique id of the section group'),
  siteSectionId: Id('The unique id of the section'),
});
export const ListSectionsQuery = Type.Object({
  ...PageQuery,
  shareKey: Type.Optional(Type.String({ maxLength: 128, description: 'Key of a share link, for share-link sites' })),
});
export const ListGroupsQuery = Type.Object({ ...PageQuery });

export const AddSectionBody = Type.Object({
  spaceId: Type.Union([Id('Id of a space of the organization'), Type.Null()], {
    description: 'The space of the section’s first site space (null, which asks GitBook to make a new space, is refused)',
  }),
  title: Type.Optional(Type.Union([SectionTitle, Type.Null()], { description: 'Title (default: the space title)' })),
  icon: Type.Optional(Type.Union([IconSchema, Type.Null()])),
  siteSectionGroupId: Type.Optional(Id('Group to create the section in (default: the site root)')),
});
export type AddSectionInput = Static<typeof AddSectionBody>;

export const UpdateSectionBody = Type.Object({
  title: Type.Optional(SectionTitle),
  path: Type.Optional(SitePathSchema('Path of the section (1 to 100 characters; unique in the site: 409 otherwise)')),
  defaultSiteSpace: Type.Optional(Id('A site space of this section to make its default')),
  condition: Type.Optional(Type.Union([ConditionSchema, Type.Null()], { description: 'Condition; null removes it, absent keeps it' })),
  icon: Type.Optional(Type.Union([IconSchema, Type.Null()])),
  description: Type.Optional(Type.Union([SectionDescription, Type.Null()])),
  siteSectionGroupId: Type.Optional(Type.Union([Id('Group to move the section into'), Type.Null()], { description: 'null: to the site root' })),
});
export type UpdateSectionInput = Static<typeof UpdateSectionBody>;

const SectionPointer = Type.Object({ type: Type.Literal('site-section'), siteSection: Id('Id of a section') });
export const MoveSectionBody = Type.Object({
  position: Type.Optional(
    Type.Object({ before: Type.Optional(SectionPointer), after: Type.Optional(SectionPointer) }, { description: 'Absent: the end of the site' }),
  ),
});
export type MoveSectionInput = Static<typeof MoveSectionBody>;

export const AddGroupBody = Type.Object({
  title: GroupTitle,
  icon: Type.Optional(Type.Union([IconSchema, Type.Null()])),
  sections: Type.Optional(Type.Array(Id('Id of a section'), { maxItems: 1000, description: 'Sections to move into the group, in this order' })),
  parent: Type.Optional(Id('Parent group (default: the site root)')),
});
export type AddGroupInput = Static<typeof AddGroupBody>;

export const UpdateGroupBody = Type.Object({
  title: Type.Optional(GroupTitle),
  icon: Type.Optional(Type.Union([IconSchema, Type.Null()])),
});
export type UpdateGroupInput = Static<typeof UpdateGroupBody>;

export const AddSectionToGroupBody = Type.Object({ sectionId: Id('The section to put at the end of the group') });

const GroupPointer = Type.Object({
  type: Type.Union([Type.Literal('site-section'), Type.Literal('site-section-group')]),
  id: Id('Id of a section or section group'),
});
export const MoveGroupBody = Type.Object({
  position: Type.Optional(
    Type.Object({ before: Type.Optional(GroupPointer), after: Type.Optional(GroupPointer) }, { description: 'Absent: the end of the site' }),
  ),
});
export type MoveGroupInput = Static<typeof MoveGroupBody>;
