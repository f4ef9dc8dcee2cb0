/** An export made (or kept) for a request: the id its public download URL names. */
export interface PdfExportRef {
  exportId: string;
}

/** A file name for the download, stored with the export: the title, with what file systems dislike removed. */
export function pdfFileName(title: string): string {
  const base = title
    .replace(/[\u0000-\u001f\u007f/\\:*?"<>|]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 120);
  return `${base || 'export'}.pdf`;
}
