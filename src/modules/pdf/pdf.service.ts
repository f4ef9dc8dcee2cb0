import { randomBytes } from 'node:crypto';
import { writeFileDurably } from '../../lib/files.ts';
import fs from 'node:fs';
import path from 'node:path';
import type { AppDeps, Context } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { resolveVariables, type Document } from '../../content/markdown/index.ts';
import { renderPdf, type PdfPage } from '../../content/pdf/render.ts';
import { readBlob } from '../../content/store/blobs.ts';
import { loadDocuments, loadSnapshot } from '../../content/store/snapshot.ts';
import type { PageNode, RevisionSnapshot } from '../../content/store/types.ts';
import { loadChangeRequest } from '../change-requests/change-requests.service.ts';
import { loadSpace } from '../spaces/spaces.service.ts';
import { pdfPolicy } from './pdf.policy.ts';
import { pdfFileName, presentPdfUrl } from './pdf.presenter.ts';
import { pdfRepository, type PdfExportRow } from './pdf.repository.ts';
import type { PdfQueryInput, PdfUrlWire } from './pdf.schemas.ts';

/*
 * PDF exports (GitBook's getSpacePDF and getChangeRequestPDF; docs/decisions/pdf.md).
 * A request answers `{ url }`: the PDF of a revision (the space's current one, or the
 * change request's head) for a page selection, written once to DATA_DIR/exports and
 * served by a public route under an unguessable id until it expires. The same revision
 * and selection reuse a live file (its expiry moves to an hour from the new request).
 */

/** How long a download URL works (GitBook: "The URL will work for 1h"). */
export const PDF_TTL_MS = 60 * 60 * 1000;

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/jpg', 'image/pjpeg']);

export function exportsDir(dataDir: string): string {
  return path.join(dataDir, 'exports');
}

function exportPath(dataDir: string, id: string): string {
  return path.join(exportsDir(dataDir), `${id}.pdf`);
}

/** GET {S}/pdf: the space's current revision. */
export async function getSpacePdf(ctx: Context, spaceId: string, query: PdfQueryInput): Promise<PdfUrlWire> {
  const { space, access } = await loadSpace(ctx, spaceId);
  pdfPolicy.authorize('export', access, 'Exporting this space needs read access to it');
  return exportRevision(ctx, { spaceId, revisionId: space.revision_id as string, title: space.title }, query);
}

/** GET {CR}/pdf: the change request's head revision (its draft content). */
export async function getChangeRequestPdf(ctx: Context, spaceId: string, changeRequestId: string, query: PdfQueryInput): Promise<PdfUrlWire> {
  const { cr } = await loadChangeRequest(ctx, spaceId, changeRequestId);
  const title = cr.subject ? cr.subject : `Change request #${cr.number}`;
  return exportRevision(ctx, { spaceId, revisionId: cr.revision_id, title }, query);
}

interface Source {
  spaceId: string;
  revisionId: string;
  title: string;
}

// Requests for the same file while it is being made wait for it instead of making it again.
const inFlight = new Map<string, Promise<string>>();

async function exportRevision(ctx: Context, source: Source, query: PdfQueryInput): Promise<PdfUrlWire> {
  const snapshot = await loadSnapshot(ctx.db, source.spaceId, source.revisionId);
  const { key: selection, roots, only } = selectionOf(snapshot, query);
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + PDF_TTL_MS).toISOString();

  const reusable = await pdfRepository.findReusable(ctx.db, source.spaceId, source.revisionId, selection, now.toISOString());
  if (reusable && fs.existsSync(exportPath(ctx.config.dataDir, reusable.id))) {
    if (await pdfRepository.extend(ctx.db, reusable.id, now.toISOString(), expiresAt)) return presentPdfUrl(ctx.config, reusable.id);
  }

  const flightKey = `${ctx.config.dataDir}\u0000${source.spaceId}\u0000${source.revisionId}\u0000${selection}`;
  let pending = inFlight.get(flightKey);
  if (!pending) {
    pending = generate(ctx, source, snapshot, roots, only, selection).finally(() => inFlight.delete(flightKey));
    inFlight.set(flightKey, pending);
  }
  return presentPdfUrl(ctx.config, await pending);
}

/**
 * GitBook's selection: no `page`, every page; `page`, that page and its subpages;
 * `page` with `only`, that page alone (`only` without `page` selects every page).
 */
function selectionOf(snapshot: RevisionSnapshot, query: PdfQueryInput): { key: string; roots: PageNode[]; only: boolean } {
  if (query.page === undefined) return { key: '', roots: snapshot.pages, only: false };
  const node = snapshot.byId.get(query.page);
  if (!node) throw notFound('Page');
  const only = query.only === true;
  return { key: `${only ? 'only' : 'page'}:${node.entry.id}`, roots: [node], only };
}

/** The pages printed, depth first in tree order; link pages (pointers elsewhere) are left out. */
function printedPages(roots: PageNode[], only: boolean): PageNode[] {
  const out: PageNode[] = [];
  const walk = (nodes: PageNode[]) => {
    for (const node of nodes) {
      if (node.entry.type !== 'link') out.push(node);
      if (!only) walk(node.children);
    }
  };
  walk(roots);
  return out;
}

async function generate(ctx: Context, source: Source, snapshot: RevisionSnapshot, roots: PageNode[], only: boolean, selection: string): Promise<string> {
  const nodes = printedPages(roots, only);
  const hashes = nodes.map((n) => n.entry.document).filter((h): h is string => h !== undefined);
  const documents = await loadDocuments<Document>(ctx.db, source.spaceId, hashes);
  const baseDepth = roots[0]?.depth ?? 0;
  const spaceVariables: Record<string, string> = {};
  for (const [name, value] of Object.entries(snapshot.revision.variables)) spaceVariables[`space.vars.${name}`] = String(value);

  const pages: PdfPage[] = nodes.map((node) => {
    const stored = node.entry.document ? documents.get(node.entry.document) : undefined;
    let document: Document | undefined;
    if (stored) {
      // Printed as readers see it: variable expressions resolved (the page's own over the space's).
      const variables = { ...spaceVariables };
      for (const [name, value] of Object.entries(node.entry.variables ?? {})) variables[`page.vars.${name}`] = String(value);
      document = resolveVariables(stored, variables);
    }
    return {
      id: node.entry.id,
      title: node.entry.title,
      ...(node.entry.description ? { description: node.entry.description } : {}),
      depth: Math.max(0, node.depth - baseDepth),
      kind: node.entry.type === 'group' ? 'group' : 'document',
      ...(document ? { document } : {}),
    };
  });

  const title = selection !== '' ? `${source.title} - ${roots[0].entry.title}` : source.title;
  const bytes = await renderPdf({
    title,
    pages,
    createdAt: ctx.clock.now(),
    fileName: (fileId) => snapshot.filesById.get(fileId)?.name,
    image: (fileId) => {
      const file = snapshot.filesById.get(fileId);
      if (!file || !IMAGE_TYPES.has(file.contentType.toLowerCase())) return undefined;
      return readBlob(ctx.config.dataDir, file.hash);
    },
  });

  const id = randomBytes(32).toString('base64url');
  const target = exportPath(ctx.config.dataDir, id);
  // Exports of private content: readable by the server only.
  writeFileDurably(target, bytes, 0o600);
  const now = ctx.clock.now();
  try {
    await pdfRepository.insert(ctx.db, {
      id,
      space_id: source.spaceId,
      revision_id: source.revisionId,
      selection,
      file_name: pdfFileName(title),
      size: bytes.length,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + PDF_TTL_MS).toISOString(),
    });
  } catch (error) {
    fs.rmSync(target, { force: true });
    throw error;
  }
  return id;
}


/**
 * The download route: the file of a live export whose space is not deleted. An expired
 * export answers 404 and is removed then (row and file), without waiting for the sweep.
 */
export async function readExport(
  deps: Pick<AppDeps, 'db' | 'config' | 'clock'>,
  id: string,
): Promise<{ bytes: Buffer; row: PdfExportRow; maxAgeSeconds: number }> {
  const row = await pdfRepository.findServable(deps.db, id);
  if (!row) throw notFound('Export');
  const now = deps.clock.now();
  if (row.expires_at <= now.toISOString()) {
    await removeIfExpired(deps, id, now.toISOString());
    throw notFound('Export');
  }
  let bytes: Buffer;
  try {
    bytes = await fs.promises.readFile(exportPath(deps.config.dataDir, id));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    // The file is gone (removed by hand): the row is of no use either.
    await pdfRepository.delete(deps.db, id);
    throw notFound('Export');
  }
  const maxAgeSeconds = Math.max(0, Math.floor((Date.parse(row.expires_at) - now.getTime()) / 1000));
  return { bytes, row, maxAgeSeconds };
}

async function removeIfExpired(deps: Pick<AppDeps, 'db' | 'config'>, id: string, now: string): Promise<boolean> {
  if (!(await pdfRepository.deleteIfExpired(deps.db, id, now))) return false;
  fs.rmSync(exportPath(deps.config.dataDir, id), { force: true });
  return true;
}

/** Removes expired exports (rows and files), in batches; returns how many. Safe in several processes at once. */
export async function sweepExpiredPdfs(deps: Pick<AppDeps, 'db' | 'config' | 'clock'>): Promise<number> {
  const now = deps.clock.now().toISOString();
  let removed = 0;
  for (;;) {
    const ids = await pdfRepository.expiredIds(deps.db, now, 200);
    for (const id of ids) if (await removeIfExpired(deps, id, now)) removed++;
    if (ids.length < 200) return removed;
  }
}
