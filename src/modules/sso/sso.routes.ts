import formbody from '@fastify/formbody';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { appUrl } from '../../lib/urls.ts';
import { showErrorsAs } from '../../plugins/errors.ts';
import { sessionCookie } from '../sessions/sessions.presenter.ts';
import { signInErrorPage, signInNonceCookie, signInNonceOf } from './sso.presenter.ts';
import { AcsBody, ProviderParams, StartQuery } from './sso.schemas.ts';
import { REQUEST_TTL_MS, SignInRefused, completeSignIn, newSignInNonce, serviceMetadata, startSignIn } from './sso.service.ts';

/*
 * Quire's SAML service-provider endpoints (service.entityID, startURL, acsURL of a
 * provider). Browser-facing: no API token; failures answer an HTML page. Registered in
 * its own context, so the form parser they need does not reach the JSON API.
 */
export const ssoRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(formbody, { bodyLimit: 1_100_000 });

  // The one error handler (plugins/errors.ts) maps the error; these endpoints show it as a page.
  showErrorsAs(app, ({ status, error }, request, reply) => {
    if (error instanceof SignInRefused) {
      // The reason word only: never the response, the assertion or a session id.
      request.log.warn({ reason: error.reason }, 'SAML sign-in refused');
      return reply
        .code(error.statusCode)
        .type('text/html; charset=utf-8')
        .send(signInErrorPage(error.title, error.message, appUrl(app.deps.config, '/signin')));
    }
    const title = status === 404 ? 'Unknown identity provider' : 'Sign-in failed';
    const text =
      status === 404
        ? 'This sign-in address names no identity provider of Quire; it may have been deleted. Use the sign-in page.'
        : status < 500
          ? 'The request to this sign-in address was not what an identity provider sends (a form with SAMLResponse).'
          : 'Quire could not complete the sign-in. Try again; the server log has the details.';
    return reply.code(status).type('text/html; charset=utf-8').send(signInErrorPage(title, text, appUrl(app.deps.config, '/signin')));
  });

  app.get('/sso/saml/:providerId', {
    config: { public: true },
    schema: { hide: true, params: ProviderParams },
    handler: async (request, reply) => {
      const xml = await serviceMetadata(app.deps, request.params.providerId);
      return reply.type('application/samlmetadata+xml; charset=utf-8').send(xml);
    },
  });

  app.get('/sso/saml/:providerId/start', {
    config: { public: true },
    schema: { hide: true, params: ProviderParams, querystring: StartQuery },
    handler: async (request, reply) => {
      // The browser's nonce: kept when it has one (sign-ins started in two tabs both work).
      const nonce = signInNonceOf(request.headers.cookie) ?? newSignInNonce();
      const location = await startSignIn(app.deps, request.params.providerId, request.query.to, nonce);
      return reply
        .header('set-cookie', signInNonceCookie(app.deps.config, nonce, REQUEST_TTL_MS))
        .header('cache-control', 'no-store')
        .redirect(location, 303);
    },
  });

  app.post('/sso/saml/:providerId/acs', {
    config: { public: true },
    schema: { hide: true, params: ProviderParams, body: AcsBody },
    handler: async (request, reply) => {
      const signedIn = await completeSignIn(app.deps, request.params.providerId, request.body, signInNonceOf(request.headers.cookie));
      return reply
        .header('set-cookie', [
          sessionCookie(app.deps.config, signedIn.sessionId, app.deps.config.sessionTtlMs),
          signInNonceCookie(app.deps.config, '', 0),
        ])
        .header('cache-control', 'no-store')
        .redirect(signedIn.target, 303);
    },
  });
};
