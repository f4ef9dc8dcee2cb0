/*
 * Shapes of the revision store (docs/architecture.md, "Revision store"). A revision points
 * at a root tree; a tree is the ordered list of a page's children (or of the space's
 * top-level pages), each entry carrying the page's metadata, the hash of its document and
 * the hash of its own child tree. Every object is addressed by the hash of its bytes.
 */
import type { ContentRef, Document } from '../markdown/index.ts';
import type { LayeredMap } from './layered-map.ts';

export type VariableValue = string | number | boolean;
export type Variables = Record<string, VariableValue>;

/** Page layout options, GitBook's RevisionPageLayoutOptions. */
export interface PageLayout {
  width: 'default' | 'wide';
  cover: boolean;
  coverSize: 'hero' | 'full' | 'background';
  coverMask: 'none' | 'radial';
  title: boolean;
  description: boolean;
  tableOfContents: boolean;
  outline: boolean;
  pagination: boolean;
  metadata: boolean;
  tags: boolean;
  actions: boolean;
  anchors: boolean;
}

export interface PageCover {
  ref?: { kind: 'file'; file: string } | { kind: 'url'; url: string };
  refDark?: { kind: 'file'; file: string } | { kind: 'url'; url: string };
  yPos: number;
  height?: number;
}

/** Page metadata as stored in its parent's tree entry. */
export interface PageMeta {
  title: string;
  slug: string;
  emoji?: string;
  icon?: string;
  description?: string;
  hidden?: boolean;
  noIndex?: boolean;
  noRobotsIndex?: boolean;
  layout?: Partial<PageLayout>;
  cover?: PageCover;
  variables?: Variables;
  /** Link pages only. */
  target?: ContentRef;
  /**
   * Where the page's file is in git and its signature then (git sync; src/content/git-layout);
   * `source`: the content object holding the file's text as imported, exported as it was while
   * the signature holds; `root`: the content root (`.gitbook.yaml` `root:`) the file was read
   * under, when not the repository's top.
   */
  git?: { oid: string; path: string; sig?: string; frontMatter?: Record<string, unknown>; source?: string; root?: string };
  /** Content computed from another source (GitBook's `builtin:openapi`), kept as given. */
  computed?: ComputedSource;
  /** Seed for the ids of computed content. */
  computedSeed?: string;
}

/** GitBook's ComputedContentSourceDocument: what a computed page is made from. */
export interface ComputedSource {
  type: 'builtin:openapi';
  dependencies: { spec: { ref: { kind: 'openapi'; spec: string } } };
  props: Record<string, unknown>;
}

/** One entry of a tree node: a page, its metadata and the hashes of what it holds. */
export interface PageEntry extends PageMeta {
  id: string;
  type: 'document' | 'group' | 'link';
  /** Hash of the page's document object; absent for an empty page, a group or a link. */
  document?: string;
  /** Hash of the tree listing the page's children; absent when it has none. */
  children?: string;
  createdAt: string;
  updatedAt: string;
}

/** A file of a revision; its bytes are a blob stored by `hash`. */
export interface FileEntry {
  id: string;
  name: string;
  contentType: string;
  size: number;
  hash: string;
  dimensions?: { width: number; height: number };
  /** Where the file is in git (git sync). */
  git?: { oid: string; path: string };
}

/** A reusable content block of a revision. */
export interface ReusableEntry {
  id: string;
  title: string;
  document?: string;
}

/** A page placed in its revision: its entry, where it is, and its children. */
export interface PageNode {
  entry: PageEntry;
  parentId: string | null;
  /** Slugs from the top joined by `/`. */
  path: string;
  depth: number;
  children: PageNode[];
}

/** The revision row as the store reads it. */
export interface RevisionRecord {
  id: string;
  spaceId: string;
  parents: string[];
  type: string;
  treeHash: string;
  filesHash: string;
  reusablesHash: string;
  variables: Variables;
  git: Record<string, unknown> | null;
  /** Merge revisions: the id of the change request merged. */
  mergedFrom: string | null;
  createdBy: string | null;
  createdAt: string;
}

/**
 * What editing needs of a revision: every child list by parent page id ('' for the top
 * level) and where each page sits. Loaded once per revision, or derived from the
 * revision it was edited from without reading anything back.
 */
export interface RevisionTrees {
  revision: RevisionRecord;
  trees: LayeredMap<{ hash: string; entries: PageEntry[] }>;
  /** Parent key of every page ('' for the top level). */
  parentOf: LayeredMap<string>;
  files: FileEntry[];
  reusables: ReusableEntry[];
}

/** Everything a revision holds, as reads need it; built once and kept: revisions never change. */
export interface RevisionSnapshot extends RevisionTrees {
  pages: PageNode[];
  byId: Map<string, PageNode>;
  byPath: Map<string, PageNode>;
  filesById: Map<string, FileEntry>;
}

export type { ContentRef, Document };
