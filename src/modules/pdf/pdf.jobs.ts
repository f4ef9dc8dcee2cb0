import { defineJob } from '../../jobs/queue.ts';
import { makePdfExport, PDF_EXPORT_JOB, type PdfExportJob } from './pdf.service.ts';

/*
 * Makes a PDF export (enqueued by GET {S}/pdf and GET {CR}/pdf, which wait for it).
 * Rendering is CPU-bound: two at a time per process; one retry, soon, as a request waits.
 */
defineJob<PdfExportJob>(PDF_EXPORT_JOB, {
  run: (payload, ctx) => makePdfExport(ctx, payload),
  concurrency: 2,
  maxAttempts: 2,
  backoffMs: 500,
});
