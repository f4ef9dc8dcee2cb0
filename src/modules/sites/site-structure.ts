import slugify from '@sindresorhus/slugify';
import type { Context } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import { decodePageCursor, pageWith, type Page, type PageRequest } from '../../lib/pagination/index.ts';
import { badRequest } from '../../errors.ts';
import { contentAccess, loadSiteToManage, type SiteView } from '../../access/index.ts';
import { spacePermissions } from '../spaces/spaces.policy.ts';
import type { SpaceResult } from '../spaces/spaces.model.ts';
import { containerSiteSpaces, defaultOf, levelItems, orderedSections, siteStructure } from '../../site/structure.ts';
import { siteSectionsRepository, type GroupRow, type SectionRow } from './site-sections.repository.ts';
import { siteSpacesRepository, type SiteSpaceRow } from './site-spaces.repository.ts';
import { sitesRepository, type SiteRow } from './sites.repository.ts';

/*
 * A site's structure (section groups, sections, site spaces) as one model, in Outline's
 * "command" sense: loaded once, changed in memory by the commands below (which check
 * their input and answer 400 on a bad one), and written back by `save`, which writes only
 * the rows that were added, changed (only their changed columns) or removed. The rules of
 * order, moves, paths and defaults live here; the site-sections, site-spaces and sites
 * services call these commands instead of writing structure rows themselves.
 */

type Ctx = Pick<Context, 'db' | 'actor' | 'caches' | 'config' | 'clock'>;

/** A site space as the structure shows it: its row, its live space, its section, and whether it is its container's default. */
export interface PlacedSiteSpace {
  object: 'site-space';
  id: string;
  row: SiteSpaceRow;
  space: SpaceResult;
  section: SectionRow | null;
  isDefault: boolean;
}

/** A section as the structure shows it, with its site spaces in order. */
export interface PlacedSection {
  object: 'site-section';
  id: string;
  row: SectionRow;
  isDefault: boolean;
  siteSpaces: PlacedSiteSpace[];
}

/** A section group as the structure shows it, with its sections and groups in order. */
export interface PlacedGroup {
  object: 'site-section-group';
  id: string;
  row: GroupRow;
  children: (PlacedSection | PlacedGroup)[];
}

/**
 * A site's structure as the API shows it (site spaces of deleted spaces left out), in
 * structure order: the top level (sections and groups, or the root site spaces), and every
 * site space, section and group (site-sections.presenter.ts makes the wire objects).
 */
export interface ArrangedStructure {
  site: SiteRow;
  top: { type: 'sections'; items: (PlacedSection | PlacedGroup)[] } | { type: 'siteSpaces'; items: PlacedSiteSpace[] };
  sections: PlacedSection[];
  groups: PlacedGroup[];
  siteSpaces: PlacedSiteSpace[];
}

/** A section or a group: the two kinds of item that share a level (site root or group). */
export type LevelPointer = { kind: 'section' | 'group'; id: string };

const kindName = { section: 'section', group: 'section group' } as const;

/** A URL path from a title: its slug (`docs` when the title has none), at most 100 characters. */
export function pathFrom(title: string): string {
  return slugify(title).slice(0, 100).replace(/-+$/, '') || 'docs';
}

/** `base`, or `base-2`, `base-3`… : the first not in `taken` (generated paths never collide). */
export function uniquePath(base: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = `${base.slice(0, 100 - suffix.length)}${suffix}`;
    if (!used.has(candidate)) return candidate;
  }
}

/** Lists made from the structure, paged in memory: `page` carries the last item's id and index. */
export function pageOf<T extends { id: string }>(items: T[], request: PageRequest): Page<T> {
  let start = 0;
  if (request.page) {
    const cursor = decodePageCursor(
      request.page,
      (c): c is { i: number; id: string } => Number.isSafeInteger(c.i) && c.i >= 0 && typeof c.id === 'string',
    );
    const found = items.findIndex((item) => item.id === cursor.id);
    start = found >= 0 ? found + 1 : cursor.i + 1;
  }
  const slice = items.slice(start, start + request.limit);
  const last = slice[slice.length - 1];
  const more = last && start + slice.length < items.length;
  return pageWith(slice, items.length, more ? { i: start + slice.length - 1, id: last.id } : undefined);
}

type Row = { id: string } & Record<string, unknown>;

/** The columns of `row` that differ from `before` (numbers compared by value: drivers differ). */
function changedColumns<T extends Row>(before: T, row: T): Partial<T> {
  const changes: Partial<T> = {};
  for (const key of Object.keys(row) as (keyof T & string)[]) {
    const [a, b] = [before[key], row[key]];
    const same = a === b || ((typeof a === 'number' || typeof b === 'number') && a !== null && b !== null && Number(a) === Number(b));
    if (!same) changes[key] = row[key];
  }
  return changes;
}

/** Rows of one table as loaded, to tell at save time what was added, changed and removed. */
class Tracked<T extends Row> {
  private readonly loaded: Map<string, T>;
  constructor(readonly rows: T[]) {
    this.loaded = new Map(rows.map((row) => [row.id, { ...row }]));
  }

  diff(): { inserted: T[]; updated: { id: string; changes: Partial<T> }[]; deleted: string[] } {
    const current = new Set(this.rows.map((row) => row.id));
    const inserted: T[] = [];
    const updated: { id: string; changes: Partial<T> }[] = [];
    for (const row of this.rows) {
      const before = this.loaded.get(row.id);
      if (!before) inserted.push(row);
      else {
        const changes = changedColumns(before, row);
        if (Object.keys(changes).length > 0) updated.push({ id: row.id, changes });
      }
    }
    return { inserted, updated, deleted: [...this.loaded.keys()].filter((id) => !current.has(id)) };
  }

  /** After a save: what is in memory is what is stored. */
  settle(): void {
    this.loaded.clear();
    for (const row of this.rows) this.loaded.set(row.id, { ...row });
  }
}

export class SiteStructure {
  private readonly trackedGroups: Tracked<GroupRow & Row>;
  private readonly trackedSections: Tracked<SectionRow & Row>;
  private readonly trackedSiteSpaces: Tracked<SiteSpaceRow & Row>;

  private constructor(
    readonly siteId: string,
    groups: GroupRow[],
    sections: SectionRow[],
    siteSpaces: SiteSpaceRow[],
    /** Live spaces by id, with the caller's permissions on each. */
    readonly spaces: Map<string, SpaceResult>,
  ) {
    this.trackedGroups = new Tracked(groups as (GroupRow & Row)[]);
    this.trackedSections = new Tracked(sections as (SectionRow & Row)[]);
    this.trackedSiteSpaces = new Tracked(siteSpaces as (SiteSpaceRow & Row)[]);
  }

  /** The site's structure rows, and its live spaces with the caller's permissions. */
  static async load(ctx: Ctx, siteId: string): Promise<SiteStructure> {
    const groups = await siteSectionsRepository.groups(ctx.db, siteId);
    const sections = await siteSectionsRepository.sections(ctx.db, siteId);
    const siteSpaces = await siteSpacesRepository.list(ctx.db, siteId);
    const structure = new SiteStructure(siteId, groups, sections, siteSpaces, new Map());
    await structure.loadSpaces(ctx, [...new Set(siteSpaces.map((s) => s.space_id))]);
    return structure;
  }

  /** The structure of a site the caller manages (else 403 or 404, as loadSiteToManage says), with the site. */
  static async loadToManage(ctx: Ctx, organizationId: string, siteId: string): Promise<{ site: SiteView; structure: SiteStructure }> {
    const { site } = await loadSiteToManage(ctx, organizationId, siteId);
    return { site, structure: await SiteStructure.load(ctx, siteId) };
  }

  private async loadSpaces(ctx: Ctx, spaceIds: string[]): Promise<void> {
    for (const row of await siteSpacesRepository.liveSpaces(ctx.db, spaceIds)) {
      this.spaces.set(row.id, { space: row, permissions: spacePermissions(await contentAccess(ctx, row, 'space')) });
    }
  }

  get groups(): GroupRow[] {
    return this.trackedGroups.rows;
  }
  get sections(): SectionRow[] {
    return this.trackedSections.rows;
  }
  /** Every site space row (those of deleted spaces too: they keep their place). */
  get siteSpaces(): SiteSpaceRow[] {
    return this.trackedSiteSpaces.rows;
  }

  // ------------------------------------------------------------ reading

  section(id: string): SectionRow | undefined {
    return this.sections.find((s) => s.id === id);
  }
  group(id: string): GroupRow | undefined {
    return this.groups.find((g) => g.id === id);
  }
  siteSpace(id: string): SiteSpaceRow | undefined {
    return this.siteSpaces.find((s) => s.id === id);
  }
  /** A site space whose space is live (the others are shown nowhere). */
  liveSiteSpace(id: string): SiteSpaceRow | undefined {
    const row = this.siteSpace(id);
    return row && this.spaces.has(row.space_id) ? row : undefined;
  }

  /** Sections and groups directly under a group (null: the site root), in order. */
  levelItems(parent: string | null) {
    return levelItems(this.groups, this.sections, parent);
  }

  /** Site spaces of a section (null: the site root), in order. */
  containerSiteSpaces(sectionId: string | null): SiteSpaceRow[] {
    return containerSiteSpaces(this.siteSpaces, sectionId);
  }

  /** The default section (the site's choice, else the first), or undefined without sections. */
  defaultSection(site: Pick<SiteRow, 'default_site_section_id'>): SectionRow | undefined {
    return defaultOf(orderedSections(this.groups, this.sections), site.default_site_section_id);
  }

  /** Paths of the site spaces of a container, but `exceptId`. */
  siteSpacePaths(sectionId: string | null, exceptId?: string): string[] {
    return this.siteSpaces.filter((s) => s.section_id === sectionId && s.id !== exceptId).map((s) => s.path);
  }

  /** The parent group of a section or group (null: the site root, or no such item). */
  parentOf(pointer: LevelPointer): string | null {
    if (pointer.kind === 'section') return this.section(pointer.id)?.section_group_id ?? null;
    return this.group(pointer.id)?.parent_group_id ?? null;
  }

  private has(pointer: LevelPointer): boolean {
    return pointer.kind === 'section' ? this.section(pointer.id) !== undefined : this.group(pointer.id) !== undefined;
  }

  /** Whether group `ancestor` is `groupId` or holds it (directly or deeper). */
  private groupWithin(groupId: string | null, ancestor: string): boolean {
    for (let id = groupId, depth = 0; id && depth < 64; depth++) {
      if (id === ancestor) return true;
      id = this.group(id)?.parent_group_id ?? null;
    }
    return false;
  }

  /**
   * Every structure object as the API shows it (site spaces of deleted spaces left out), in
   * structure order; order and defaults come from siteStructure (src/site/structure.ts), the
   * model the published site reads too.
   */
  arrange(site: SiteRow): ArrangedStructure {
    const live = this.siteSpaces.filter((s) => this.spaces.has(s.space_id));
    const model = siteStructure({
      defaultSectionId: site.default_site_section_id,
      defaultRootSiteSpaceId: site.default_site_space_id,
      groups: this.groups,
      sections: this.sections,
      siteSpaces: live,
    });
    const siteSpaces: PlacedSiteSpace[] = [];
    const sections: PlacedSection[] = [];
    const groups: PlacedGroup[] = [];

    const place = (items: SiteSpaceRow[], section: SectionRow | null, fallback: SiteSpaceRow | undefined): PlacedSiteSpace[] => {
      const placed = items.map((row): PlacedSiteSpace => ({
        object: 'site-space',
        id: row.id,
        row,
        space: this.spaces.get(row.space_id) as SpaceResult,
        section,
        isDefault: row.id === fallback?.id,
      }));
      siteSpaces.push(...placed);
      return placed;
    };

    const sectionModel = new Map(model.sections.map((s) => [s.row.id, s]));
    const placeSection = (row: SectionRow): PlacedSection => {
      const placed = sectionModel.get(row.id);
      const section: PlacedSection = {
        object: 'site-section',
        id: row.id,
        row,
        isDefault: row.id === model.defaultSection?.id,
        siteSpaces: place(placed?.siteSpaces ?? [], row, placed?.defaultSiteSpace),
      };
      sections.push(section);
      return section;
    };

    const level = (parent: string | null, depth: number): (PlacedSection | PlacedGroup)[] =>
      depth > 32
        ? []
        : model.level(parent).map((item) => {
            if (item.kind === 'section') return placeSection(item.row);
            const group: PlacedGroup = { object: 'site-section-group', id: item.row.id, row: item.row, children: [] };
            groups.push(group);
            group.children = level(item.row.id, depth + 1);
            return group;
          });

    if (model.hasSections) {
      const items = level(null, 0);
      return { site, top: { type: 'sections', items }, sections, groups, siteSpaces };
    }
    const items = place(model.rootSiteSpaces, null, model.defaultRootSiteSpace);
    return { site, top: { type: 'siteSpaces', items }, sections, groups, siteSpaces };
  }

  // ------------------------------------------------------------ commands

  addGroup(row: GroupRow): void {
    this.groups.push(row);
  }

  addSection(row: SectionRow): void {
    this.sections.push(row);
  }

  /** Adds a site space at the end of its section (or the root); its space is loaded if new here. */
  async addSiteSpace(ctx: Ctx, row: SiteSpaceRow): Promise<void> {
    this.siteSpaces.push(row);
    this.putSiteSpace(row.id, row.section_id);
    if (!this.spaces.has(row.space_id)) await this.loadSpaces(ctx, [row.space_id]);
  }

  /** Changes fields of a section (its group: moveIntoGroup). */
  updateSection(id: string, changes: Partial<Omit<SectionRow, 'id' | 'site_id' | 'section_group_id' | 'position'>>): void {
    Object.assign(this.section(id) as SectionRow, changes);
  }

  updateGroup(id: string, changes: Partial<Pick<GroupRow, 'title' | 'icon'>>): void {
    Object.assign(this.group(id) as GroupRow, changes);
  }

  /** Changes fields of a site space (its place: putSiteSpace); a new space is loaded. */
  async updateSiteSpace(ctx: Ctx, id: string, changes: Partial<Pick<SiteSpaceRow, 'path' | 'condition' | 'space_id' | 'customization'>>): Promise<void> {
    const row = this.siteSpace(id) as SiteSpaceRow;
    Object.assign(row, changes);
    if (!this.spaces.has(row.space_id)) await this.loadSpaces(ctx, [row.space_id]);
  }

  /** Sections turned on: every site space at the root moves into `sectionId`. */
  moveRootInto(sectionId: string): void {
    for (const row of this.siteSpaces) if (row.section_id === null) row.section_id = sectionId;
  }

  /** Renumbers a level (site root or group) with `item` at `index` (default: the end) under `parent`. */
  private putInLevel(item: LevelPointer, parent: string | null, index?: number): void {
    const siblings = this.levelItems(parent).filter((i) => !(i.kind === item.kind && i.row.id === item.id));
    const at = index ?? siblings.length;
    const ordered: LevelPointer[] = [...siblings.slice(0, at).map((i) => ({ kind: i.kind, id: i.row.id })), item, ...siblings.slice(at).map((i) => ({ kind: i.kind, id: i.row.id }))];
    for (const [position, entry] of ordered.entries()) {
      if (entry.kind === 'section') {
        const row = this.section(entry.id) as SectionRow;
        row.position = position;
        if (entry.id === item.id && item.kind === 'section') row.section_group_id = parent;
      } else {
        const row = this.group(entry.id) as GroupRow;
        row.position = position;
        if (entry.id === item.id && item.kind === 'group') row.parent_group_id = parent;
      }
    }
  }

  /**
   * Moves a section or group next to another section or group (into that one's level), or
   * to the end of `into.parent` (default: the site root) without a position. 400 for a
   * position that is not in the site, is the item itself, names both sides, or would put
   * a group inside itself.
   */
  moveLevelItem(item: LevelPointer, position: { before?: LevelPointer; after?: LevelPointer } | undefined, into?: { parent: string | null }): void {
    if (position?.before && position?.after) throw badRequest('body/position: give before or after, not both');
    const pointer = position?.before ?? position?.after;
    if (!pointer) return this.putInLevel(item, into ? into.parent : null);
    if (!this.has(pointer)) throw badRequest(`body/position: ${kindName[pointer.kind]} "${pointer.id}" is not in this site`);
    if (pointer.kind === item.kind && pointer.id === item.id) throw badRequest('body/position: an item cannot be placed next to itself');
    const parent = this.parentOf(pointer);
    if (item.kind === 'group' && this.groupWithin(parent, item.id)) throw badRequest('body/position: a group cannot be placed inside itself');
    const siblings = this.levelItems(parent).filter((i) => !(i.kind === item.kind && i.row.id === item.id));
    const at = siblings.findIndex((i) => i.kind === pointer.kind && i.row.id === pointer.id);
    this.putInLevel(item, parent, position?.before ? at : at + 1);
  }

  /** Puts a group or section at the end of `parent` (a group of the site, or null for the root). */
  moveIntoGroup(item: LevelPointer, parent: string | null): void {
    if (parent !== null && !this.group(parent)) throw badRequest(`body: section group "${parent}" is not in this site`);
    if (item.kind === 'group' && this.groupWithin(parent, item.id)) throw badRequest('body: a group cannot be placed inside itself');
    this.putInLevel(item, parent);
  }

  /**
   * Renumbers a container's site spaces with `siteSpaceId` at `index` (default: the end).
   * Moved into another section, it keeps its path unless that section already uses it,
   * and stops being any section's default.
   */
  putSiteSpace(siteSpaceId: string, sectionId: string | null, index?: number): void {
    const row = this.siteSpace(siteSpaceId) as SiteSpaceRow;
    const siblings = this.containerSiteSpaces(sectionId).filter((s) => s.id !== siteSpaceId);
    const at = index ?? siblings.length;
    const ordered = [...siblings.slice(0, at), row, ...siblings.slice(at)];
    if (row.section_id !== sectionId) {
      row.path = uniquePath(row.path, this.siteSpacePaths(sectionId, row.id));
      for (const s of this.sections) if (s.default_site_space_id === row.id) s.default_site_space_id = null;
      row.section_id = sectionId;
    }
    for (const [position, entry] of ordered.entries()) entry.position = position;
  }

  /**
   * Moves a site space next to another one (into that one's section), or to the end of
   * its section without a position. 400 for a position that is not a site space of the
   * site, is the item itself, or names both sides.
   */
  moveSiteSpaceNextTo(siteSpaceId: string, position: { before?: string; after?: string } | undefined): void {
    if (position?.before && position?.after) throw badRequest('body/position: give before or after, not both');
    const row = this.siteSpace(siteSpaceId) as SiteSpaceRow;
    const pointerId = position?.before ?? position?.after;
    if (!pointerId) return this.putSiteSpace(siteSpaceId, row.section_id);
    const pointer = this.siteSpace(pointerId);
    if (!pointer) throw badRequest(`body/position: site space "${pointerId}" is not in this site`);
    if (pointer.id === siteSpaceId) throw badRequest('body/position: an item cannot be placed next to itself');
    const siblings = this.containerSiteSpaces(pointer.section_id).filter((s) => s.id !== siteSpaceId);
    const at = siblings.findIndex((s) => s.id === pointer.id);
    this.putSiteSpace(siteSpaceId, pointer.section_id, position?.before ? at : at + 1);
  }

  /** Removes a site space; no section keeps it as its default. False when there was none. */
  removeSiteSpace(id: string): boolean {
    const index = this.siteSpaces.findIndex((s) => s.id === id);
    if (index < 0) return false;
    this.siteSpaces.splice(index, 1);
    for (const s of this.sections) if (s.default_site_space_id === id) s.default_site_space_id = null;
    return true;
  }

  /** Removes a section with its site spaces. False when there was none. */
  removeSection(id: string): boolean {
    const index = this.sections.findIndex((s) => s.id === id);
    if (index < 0) return false;
    this.sections.splice(index, 1);
    for (let i = this.siteSpaces.length - 1; i >= 0; i--) if (this.siteSpaces[i].section_id === id) this.siteSpaces.splice(i, 1);
    return true;
  }

  /** Removes a group; what it held takes its place, in order, in its parent level. False when there was none. */
  removeGroup(id: string): boolean {
    if (!this.group(id)) return false;
    let after: LevelPointer = { kind: 'group', id };
    for (const child of this.levelItems(id)) {
      const item = { kind: child.kind, id: child.row.id };
      this.moveLevelItem(item, { after });
      after = item;
    }
    this.groups.splice(this.groups.findIndex((g) => g.id === id), 1);
    return true;
  }

  /** Writes what changed since loading (or the last save): added, changed and removed rows. */
  async save(db: Db): Promise<void> {
    const groups = this.trackedGroups.diff();
    const sections = this.trackedSections.diff();
    const siteSpaces = this.trackedSiteSpaces.diff();
    // Additions, then changes, then removals: a row never points at one not yet written.
    for (const row of groups.inserted) await siteSectionsRepository.insertGroup(db, row);
    for (const row of sections.inserted) await siteSectionsRepository.insertSection(db, row);
    for (const row of siteSpaces.inserted) await siteSpacesRepository.insert(db, row);
    for (const { id, changes } of groups.updated) await siteSectionsRepository.updateGroup(db, this.siteId, id, changes);
    for (const { id, changes } of sections.updated) await siteSectionsRepository.updateSection(db, this.siteId, id, changes);
    for (const { id, changes } of siteSpaces.updated) await siteSpacesRepository.update(db, this.siteId, id, changes);
    for (const id of siteSpaces.deleted) await siteSpacesRepository.delete(db, this.siteId, id);
    for (const id of sections.deleted) await siteSectionsRepository.deleteSection(db, this.siteId, id);
    for (const id of groups.deleted) await siteSectionsRepository.deleteGroup(db, this.siteId, id);
    this.trackedGroups.settle();
    this.trackedSections.settle();
    this.trackedSiteSpaces.settle();
  }

  /** Saves, and marks the site updated: a change of its structure is a change of the site. */
  async saveChange(db: Db, updatedAt: string): Promise<void> {
    await this.save(db);
    await sitesRepository.touch(db, this.siteId, updatedAt);
  }
}
