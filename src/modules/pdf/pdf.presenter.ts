import type { Config } from '../../config.ts';
import type { PdfUrlWire } from './pdf.schemas.ts';

/** The `{ url }` GitBook answers: Quire's public download route for the export. */
export function presentPdfUrl(config: Pick<Config, 'publicUrl'>, exportId: string): PdfUrlWire {
  return { url: `${config.publicUrl}/v1/exports/pdf/${exportId}` };
}

/** A file name for the download: the title, with what file systems dislike removed. */
export function pdfFileName(title: string): string {
  const base = title
    .replace(/[\u0000-\u001f\u007f/\\:*?"<>|]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 120);
  return `${base || 'export'}.pdf`;
}

/** Content-Disposition for a download name: an ASCII fallback and the UTF-8 name. */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `inline; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
