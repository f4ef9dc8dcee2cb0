/* Test data shared by the conversation tests. */

/** Twelve support conversations about three documentation problems, four each, worded differently. */
export const PROBLEMS = {
  password: [
    { subject: 'Can’t reset my password', body: 'I clicked forgot password but the reset email never arrives. How do I reset it?' },
    { subject: 'Password reset link expired', body: 'The link to reset my password says it has expired. How long is a reset link valid?' },
    { subject: '', body: 'How do I change my password? I forgot it and now I cannot log in.' },
    { subject: 'Locked out', body: 'I forgot my password and the docs do not explain the password recovery steps.' },
  ],
  rateLimit: [
    { subject: 'API returns 429', body: 'Our integration gets HTTP 429 Too Many Requests from the API. What is the rate limit?' },
    { subject: 'Rate limits', body: 'How many API requests per minute are allowed before we are rate limited?' },
    { subject: 'Throttling on the REST API', body: 'The REST API started throttling our requests. Is there a documented request limit?' },
    { subject: 'Too many requests', body: 'We hit a limit on API calls. Where are the API rate limits documented?' },
  ],
  domain: [
    { subject: 'Custom domain not working', body: 'I added a CNAME record for my custom domain but the site still shows an error.' },
    { subject: 'DNS settings for a domain', body: 'Which DNS record should point my domain to the docs site?' },
    { subject: 'SSL certificate on custom domain', body: 'My custom domain shows an SSL certificate warning after I set it up.' },
    { subject: 'Using our own domain', body: 'How do I publish the site on our own domain name instead of the default URL?' },
  ],
};

