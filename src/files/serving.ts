/*
 * How stored files are answered to browsers. Uploaded files are whatever their uploader
 * says they are (text/html, image/svg+xml...): nothing a browser would run is shown
 * inline, the type is never sniffed, and a sandboxing CSP keeps any script that does
 * get rendered from running with the server's origin.
 */

/** Types a browser shows without running anything; all else is served as an attachment. */
const INLINE_TYPES = new Set([
  'image/png', 'image/jpeg', 'image/jpg', 'image/pjpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp',
  'image/x-icon', 'image/vnd.microsoft.icon', 'text/plain',
]);

const TYPE_PATTERN = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

/** The media type a stored file is answered with: the signed one when it is a plain `type/subtype`, else octet-stream. */
export function servedContentType(contentType: string): string {
  const type = contentType.split(';')[0].trim().toLowerCase();
  return TYPE_PATTERN.test(type) ? type : 'application/octet-stream';
}

export function isInlineType(contentType: string): boolean {
  const type = servedContentType(contentType);
  return INLINE_TYPES.has(type) || type.startsWith('audio/') || type.startsWith('video/');
}

/** The headers of a stored file's download response. */
export function downloadHeaders(file: { name: string; contentType: string; size: number }): Record<string, string> {
  const type = servedContentType(file.contentType);
  const disposition = isInlineType(type) ? 'inline' : 'attachment';
  return {
    'content-type': type,
    'content-length': String(file.size),
    'content-disposition': `${disposition}; filename*=UTF-8''${encodeURIComponent(file.name)}`,
    'x-content-type-options': 'nosniff',
    // Nothing loads, nothing runs, and the document gets an opaque origin.
    'content-security-policy': "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; sandbox",
    'referrer-policy': 'no-referrer',
  };
}
