import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ApiError } from '../lib/errors.js';

/**
 * Plain JSON bodies of the account endpoints, checked field by field; 422 errors point at `/data/attributes/<field>`.
 */
export type Body = Record<string, unknown>;

export interface FieldProblem {
  field: string;
  detail: string;
}

export const pointer = (field: string): string => `/data/attributes/${field}`;

export function invalid(problems: FieldProblem[]): ApiError {
  return ApiError.many(
    422,
    problems.map((p) => ({ detail: p.detail, source: { pointer: pointer(p.field) } })),
  );
}

/** The JSON object body, or 400. An absent body counts as `{}` when `optional`. */
export function jsonBody(request: FastifyRequest, optional = false): Body {
  const body = request.body;
  if ((body === undefined || body === null) && optional) return {};
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError(400, 'The request body must be a JSON object (Content-Type: application/json).');
  }
  return body as Body;
}

/** A required string field, trimmed; records a problem and answers null when missing or not text. */
export function requiredText(
  body: Body,
  field: string,
  label: string,
  problems: FieldProblem[],
  max: number,
): string | null {
  const value = body[field];
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
    problems.push({ field, detail: `${label} is required.` });
    return null;
  }
  if (typeof value !== 'string') {
    problems.push({ field, detail: `${label} must be text.` });
    return null;
  }
  if (value.length > max) {
    problems.push({ field, detail: `${label} must be at most ${max} characters long.` });
    return null;
  }
  return value.trim();
}

const EMAIL = z.email();
export const MAX_EMAIL_LENGTH = 254;

/** A required e-mail address, trimmed. */
export function emailField(body: Body, problems: FieldProblem[], field = 'email'): string | null {
  const value = requiredText(body, field, 'The e-mail address', problems, MAX_EMAIL_LENGTH);
  if (value === null) return null;
  if (!EMAIL.safeParse(value).success) {
    problems.push({ field, detail: 'Enter a valid e-mail address, such as name@example.com.' });
    return null;
  }
  return value;
}

/** 429 with Retry-After. */
export const tooMany = (detail: string, retryAfter: number): ApiError =>
  new ApiError(429, `${detail} Try again in ${retryAfter} seconds.`, {}, { 'Retry-After': String(retryAfter) });

export const baseUrl = (publicUrl: string): string => publicUrl.replace(/\/+$/, '');
