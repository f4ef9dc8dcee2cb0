/*
 * URLs as they may be logged, stored or shown: without credentials, and with the values
 * of capability parameters (signatures, share keys, tokens) replaced.
 */

const CAPABILITY_PARAMS = new Set([
  'sig', 'signature', 'token', 'access_token', 'sharekey', 'share', 'jwt_token', 'key', 'password', 'secret',
  'x-amz-signature', 'x-amz-credential', 'x-amz-security-token',
]);

/** `url` with `user:password@` removed and capability parameter values replaced by `redacted`. */
export function redactUrl(input: string | URL): string {
  let url: URL;
  try {
    url = new URL(String(input));
  } catch {
    // Not a URL: nothing can be parsed out of it, so none of it is shown.
    return '[unparseable URL]';
  }
  if (url.username || url.password) {
    url.username = 'redacted';
    url.password = '';
  }
  for (const name of [...url.searchParams.keys()]) {
    if (CAPABILITY_PARAMS.has(name.toLowerCase())) url.searchParams.set(name, 'redacted');
  }
  return url.toString();
}

/**
 * `url` as it may be stored and served to readers: `user:password@` and capability
 * parameters (with their values) removed, so nothing remains to redact. A URL with
 * neither is returned exactly as given (no normalization). Not a URL: `undefined`.
 */
export function urlWithoutSecrets(input: string): string | undefined {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return undefined;
  }
  const secretParams = [...url.searchParams.keys()].filter((name) => CAPABILITY_PARAMS.has(name.toLowerCase()));
  if (!url.username && !url.password && secretParams.length === 0) return input;
  url.username = '';
  url.password = '';
  for (const name of secretParams) url.searchParams.delete(name);
  return url.toString();
}
