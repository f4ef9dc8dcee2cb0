import { Type, type Static } from 'typebox';
import { PageQuery, Id } from '../../schemas/common.ts';
import { component, ref } from '../../schemas/registry.ts';


const VersionContext = Type.Object({
  type: Type.String({ description: 'revision, or changeRequest for reads of a change request' }),
  revision: Type.Optional(Type.String({ description: 'Id of the revision' })),
  changeRequest: Type.Optional(Type.String({ description: 'Id of the change request' })),
});

/**
 * Where a link points, or where it is: GitBook's ContentLocation with ids in place of the
 * expanded organization, space and revision (docs/decisions/links-and-search.md). Open
 * (it is one shape for every kind).
 */
export const ContentLocationRef = component(
  'LinkContentLocation',
  Type.Object(
    {
      kind: Type.String({ description: 'page, file, url, space, openapi, collection, user, reusable-content or tag' }),
      organization: Type.Optional(Type.String({ description: 'Id of the organization' })),
      space: Type.Optional(Type.String({ description: 'Id of the space' })),
      versionContext: Type.Optional(VersionContext),
      page: Type.Optional(Type.Object({ id: Type.String(), title: Type.Optional(Type.String()), path: Type.Optional(Type.String()) })),
      file: Type.Optional(
        Type.Object({ id: Type.String(), name: Type.Optional(Type.String()), contentType: Type.Optional(Type.String()), size: Type.Optional(Type.Number()) }),
      ),
      internalLocation: Type.Optional(
        Type.Object({ type: Type.String({ description: 'anchor or node' }), anchor: Type.Optional(Type.String()), node: Type.Optional(Type.String()) }),
      ),
      url: Type.Optional(Type.String()),
      spec: Type.Optional(Type.String({ description: 'Slug of the OpenAPI specification' })),
      collection: Type.Optional(Type.String()),
      user: Type.Optional(Type.String()),
      reusableContent: Type.Optional(Type.String()),
      tag: Type.Optional(Type.String()),
    },
    { description: 'A place in content: the target of a link, or where a link is' },
  ),
);

export const LinkStatus = Type.Union([Type.Literal('ok'), Type.Literal('broken'), Type.Literal('in-app')]);

export const ContentLink = component(
  'ContentLink',
  Type.Object(
    {
      status: LinkStatus,
      relation: Type.String({ description: 'reference' }),
      targetReference: ref(ContentLocationRef),
      locationReferences: Type.Array(ref(ContentLocationRef), { description: 'Where the links to this target are (page and node)' }),
    },
    { description: 'A link target of the content, with its status and where it is linked from' },
  ),
);

export const LinkListing = Type.Object(
  {
    next: Type.Optional(Type.Object({ page: Type.String() })),
    count: Type.Integer({ description: 'Link targets matching the status filter' }),
    stats: Type.Object({
      total: Type.Integer({ description: 'Link targets, whatever their status' }),
      broken: Type.Object({
        total: Type.Integer(),
        changeRequest: Type.Integer({ description: 'Broken link targets the change request introduced (broken in it, not in its base); 0 outside change requests' }),
      }),
    }),
    items: Type.Array(ref(ContentLink)),
  },
  { description: 'Link listing (spec 2.5)' },
);

export const BacklinkList = Type.Object(
  {
    next: Type.Optional(Type.Object({ page: Type.String() })),
    count: Type.Integer(),
    items: Type.Array(ref(ContentLocationRef)),
  },
  { description: 'The places linking to a page or file, one per page' },
);

export const LinksQuery = Type.Object({ ...PageQuery, status: Type.Optional(LinkStatus) });
export const BacklinksQuery = Type.Object({ ...PageQuery });

export const SpaceParams = Type.Object({ spaceId: Id('Id of the space') });
export const PageParams = Type.Object({ spaceId: Id('Id of the space'), pageId: Id('Id of the page') });
export const FileParams = Type.Object({ spaceId: Id('Id of the space'), fileId: Id('Id of the file') });
const crId = Id('Id or number of the change request');
export const ChangeRequestPageParams = Type.Object({ spaceId: Id('Id of the space'), changeRequestId: crId, pageId: Id('Id of the page') });
export const ChangeRequestFileParams = Type.Object({ spaceId: Id('Id of the space'), changeRequestId: crId, fileId: Id('Id of the file') });

export type ContentLocationWire = Static<typeof ContentLocationRef>;
export type ContentLinkWire = Static<typeof ContentLink>;
export type LinkStatusName = Static<typeof LinkStatus>;
