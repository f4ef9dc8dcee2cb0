/*
 * The concept lexicon of the offline clustering (docs/decisions/conversations.md): the
 * words and phrases people use in support conversations for one thing, mapped to one
 * concept, so "Okta", "SAML" and "single sign-on" count as the same term ("~sso") and two
 * questions about one problem asked in different words share it. Curated for the problems a
 * documentation platform's readers and admins raise; a phrase is matched on whole words,
 * longest first, before stop words are dropped (so "sign in" and "log in" are seen).
 * Words that mean different things in different problems ("certificate": SAML or TLS;
 * "limit"; "export") are deliberately left out, and keep their own stems.
 */
export const CONCEPTS: Record<string, string[]> = {
  sso: [
    'sso', 'saml', 'saml2', 'single sign on', 'single sign-on', 'singlesignon', 'okta', 'onelogin', 'azure ad',
    'azure active directory', 'active directory', 'entra id', 'microsoft entra', 'identity provider', 'idp', 'adfs',
    'jumpcloud', 'auth0', 'ping identity', 'pingfederate', 'google workspace login', 'federated login', 'scim',
  ],
  signin: ['login', 'log in', 'logging in', 'logged in', 'logon', 'log on', 'sign in', 'signing in', 'signed in', 'sign-in', 'signin'],
  password: [
    'password', 'passwords', 'passphrase', 'passwd', 'forgot', 'forgotten', 'forgot password', 'do not remember',
    "don't remember", 'reset link', 'reset email', 'recovery email', 'recovery mail', 'locked out',
  ],
  twofactor: [
    '2fa', 'mfa', 'two factor', 'two-factor', 'multi factor', 'multi-factor', 'second factor', 'authenticator',
    'google authenticator', 'authy', 'otp', 'totp', 'one-time code', 'one time code', 'verification code', 'six-digit',
    'six digit code', 'recovery codes', 'backup codes',
  ],
  ratelimit: [
    'rate limit', 'rate limits', 'rate limited', 'rate-limit', 'rate-limited', 'rate limiting', 'ratelimit', '429',
    'too many requests', 'throttling', 'throttled', 'throttle', 'quota', 'quotas', 'back off', 'backoff', 'request limit',
  ],
  apitoken: [
    'api token', 'api tokens', 'token', 'tokens', 'api key', 'api keys', 'access token', 'personal access token',
    'personal access tokens', 'bearer', 'authorization header', '401', 'unauthorized', 'unauthorised',
    'authentication required',
  ],
  api: ['api', 'apis', 'rest api', 'endpoint', 'endpoints', 'graphql'],
  domain: [
    'domain', 'domains', 'custom domain', 'subdomain', 'dns', 'cname', 'a record', 'hostname', 'ssl', 'tls', 'https',
    'ssl certificate', 'tls certificate', 'not secure', 'letsencrypt', "let's encrypt",
  ],
  billing: [
    'billing', 'billed', 'bill', 'invoice', 'invoices', 'receipt', 'receipts', 'charged', 'charge', 'charges', 'refund',
    'refunds', 'payment', 'payments', 'credit card', 'subscription', 'subscriptions', 'vat', 'pricing', 'price',
    'downgrade', 'renewal', 'annual plan', 'free plan', 'pro plan',
  ],
  git: [
    'git', 'github', 'gitlab', 'bitbucket', 'repository', 'repositories', 'repo', 'repos', 'commit', 'commits',
    'committed', 'branch', 'branches', 'git sync', 'pushed', 'pull request',
  ],
  pdf: ['pdf', 'pdfs', 'printable', 'print', 'printing', 'print version'],
  search: ['search', 'searches', 'searching', 'search box', 'search results', 'findable', 'look up', 'keyword', 'keywords', 'hits', 'indexing', 'indexed', 'reindex'],
  access: [
    'invite', 'invites', 'invited', 'invitation', 'invitations', 'teammate', 'teammates', 'colleague', 'colleagues',
    'member', 'members', 'role', 'roles', 'permission', 'permissions', 'read-only', 'read only', 'admin', 'admins',
    'administrator', 'administrators', 'contractor', 'guest', 'guests', 'seat', 'seats',
  ],
  import: [
    'import', 'imported', 'importing', 'imports', 'migrate', 'migrating', 'migration', 'confluence', 'notion', 'docx',
    'word documents', 'word document', 'wiki', 'bring over',
  ],
  webhook: ['webhook', 'webhooks', 'callback', 'callbacks', 'callback url', 'delivery', 'deliveries', 'payload', 'payloads', 'subscribe', 'notification'],
};
