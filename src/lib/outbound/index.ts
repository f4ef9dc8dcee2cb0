export { createOutboundClient, OutboundError, type OutboundClient, type OutboundOptions, type FetchOptions, type OutboundBytes, type OutboundStream, type OutboundErrorKind } from './client.ts';
export { refusalOf } from './addresses.ts';
export { redactUrl } from './redact.ts';
