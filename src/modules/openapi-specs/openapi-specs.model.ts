import type { Page } from '../../lib/pagination/index.ts';
import type { SpecRow, VersionHead } from './openapi-specs.repository.ts';

/*
 * What the OpenAPI specs service answers: rows, with the caller's permissions on a spec
 * and the spec a version belongs to (its URLs are under the spec's). The routes present
 * them (openapi-specs.presenter.ts).
 */

/** What the caller may do on the organization's specs. */
export interface SpecPermissions {
  view: boolean;
  edit: boolean;
}

export interface SpecResult {
  spec: SpecRow;
  permissions: SpecPermissions;
}

/** A page of specs; the caller's permissions are the same on each. */
export type SpecsPage = Page<SpecRow> & { permissions: SpecPermissions };

export interface VersionResult {
  spec: SpecRow;
  version: VersionHead;
}

export type VersionsPage = Page<VersionHead> & { spec: SpecRow };

/** A version's files (the stored filesystem JSON). */
export type VersionContentResult = VersionResult & { filesystem: string };
