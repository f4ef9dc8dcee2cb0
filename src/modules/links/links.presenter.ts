import type { LinkOccurrence } from '../../content/links/report.ts';
import type { RevisionSnapshot } from '../../content/store/types.ts';
import type { ContentLocationWire } from './links.schemas.ts';
import type { BacklinksResult, LinkListingResult, LocationScope } from './links.model.ts';

function pageRef(snapshot: RevisionSnapshot, id: string) {
  const node = snapshot.byId.get(id);
  return node ? { id, title: node.entry.title, path: node.path } : { id };
}

/** Where a link points (GitBook's ContentLocation, with ids). */
export function presentTarget(scope: LocationScope, o: LinkOccurrence): ContentLocationWire {
  const ref = o.ref;
  const here = { organization: scope.organizationId, space: scope.spaceId, versionContext: scope.versionContext };
  const elsewhere = (space: string) => {
    const org = scope.foreign.get(space)?.organizationId;
    return { ...(org ? { organization: org } : {}), space };
  };
  switch (ref.kind) {
    case 'page':
      if (o.foreignSpace) return { kind: 'page', ...elsewhere(o.foreignSpace), page: { id: ref.page } };
      return { kind: 'page', ...here, page: pageRef(scope.snapshot, o.targetPage ?? ref.page) };
    case 'anchor': {
      const internalLocation = { type: 'anchor', anchor: ref.anchor };
      if (o.foreignSpace) return { kind: 'page', ...elsewhere(o.foreignSpace), ...(ref.page ? { page: { id: ref.page } } : {}), internalLocation };
      return { kind: 'page', ...here, page: pageRef(scope.snapshot, o.targetPage ?? ref.page ?? o.pageId), internalLocation };
    }
    case 'file': {
      if (o.foreignSpace) return { kind: 'file', ...elsewhere(o.foreignSpace), file: { id: ref.file } };
      const file = scope.snapshot.filesById.get(ref.file);
      return { kind: 'file', ...here, file: file ? { id: file.id, name: file.name, contentType: file.contentType, size: file.size } : { id: ref.file } };
    }
    case 'url':
      return { kind: 'url', url: ref.url };
    case 'space':
      return { kind: 'space', ...elsewhere(ref.space) };
    case 'openapi':
      return { kind: 'openapi', organization: scope.organizationId, spec: ref.spec };
    case 'collection':
      return { kind: 'collection', organization: scope.organizationId, collection: ref.collection };
    case 'user':
      return { kind: 'user', user: ref.user };
    case 'reusable-content':
      return { kind: 'reusable-content', ...(o.foreignSpace ? elsewhere(o.foreignSpace) : here), reusableContent: ref.reusableContent };
    case 'tag':
      return { kind: 'tag', ...here, tag: ref.tag };
  }
}

/** Where a link is: its page, and the node making it. */
export function presentLocation(scope: LocationScope, o: LinkOccurrence): ContentLocationWire {
  return {
    kind: 'page',
    organization: scope.organizationId,
    space: scope.spaceId,
    versionContext: scope.versionContext,
    page: pageRef(scope.snapshot, o.pageId),
    ...(o.node ? { internalLocation: { type: 'node', node: o.node } } : {}),
  };
}

/** A page of link targets -> GitBook-style link listing. */
export function presentLinkListing(result: LinkListingResult) {
  const { scope } = result;
  return {
    ...(result.next ? { next: result.next } : {}),
    count: result.count,
    stats: result.stats,
    items: result.items.map((t) => ({
      status: t.status,
      relation: 'reference',
      targetReference: presentTarget(scope, t.occurrences[0]),
      locationReferences: t.occurrences.map((o) => presentLocation(scope, o)),
    })),
  };
}

/** A page of backlinks -> their locations. */
export function presentBacklinks(result: BacklinksResult) {
  return { ...(result.next ? { next: result.next } : {}), count: result.count, items: result.items.map((o) => presentLocation(result.scope, o)) };
}
