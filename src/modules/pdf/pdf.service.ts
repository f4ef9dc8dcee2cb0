import { randomBytes } from 'node:crypto';
import { openapiSpecsOf } from '../../content/openapi/blocks.ts';
import { computedDocument } from '../../content/openapi/computed.ts';
import { specsForPage } from '../openapi-specs/openapi-specs.references.ts';
import fs from 'node:fs';
import path from 'node:path';
import type { AppDeps, Context } from '../../context.ts';
import { HttpError, notFound } from '../../errors.ts';
import { resolveVariables, type Document } from '../../content/markdown/index.ts';
import { renderPdf, type PdfPage } from '../../content/pdf/render.ts';
import { readBlob } from '../../content/store/blobs.ts';
import type { FileStream } from '../../files/types.ts';
import { loadDocuments, loadSnapshot } from '../../content/store/snapshot.ts';
import type { PageNode, RevisionSnapshot } from '../../content/store/types.ts';
import { loadChangeRequest, loadSpace } from '../../access/index.ts';
import { pdfExportJob, type PdfExportJob } from './pdf.job-kinds.ts';
import { pdfPolicy } from './pdf.policy.ts';
import { pdfFileName, type PdfExportRef } from './pdf.model.ts';
import { pdfRepository, type PdfExportRow } from './pdf.repository.ts';
import type { PdfQueryInput } from './pdf.schemas.ts';

/*
 * PDF exports (GitBook's getSpacePDF and getChangeRequestPDF; docs/decisions/pdf.md).
 * A request answers `{ url }`: the PDF of a revision (the space's current one, or the
 * change request's head) for a page selection, written once to the file store (area `exports`) and
 * served by a public route under an unguessable id until it expires. The same revision
 * and selection reuse a live file (its expiry moves to an hour from the new request).
 * The file is made by a background job (pdfExportJob, pdf.job-kinds.ts) that the request
 * enqueues and waits for; requests for the same file in any process share one job (its
 * dedupe key), so it is made once.
 */

/** How long a download URL works (GitBook: "The URL will work for 1h"). */
export const PDF_TTL_MS = 60 * 60 * 1000;

/** How long a request waits for its export to be made before answering 503 (ask again). */
export const PDF_WAIT_MS = 60_000;

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/jpg', 'image/pjpeg']);

/** Export bytes are files of the file store's `exports` area (found by pdf_exports.file_hash). */
const EXPORT_AREA = 'exports' as const;
/** The largest image embedded in a PDF (read whole into memory to be drawn). */
const MAX_IMAGE_BYTES = 20 * 1024 * 1024;

/** Where exports made before the file store (migration 0012) lay: removed when their rows go. */
function legacyExportPath(dataDir: string, id: string): string {
  return path.join(dataDir, 'exports', `${id}.pdf`);
}

/** GET {S}/pdf: the space's current revision. */
export async function getSpacePdf(ctx: Context, spaceId: string, query: PdfQueryInput): Promise<PdfExportRef> {
  const { space, access } = await loadSpace(ctx, spaceId);
  pdfPolicy.authorize('export', access, 'Exporting this space needs read access to it');
  return exportRevision(ctx, { spaceId, revisionId: space.revision_id as string, title: space.title }, query);
}

/** GET {CR}/pdf: the change request's head revision (its draft content). */
export async function getChangeRequestPdf(ctx: Context, spaceId: string, changeRequestId: string, query: PdfQueryInput): Promise<PdfExportRef> {
  const { cr } = await loadChangeRequest(ctx, spaceId, changeRequestId);
  const title = cr.subject ? cr.subject : `Change request #${cr.number}`;
  return exportRevision(ctx, { spaceId, revisionId: cr.revision_id, title }, query);
}

interface Source {
  spaceId: string;
  revisionId: string;
  title: string;
}

async function exportRevision(ctx: Context, source: Source, query: PdfQueryInput): Promise<PdfExportRef> {
  const snapshot = await loadSnapshot(ctx.db, source.spaceId, source.revisionId);
  const { key: selection } = selectionOf(snapshot, query);
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + PDF_TTL_MS).toISOString();

  const reusable = await pdfRepository.findReusable(ctx.db, source.spaceId, source.revisionId, selection, now.toISOString());
  if (reusable && reusable.file_hash && (await ctx.files.exists(EXPORT_AREA, reusable.file_hash))) {
    if (await pdfRepository.extend(ctx.db, reusable.id, now.toISOString(), expiresAt)) return { exportId: reusable.id };
  }

  const payload: PdfExportJob = { ...source, query: { ...(query.page !== undefined ? { page: query.page } : {}), ...(query.only !== undefined ? { only: query.only } : {}) } };
  const { id } = await pdfExportJob.enqueue(ctx.db, payload, { dedupeKey: `pdf-export:${source.spaceId}:${source.revisionId}:${selection}` });
  const outcome = await pdfExportJob.waitFor(ctx.db, id, PDF_WAIT_MS);
  if (!outcome) throw new HttpError(503, 'The PDF is still being made; ask again in a moment', { 'retry-after': '5' });
  if (outcome.state !== 'done') throw new Error(`PDF export job ${id} ended ${outcome.state}: ${outcome.error ?? 'no result'}`);
  return { exportId: outcome.result.exportId };
}

/**
 * The export job: makes the file of a revision and selection, unless a live one exists
 * (a request that raced this job, or an earlier attempt that wrote it). Acts as the
 * system: the request checked access before enqueueing.
 */
export async function makePdfExport(deps: Pick<AppDeps, 'db' | 'config' | 'clock' | 'files'>, job: PdfExportJob): Promise<{ exportId: string }> {
  const snapshot = await loadSnapshot(deps.db, job.spaceId, job.revisionId);
  const { key: selection, roots, only } = selectionOf(snapshot, job.query);
  const reusable = await pdfRepository.findReusable(deps.db, job.spaceId, job.revisionId, selection, deps.clock.now().toISOString());
  if (reusable && reusable.file_hash && (await deps.files.exists(EXPORT_AREA, reusable.file_hash))) return { exportId: reusable.id };
  return { exportId: await generate(deps, job, snapshot, roots, only, selection) };
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

async function generate(ctx: Pick<AppDeps, 'db' | 'config' | 'clock' | 'files'>, source: Source, snapshot: RevisionSnapshot, roots: PageNode[], only: boolean, selection: string): Promise<string> {
  const nodes = printedPages(roots, only);
  const hashes = nodes.map((n) => n.entry.document).filter((h): h is string => h !== undefined);
  const documents = await loadDocuments<Document>(ctx.db, source.spaceId, hashes);
  const baseDepth = roots[0]?.depth ?? 0;
  const spaceVariables: Record<string, string> = {};
  for (const [name, value] of Object.entries(snapshot.revision.variables)) spaceVariables[`space.vars.${name}`] = String(value);

  // Computed pages (builtin:openapi) print what their spec's latest version makes of them.
  const computedSpecs = await specsForPage(ctx.db, source.spaceId, nodes.flatMap((n) => (n.entry.computed ? [n.entry.computed.dependencies.spec.ref.spec] : [])));
  const pages: PdfPage[] = nodes.map((node) => {
    const computed = node.entry.computed;
    const stored = computed
      ? computedDocument(computedSpecs.model(computed.dependencies.spec.ref.spec), computed.dependencies.spec.ref.spec, computed.props)
      : node.entry.document
        ? documents.get(node.entry.document)
        : undefined;
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

  // The renderer draws synchronously: the images the printed pages name are read first.
  const printed = JSON.stringify(pages);
  const images = new Map<string, Buffer>();
  for (const file of snapshot.filesById.values()) {
    if (!IMAGE_TYPES.has(file.contentType.toLowerCase()) || !printed.includes(file.id)) continue;
    const bytes = await readBlob(ctx.files, file.hash, MAX_IMAGE_BYTES);
    if (bytes) images.set(file.id, bytes);
  }

  const title = selection !== '' ? `${source.title} - ${roots[0].entry.title}` : source.title;
  // OpenAPI blocks print from their spec's latest version.
  const specs = await specsForPage(ctx.db, source.spaceId, pages.flatMap((p) => openapiSpecsOf(p.document?.nodes)));
  const bytes = await renderPdf({
    openapi: specs.model,
    title,
    pages,
    createdAt: ctx.clock.now(),
    fileName: (fileId) => snapshot.filesById.get(fileId)?.name,
    image: (fileId) => images.get(fileId),
  });

  const id = randomBytes(32).toString('base64url');
  // Stored before the row that names it (the file store is outside any transaction).
  const stored = await ctx.files.put(EXPORT_AREA, bytes);
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
      file_hash: stored.hash,
    });
  } catch (error) {
    await removeExportFile(ctx, stored.hash);
    throw error;
  }
  return id;
}


/**
 * The download route: the file of a live export whose space is not deleted. An expired
 * export answers 404 and is removed then (row and file), without waiting for the sweep.
 */
export async function readExport(
  deps: Pick<AppDeps, 'db' | 'config' | 'clock' | 'files'>,
  id: string,
): Promise<{ file: FileStream; row: PdfExportRow; maxAgeSeconds: number }> {
  const row = await pdfRepository.findServable(deps.db, id);
  if (!row) throw notFound('Export');
  const now = deps.clock.now();
  if (row.expires_at <= now.toISOString()) {
    await removeIfExpired(deps, id, now.toISOString());
    throw notFound('Export');
  }
  const file = row.file_hash ? await deps.files.get(EXPORT_AREA, row.file_hash) : undefined;
  if (!file) {
    // The file is gone (or the export predates the file store): the row is of no use either.
    await pdfRepository.delete(deps.db, id);
    throw notFound('Export');
  }
  const maxAgeSeconds = Math.max(0, Math.floor((Date.parse(row.expires_at) - now.getTime()) / 1000));
  return { file, row, maxAgeSeconds };
}

async function removeIfExpired(deps: Pick<AppDeps, 'db' | 'config' | 'files'>, id: string, now: string): Promise<boolean> {
  const row = await pdfRepository.findById(deps.db, id);
  if (!(await pdfRepository.deleteIfExpired(deps.db, id, now))) return false;
  if (row?.file_hash) await removeExportFile(deps, row.file_hash);
  else fs.rmSync(legacyExportPath(deps.config.dataDir, id), { force: true });
  return true;
}

/** Removes an export's bytes unless another export holds the same bytes. */
async function removeExportFile(deps: Pick<AppDeps, 'db' | 'files'>, hash: string): Promise<void> {
  if (await pdfRepository.holdsFile(deps.db, hash)) return;
  await deps.files.delete(EXPORT_AREA, [hash]);
}

/** Removes expired exports (rows and files), in batches; returns how many. Safe in several processes at once. */
export async function sweepExpiredPdfs(deps: Pick<AppDeps, 'db' | 'config' | 'clock' | 'files'>): Promise<number> {
  const now = deps.clock.now().toISOString();
  let removed = 0;
  for (;;) {
    const ids = await pdfRepository.expiredIds(deps.db, now, 200);
    for (const id of ids) if (await removeIfExpired(deps, id, now)) removed++;
    if (ids.length < 200) return removed;
  }
}
