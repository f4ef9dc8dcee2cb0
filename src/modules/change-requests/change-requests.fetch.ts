import { badRequest } from '../../errors.ts';
import { OutboundError, type OutboundClient } from '../../lib/outbound/index.ts';

/*
 * Fetching a file for `insert_files` by URL, on a user's behalf, through the guarded
 * outbound client (src/lib/outbound): non-public addresses are refused (GitBook does the
 * same) unless OUTBOUND_ALLOW_PRIVATE is set, redirects are re-checked, and the body is
 * capped while it streams.
 */

const MAX_BYTES = 10 * 1024 * 1024;
const TIMEOUT_MS = 15_000;

/** The bytes and content type at `url`; 400 naming `where` when it cannot be had. */
export async function fetchFile(outbound: OutboundClient, url: string, where: string): Promise<{ bytes: Buffer; contentType: string }> {
  try {
    const response = await outbound.fetchBytes(url, { maxBytes: MAX_BYTES, totalTimeoutMs: TIMEOUT_MS });
    if (response.status < 200 || response.status > 299) throw badRequest(`${where}/url answered ${response.status}`);
    return { bytes: response.bytes, contentType: response.contentType ?? 'application/octet-stream' };
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    const reason =
      error.kind === 'refused-address' ? `resolves to a private or reserved address (${error.message})`
      : error.kind === 'too-large' ? `holds more than ${MAX_BYTES} bytes`
      : error.kind === 'invalid-url' ? `is not a fetchable URL: ${error.message}`
      : `could not be fetched: ${error.message}`;
    throw badRequest(`${where}/url ${reason}`);
  }
}
