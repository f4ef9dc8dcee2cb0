import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { Agent, Dispatcher, buildConnector as BuildConnector } from 'undici';
import { refusalOf } from './addresses.ts';
import { redactUrl } from './redact.ts';

/*
 * The one HTTP client for URLs users give (file URLs today; OpenAPI sources, git remotes,
 * spec references next). What it guarantees, whoever calls it:
 * - http and https only;
 * - every address the host resolves to is checked, and the socket is opened to the
 *   checked address itself (the connector resolves, checks, then connects to the IP), so
 *   a name that resolves differently a second time (DNS rebinding) cannot slip through;
 * - redirects are followed by hand, a bounded number of times, each hop checked again
 *   (the connector checks every connection anyway);
 * - a connect timeout and a total timeout (headers and body);
 * - a size cap counted while the body streams, whatever Content-Length says;
 * - credentials in the URL become a Basic Authorization header for that origin only, and
 *   never appear in errors (redactUrl for anything a caller logs or stores).
 */

export interface OutboundOptions {
  /**
   * Whether private, loopback and other non-public addresses may be reached
   * (OUTBOUND_ALLOW_PRIVATE). A function decides per address and port: tests allow one
   * listener on 127.0.0.1 this way and prove that every other one stays unreached.
   */
  allowPrivate?: boolean | ((address: string, port: number) => boolean);
  connectTimeoutMs?: number;
  totalTimeoutMs?: number;
  maxRedirects?: number;
  maxBytes?: number;
  /** Resolves a host name to its addresses (tests replace it; default: the system resolver). */
  resolve?: (hostname: string) => Promise<string[]>;
}

export interface FetchOptions {
  maxBytes?: number;
  totalTimeoutMs?: number;
  headers?: Record<string, string>;
  /** GET by default; POST (and DELETE) for API calls to a configured service, with `body`. */
  method?: 'GET' | 'POST' | 'DELETE';
  body?: string | Buffer;
}

export interface OutboundResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The URL that answered, after redirects, without credentials. */
  url: string;
  /** The media type without parameters, lower-cased, or undefined. */
  contentType: string | undefined;
}

export interface OutboundBytes extends OutboundResponse {
  bytes: Buffer;
}

export interface OutboundStream extends OutboundResponse {
  /** The body; reading past the size cap or the deadline fails with an OutboundError. */
  body: AsyncIterable<Buffer>;
  /** Stops reading (releases the connection) without consuming the rest. */
  cancel(): void;
}

export type OutboundErrorKind = 'invalid-url' | 'refused-address' | 'unresolvable' | 'too-many-redirects' | 'timeout' | 'too-large' | 'network';

/** Why a URL could not be had; the message never holds the URL's credentials. */
export class OutboundError extends Error {
  constructor(
    readonly kind: OutboundErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export interface OutboundClient {
  /** GETs `url` and reads its whole body (at most maxBytes). */
  fetchBytes(url: string | URL, options?: FetchOptions): Promise<OutboundBytes>;
  /** GETs `url` and hands back the body as a capped stream. */
  open(url: string | URL, options?: FetchOptions): Promise<OutboundStream>;
  close(): Promise<void>;
}

export function createOutboundClient(options: OutboundOptions = {}): OutboundClient {
  const connectTimeoutMs = options.connectTimeoutMs ?? 5_000;
  const defaultTotalMs = options.totalTimeoutMs ?? 30_000;
  const maxRedirects = options.maxRedirects ?? 5;
  const defaultMaxBytes = options.maxBytes ?? 10 * 1024 * 1024;
  const resolve = options.resolve ?? (async (host: string) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address));
  const allowed = (address: string, port: number) =>
    typeof options.allowPrivate === 'function' ? options.allowPrivate(address, port) : options.allowPrivate === true;

  // undici is loaded on first use: most processes never fetch a user's URL, and it costs startup time.
  let loaded: Promise<{ agent: Agent; request: typeof import('undici').request }> | undefined;
  const undici = () => (loaded ??= import('undici').then(({ Agent, buildConnector, request }) => {
    const connectTo = buildConnector({ timeout: connectTimeoutMs });
    return { agent: new Agent({ connect: guardedConnect(connectTo), connectTimeout: connectTimeoutMs }), request };
  }));
  /** Resolves, checks every address, and connects to the first: the socket goes where the check looked. */
  const guardedConnect = (connectTo: BuildConnector.connector): BuildConnector.connector => (target, callback) => {
    const host = target.hostname.replace(/^\[|\]$/g, '');
    const port = Number(target.port) || (target.protocol === 'https:' ? 443 : 80);
    (async () => {
      const addresses = isIP(host) ? [host] : await resolve(host).catch(() => [] as string[]);
      if (addresses.length === 0) throw new OutboundError('unresolvable', `the host "${host}" does not resolve`);
      for (const address of addresses) {
        const why = refusalOf(address);
        if (why && !allowed(address, port)) throw new OutboundError('refused-address', `the host "${host}" resolves to ${why}, which is not reachable from here`);
      }
      return addresses[0];
    })().then(
      (address) => connectTo({ ...target, hostname: address, servername: isIP(host) ? undefined : host }, callback),
      (error: Error) => callback(error, null),
    );
  };

  async function open(input: string | URL, fetchOptions: FetchOptions = {}): Promise<OutboundStream> {
    const maxBytes = fetchOptions.maxBytes ?? defaultMaxBytes;
    const { agent, request } = await undici();
    const deadline = AbortSignal.timeout(fetchOptions.totalTimeoutMs ?? defaultTotalMs);
    let url = parseUrl(input);
    let credentials = takeCredentials(url);
    let method = fetchOptions.method ?? 'GET';
    let requestBody = fetchOptions.body;
    for (let hop = 0; ; hop++) {
      const headers: Record<string, string> = { 'user-agent': 'Quire', ...(fetchOptions.headers ?? {}) };
      if (credentials) headers.authorization = `Basic ${credentials.value}`;
      let response: Dispatcher.ResponseData;
      try {
        // undici's request follows no redirect by itself: each hop is handled below.
        response = await request(url, { dispatcher: agent, method, headers, signal: deadline, ...(requestBody !== undefined ? { body: requestBody } : {}) });
      } catch (error) {
        throw asOutboundError(error, deadline);
      }
      // Destroying a body we stop reading emits an abort error nobody waits for.
      response.body.on('error', () => undefined);
      if (REDIRECT_STATUSES.has(response.statusCode) && typeof response.headers.location === 'string') {
        response.body.destroy();
        if (hop >= maxRedirects) throw new OutboundError('too-many-redirects', `more than ${maxRedirects} redirects`);
        const next = parseUrl(new URL(response.headers.location, url));
        // Credentials go to the origin they were given for, never to where it redirects.
        if (credentials && next.origin !== credentials.origin) credentials = undefined;
        if (next.username || next.password) credentials = takeCredentials(next);
        url = next;
        // 307 and 308 repeat the request as it was; the others continue with a GET.
        if (response.statusCode !== 307 && response.statusCode !== 308) {
          method = 'GET';
          requestBody = undefined;
        }
        continue;
      }
      const body = response.body;
      const declared = Number(response.headers['content-length'] ?? NaN);
      if (Number.isFinite(declared) && declared > maxBytes) {
        body.destroy();
        throw new OutboundError('too-large', `the response holds more than ${maxBytes} bytes`);
      }
      const capped = async function* () {
        let seen = 0;
        try {
          for await (const chunk of body as AsyncIterable<Buffer>) {
            seen += chunk.length;
            if (seen > maxBytes) throw new OutboundError('too-large', `the response holds more than ${maxBytes} bytes`);
            yield chunk;
          }
        } catch (error) {
          throw asOutboundError(error, deadline);
        } finally {
          body.destroy();
        }
      };
      const contentType = headerValue(response.headers['content-type'])?.split(';')[0].trim().toLowerCase() || undefined;
      return {
        status: response.statusCode,
        headers: response.headers,
        url: redactUrl(url),
        contentType,
        body: capped(),
        cancel: () => body.destroy(),
      };
    }
  }

  async function fetchBytes(input: string | URL, fetchOptions: FetchOptions = {}): Promise<OutboundBytes> {
    const { body, cancel: _cancel, ...response } = await open(input, fetchOptions);
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(chunk);
    return { ...response, bytes: Buffer.concat(chunks) };
  }

  return {
    open,
    fetchBytes,
    close: async () => {
      if (loaded) await (await loaded).agent.close();
    },
  };
}

function parseUrl(input: string | URL): URL {
  let url: URL;
  try {
    url = new URL(String(input));
  } catch {
    throw new OutboundError('invalid-url', 'not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundError('invalid-url', 'only http and https URLs can be fetched');
  return url;
}

/** Moves `user:password@` out of the URL into a Basic credential for the URL's origin. */
function takeCredentials(url: URL): { origin: string; value: string } | undefined {
  if (!url.username && !url.password) return undefined;
  const value = Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64');
  url.username = '';
  url.password = '';
  return { origin: url.origin, value };
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function asOutboundError(error: unknown, deadline: AbortSignal): OutboundError {
  if (error instanceof OutboundError) return error;
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof OutboundError) return cause;
  if (deadline.aborted) return new OutboundError('timeout', 'the server took too long to answer');
  const code = (error as { code?: string }).code;
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return new OutboundError('timeout', 'the server took too long to answer');
  }
  // undici's messages name no URL; the code says what failed.
  return new OutboundError('network', `the request failed (${code ?? (error as Error).message})`);
}
