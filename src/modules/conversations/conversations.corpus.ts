/*
 * A labelled set of support conversations for measuring the offline clustering
 * (conversations.analysis.test.ts, docs/decisions/conversations.md): 13 documentation
 * problems asked five ways each, and noise that belongs to no problem. Written for Quire,
 * not taken from any product's support. The split was fixed before any tuning: within each
 * problem the first three phrasings are for tuning, the last two are held out; the same for
 * the noise. Only the tuning part may guide the lexicon and the threshold; the held-out
 * part's score is the figure reported.
 */

export interface LabelledConversation {
  /** The problem it is about; noise has a label of its own each. */
  label: string;
  subject: string;
  body: string;
  part: 'tune' | 'held-out';
}

const PROBLEMS: Record<string, [string, string][]> = {
  sso: [
    ['', 'SAML login fails with an invalid signature error'],
    ['', 'Our Okta SAML integration redirects to the wrong URL'],
    ['', 'Users cannot sign in with SSO after the certificate changed'],
    ['Azure AD', 'How do we set up single sign-on with Azure Active Directory for the whole company?'],
    ['OneLogin', 'Our identity provider is OneLogin. After logging in there, people land on an error page instead of the docs.'],
  ],
  password: [
    ['Can’t reset my password', 'I clicked forgot password but the reset email never arrives.'],
    ['Password reset link expired', 'The link to reset my password says it has expired. How long is a reset link valid?'],
    ['', 'I forgot my password and now I cannot log in. Where do I change it?'],
    ['Locked out', 'I do not remember my credentials and the recovery mail is not in my inbox or spam folder.'],
    ['', 'How can I choose a new passphrase? The old one stopped working.'],
  ],
  rateLimit: [
    ['API returns 429', 'Our integration gets HTTP 429 Too Many Requests from the API. What is the rate limit?'],
    ['Rate limits', 'How many API requests per minute are allowed before we are rate limited?'],
    ['Throttling on the REST API', 'The REST API started throttling our requests. Is there a documented request limit?'],
    ['', 'Our nightly script calling your endpoints gets blocked after a few hundred calls. What quota applies?'],
    ['Too many requests', 'We keep hitting the limit on API calls during bulk updates; how long should we back off?'],
  ],
  domain: [
    ['Custom domain not working', 'I added a CNAME record for my custom domain but the site still shows an error.'],
    ['DNS settings for a domain', 'Which DNS record should point my domain to the docs site?'],
    ['SSL certificate on custom domain', 'My custom domain shows an SSL certificate warning after I set it up.'],
    ['', 'How do I publish the site on our own hostname docs.example.com instead of the default address?'],
    ['HTTPS not secure', 'Browsers say our docs subdomain is not secure. Do you issue TLS certificates for it?'],
  ],
  billing: [
    ['Invoice', 'Where can I download the invoice for last month? Our finance team needs a PDF copy.'],
    ['Charged twice', 'We were charged twice for the annual plan this month. Can you refund one payment?'],
    ['', 'How do I update the credit card used for our subscription?'],
    ['Billing address', 'Our receipts show the wrong company address and VAT number. How do we correct billing details?'],
    ['', 'We want to downgrade from Pro to the free plan. What happens to our payment at renewal?'],
  ],
  gitSync: [
    ['GitHub sync fails', 'The GitHub sync stopped working and says the repository could not be found.'],
    ['', 'Changes pushed to our git repository do not show up in the space. Is sync broken?'],
    ['GitLab', 'How do I connect a GitLab repository so edits are committed back to a branch?'],
    ['', 'Our commits to the main branch are not imported anymore since we renamed the repo.'],
    ['Two-way sync conflict', 'Edits made in the editor and in GitHub conflict; which side wins when syncing?'],
  ],
  pdf: [
    ['PDF export', 'Exporting the space to PDF gives a blank file.'],
    ['', 'The PDF export is missing images and the table of contents.'],
    ['Print docs', 'How can I export the whole documentation as a PDF to print it?'],
    ['', 'Downloading a printable version of our guide fails with a timeout after a minute.'],
    ['', 'Can the exported PDF include page numbers and our logo on the cover?'],
  ],
  search: [
    ['Search finds nothing', 'The search box returns no results for words that are clearly on our pages.'],
    ['', 'Search does not find pages we published yesterday.'],
    ['Search results', 'Why do search results show old page titles after we renamed the pages?'],
    ['', 'Visitors type a keyword that appears in the article but get zero hits.'],
    ['Indexing', 'How long until new content becomes findable for readers who look things up?'],
  ],
  members: [
    ['Invite teammates', 'How do I invite my colleagues to the organization?'],
    ['', 'A new member cannot edit pages; what role do they need?'],
    ['Permissions', 'How do I give a team read-only access to one space?'],
    ['', 'Our contractor accepted the invitation but sees no spaces at all.'],
    ['Admin rights', 'How can I make another person an administrator, and remove my own admin role later?'],
  ],
  apiToken: [
    ['401 from the API', 'Every request to the API returns 401 Unauthorized even with our token.'],
    ['API token', 'Where do I create an API token, and which header do I send it in?'],
    ['', 'Our token was revoked by mistake and now the API answers unauthorized.'],
    ['Bearer header', 'The API keeps saying authentication required although the Authorization header carries our key.'],
    ['', 'Do personal access tokens expire? Our integration credentials stopped being accepted.'],
  ],
  import: [
    ['Import markdown', 'How do I import a folder of Markdown files into a new space?'],
    ['Migrating from Confluence', 'We are moving from Confluence; is there a way to import our pages?'],
    ['', 'The markdown import lost all our images and relative links.'],
    ['Docx', 'Can we bring our existing Word documents over instead of rewriting everything?'],
    ['', 'Moving hundreds of pages from our old wiki: what is the fastest migration path?'],
  ],
  twoFactor: [
    ['2FA', 'How do I turn on two-factor authentication for my account?'],
    ['Lost authenticator', 'I lost my phone with the authenticator app and cannot get past the 2FA code.'],
    ['', 'Can an admin require two-factor authentication for every member?'],
    ['MFA codes', 'The six-digit verification code from Google Authenticator is always rejected.'],
    ['', 'Are recovery codes available in case my second factor device breaks?'],
  ],
  webhooks: [
    ['Webhooks', 'Our webhook endpoint never receives events when a page is updated.'],
    ['', 'How do we verify the signature of webhook payloads you send?'],
    ['Webhook retries', 'Do you retry a webhook delivery when our server answers 500?'],
    ['', 'Which events can we subscribe to, and what does the JSON of a page-published notification look like?'],
    ['Callbacks', 'Our callback URL got no POST after content changed; how do we debug deliveries?'],
  ],
};

const NOISE: string[] = [
  'Thanks, that fixed it!',
  'What are your office hours?',
  'Is there a dark mode for the editor?',
  'I love the new design, great job to the whole team.',
  'Can I change the interface language to French?',
  'Do you have a status page?',
  'Hello, is anybody there?',
];

export const CORPUS: LabelledConversation[] = [
  ...Object.entries(PROBLEMS).flatMap(([label, list]) =>
    list.map(([subject, body], i): LabelledConversation => ({ label, subject, body, part: i < 3 ? 'tune' : 'held-out' })),
  ),
  ...NOISE.map((body, i): LabelledConversation => ({ label: `noise-${i}`, subject: '', body, part: i < 4 ? 'tune' : 'held-out' })),
];
