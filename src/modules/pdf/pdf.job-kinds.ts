import { Type, type Static } from 'typebox';
import { defineJob } from '../../jobs/queue.ts';
import { PdfQuery } from './pdf.schemas.ts';

/** What the export job is given: the source and GitBook's page selection. */
export const PdfExportPayload = Type.Object({
  spaceId: Type.String(),
  revisionId: Type.String(),
  title: Type.String(),
  query: PdfQuery,
});
export type PdfExportJob = Static<typeof PdfExportPayload>;

/**
 * Makes a PDF export (enqueued by GET {S}/pdf and GET {CR}/pdf, which wait for it; the
 * handler is in pdf.jobs.ts). Rendering is CPU-bound: two at a time per process; one
 * retry, soon, as a request waits.
 */
export const pdfExportJob = defineJob('pdf.export', {
  payload: PdfExportPayload,
  result: Type.Object({ exportId: Type.String() }),
  concurrency: 2,
  maxAttempts: 2,
  backoffMs: 500,
});
