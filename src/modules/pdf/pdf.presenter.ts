import type { Config } from '../../config.ts';
import type { PdfExportRef } from './pdf.model.ts';
import type { PdfUrlWire } from './pdf.schemas.ts';

/** The `{ url }` GitBook answers: Quire's public download route for the export. */
export function presentPdfUrl(config: Pick<Config, 'publicUrl'>, exportId: string): PdfUrlWire {
  return { url: `${config.publicUrl}/v1/exports/pdf/${exportId}` };
}

/** An export made for a request -> its `{ url }`. */
export function presentPdfExport(config: Pick<Config, 'publicUrl'>, ref: PdfExportRef): PdfUrlWire {
  return presentPdfUrl(config, ref.exportId);
}

/** Content-Disposition for a download name: an ASCII fallback and the UTF-8 name. */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `inline; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
