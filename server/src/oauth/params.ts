import type { FastifyRequest } from 'fastify';
import { invalidRequest, OAuthError } from './errors.js';

/** The form fields of an OAuth request. Each appears at most once (RFC 6749 §3.2); an empty value counts as absent. */
export type Params = (name: string) => string | undefined;

const MAX_PARAM_LENGTH = 4096;

export function formParams(request: FastifyRequest): Params {
  const body = request.body;
  if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
    throw invalidRequest('Send the parameters form-encoded (application/x-www-form-urlencoded).');
  }
  const fields = (body ?? {}) as Record<string, unknown>;
  return (name) => {
    const value = Object.hasOwn(fields, name) ? fields[name] : undefined;
    if (value === undefined || value === '') return undefined;
    if (typeof value !== 'string') throw invalidRequest(`The parameter ${name} must be given once, as text.`);
    if (value.length > MAX_PARAM_LENGTH) throw invalidRequest(`The parameter ${name} is too long.`);
    return value;
  };
}

export function required(params: Params, name: string): string {
  const value = params(name);
  if (value === undefined) throw invalidRequest(`The parameter ${name} is required.`);
  return value;
}

export interface ClientCredentials {
  clientId: string;
  secret: string | undefined;
  /** Sent with HTTP Basic: a failure must then answer with `WWW-Authenticate: Basic` (RFC 6749 §5.2). */
  viaBasic: boolean;
}

/** HTTP Basic client credentials (RFC 6749 §2.3.1), or null when the header is not Basic. */
function basicCredentials(request: FastifyRequest): ClientCredentials | null {
  const match = /^Basic +([A-Za-z0-9+/]+=*) *$/i.exec(request.headers.authorization ?? '');
  if (!match) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 1)
    throw new OAuthError(401, 'invalid_client', 'Client authentication failed.', { 'WWW-Authenticate': 'Basic' });
  // The parts are form-encoded before base64 (RFC 6749 §2.3.1).
  const part = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
  try {
    return {
      clientId: part(decoded.slice(0, colon)),
      secret: part(decoded.slice(colon + 1)) || undefined,
      viaBasic: true,
    };
  } catch {
    throw new OAuthError(401, 'invalid_client', 'Client authentication failed.', { 'WWW-Authenticate': 'Basic' });
  }
}

/** The client's credentials, from the form or from HTTP Basic, but not both (RFC 6749 §2.3). */
export function clientCredentials(request: FastifyRequest, params: Params): ClientCredentials {
  const basic = basicCredentials(request);
  const formId = params('client_id');
  const formSecret = params('client_secret');
  if (basic) {
    if (formSecret !== undefined || (formId !== undefined && formId !== basic.clientId)) {
      throw invalidRequest('Send the client credentials either in the Authorization header or in the form, not both.');
    }
    return basic;
  }
  return { clientId: required(params, 'client_id'), secret: formSecret, viaBasic: false };
}
