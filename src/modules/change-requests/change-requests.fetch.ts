import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { badRequest } from '../../errors.ts';

/*
 * Fetching a file for `insert_files` by URL, on a user's behalf. A URL whose host resolves
 * to a private, loopback, link-local or otherwise reserved address is refused (GitBook
 * does the same), unless FILE_FETCH_ALLOW_PRIVATE is set (tests serve files on 127.0.0.1).
 */

const MAX_BYTES = 10 * 1024 * 1024;
const TIMEOUT_MS = 15_000;

const reserved = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) reserved.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['::ffff:0:0', 96]] as const) {
  reserved.addSubnet(net, prefix, 'ipv6');
}

function isReserved(address: string): boolean {
  const family = isIP(address);
  return family === 4 ? reserved.check(address, 'ipv4') : family === 6 ? reserved.check(address, 'ipv6') : true;
}

/** The bytes and content type at `url`; 400 naming `where` when it cannot be had. */
export async function fetchFile(url: string, where: string, allowPrivate: boolean): Promise<{ bytes: Buffer; contentType: string }> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw badRequest(`${where}/url is not a URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw badRequest(`${where}/url must be http or https`);
  if (!allowPrivate) {
    const host = parsed.hostname.replace(/^\[|\]$/g, '');
    const addresses = isIP(host) ? [host] : (await lookup(host, { all: true }).catch(() => [])).map((a) => a.address);
    if (addresses.length === 0) throw badRequest(`${where}/url: the host "${parsed.hostname}" does not resolve`);
    if (addresses.some(isReserved)) throw badRequest(`${where}/url resolves to a private or reserved address`);
  }
  let response: Response;
  try {
    response = await fetch(parsed, { redirect: 'error', signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    throw badRequest(`${where}/url could not be fetched (${(error as Error).message})`);
  }
  if (!response.ok) throw badRequest(`${where}/url answered ${response.status}`);
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > MAX_BYTES) throw badRequest(`${where}/url holds more than ${MAX_BYTES} bytes`);
  const bytes = Buffer.from(await response.arrayBuffer());
  if (bytes.length > MAX_BYTES) throw badRequest(`${where}/url holds more than ${MAX_BYTES} bytes`);
  return { bytes, contentType: (response.headers.get('content-type') ?? 'application/octet-stream').split(';')[0].trim() };
}
