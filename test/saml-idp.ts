import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { randomUUID } from 'node:crypto';
import { generate } from 'selfsigned';
import { SignedXml } from 'xml-crypto';

/*
 * A test identity provider: its own key pair and self-signed certificate, made by the
 * test, and SAML responses signed with xml-crypto the way real IdPs sign them
 * (enveloped signature, exclusive C14N, RSA-SHA256).
 */

export interface TestIdpKeys {
  privateKey: string;
  certificate: string;
}

/** A fresh key pair and self-signed certificate (RSA 2048, valid 30 days). */
export async function generateIdpKeys(commonName = 'idp.test'): Promise<TestIdpKeys> {
  const pems = await generate([{ name: 'commonName', value: commonName }], { keySize: 2048, notAfterDate: new Date(Date.now() + 30 * 86_400_000) });
  return { privateKey: pems.private, certificate: pems.cert };
}

/** The AuthnRequest inside a HTTP-Redirect `Location` (inflated XML) and its RelayState. */
export function decodeRedirect(location: string): { xml: string; relayState: string | null; url: URL } {
  const url = new URL(location);
  const encoded = url.searchParams.get('SAMLRequest');
  if (!encoded) throw new Error(`no SAMLRequest in ${location}`);
  const xml = inflateRawSync(Buffer.from(encoded, 'base64')).toString('utf8');
  return { xml, relayState: url.searchParams.get('RelayState'), url };
}

export const attr = (xml: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(xml)?.[1] ?? null;

export interface ResponseOptions {
  issuer: string;
  /** Quire's entity ID (the audience). */
  audience: string;
  acsUrl: string;
  inResponseTo?: string;
  nameId: string;
  displayName?: string;
  email?: string;
  /** What to sign: the assertion (default), the response, or nothing. */
  sign?: 'assertion' | 'response' | 'none';
  keys: TestIdpKeys;
  /** Time of issue (default now); the assertion is valid 5 minutes from it. */
  issuedAt?: Date;
  assertionId?: string;
  destination?: string;
  recipient?: string;
}

const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A SAML 2.0 Response as an IdP posts it, signed as asked; returns the XML. */
export function buildResponse(options: ResponseOptions): string {
  const issued = options.issuedAt ?? new Date();
  const notBefore = new Date(issued.getTime() - 60_000).toISOString();
  const notOnOrAfter = new Date(issued.getTime() + 5 * 60_000).toISOString();
  const responseId = `_r${randomUUID()}`;
  const assertionId = options.assertionId ?? `_a${randomUUID()}`;
  const inResponseTo = options.inResponseTo ? ` InResponseTo="${xmlEscape(options.inResponseTo)}"` : '';
  const attributes: string[] = [];
  if (options.email) {
    attributes.push(
      `<saml:Attribute Name="email"><saml:AttributeValue>${xmlEscape(options.email)}</saml:AttributeValue></saml:Attribute>`,
    );
  }
  if (options.displayName) {
    attributes.push(
      `<saml:Attribute Name="displayName"><saml:AttributeValue>${xmlEscape(options.displayName)}</saml:AttributeValue></saml:Attribute>`,
    );
  }
  const assertion =
    `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${assertionId}" Version="2.0" IssueInstant="${issued.toISOString()}">` +
    `<saml:Issuer>${xmlEscape(options.issuer)}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${xmlEscape(options.nameId)}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
    `<saml:SubjectConfirmationData${inResponseTo} NotOnOrAfter="${notOnOrAfter}" Recipient="${xmlEscape(options.recipient ?? options.acsUrl)}"/>` +
    `</saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${notOnOrAfter}">` +
    `<saml:AudienceRestriction><saml:Audience>${xmlEscape(options.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${issued.toISOString()}" SessionIndex="${assertionId}">` +
    `<saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    (attributes.length ? `<saml:AttributeStatement>${attributes.join('')}</saml:AttributeStatement>` : '') +
    `</saml:Assertion>`;
  const sign = options.sign ?? 'assertion';
  const signedAssertion = sign === 'assertion' ? signElement(assertion, 'Assertion', options.keys) : assertion;
  const response =
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${responseId}" Version="2.0" IssueInstant="${issued.toISOString()}" Destination="${xmlEscape(options.destination ?? options.acsUrl)}"${inResponseTo}>` +
    `<saml:Issuer>${xmlEscape(options.issuer)}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    signedAssertion +
    `</samlp:Response>`;
  return sign === 'response' ? signElement(response, 'Response', options.keys) : response;
}

/** Signs the top element named `localName` (enveloped), the signature placed after its Issuer. */
function signElement(xml: string, localName: 'Assertion' | 'Response', keys: TestIdpKeys): string {
  const signer = new SignedXml({
    privateKey: keys.privateKey,
    publicCert: keys.certificate,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  const xpath = `/*[local-name(.)='${localName}']`;
  signer.addReference({
    xpath,
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
  });
  signer.computeSignature(xml, {
    location: { reference: `${xpath}/*[local-name(.)='Issuer']`, action: 'after' },
  });
  return signer.getSignedXml();
}

/** The form body an IdP's auto-submitting page posts to the ACS URL. */
export function postBody(responseXml: string, relayState?: string | null): string {
  const form = new URLSearchParams({ SAMLResponse: Buffer.from(responseXml, 'utf8').toString('base64') });
  if (relayState) form.set('RelayState', relayState);
  return form.toString();
}

/** Deflate + base64, as an HTTP-Redirect binding carries a message (for hand-made requests). */
export const deflateBase64 = (xml: string) => deflateRawSync(Buffer.from(xml, 'utf8')).toString('base64');
