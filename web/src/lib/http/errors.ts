/** One entry of a JSON:API `errors[]` array. */
export interface JsonApiErrorObject {
  status?: string;
  code?: string;
  title?: string;
  detail?: string;
  source?: { pointer?: string; parameter?: string };
}

/** A failed HTTP call: status, parsed JSON:API errors (if any) and the Retry-After wait in seconds (for 429). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly errors: JsonApiErrorObject[] = [],
    readonly retryAfterSeconds: number | null = null,
    readonly body: unknown = null,
  ) {
    super(errors[0]?.detail || errors[0]?.title || `message: ${status}`);
    this.name = 'ApiError';
  }
}

/** Parses a Retry-After header (seconds or an HTTP date) into seconds. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds));
  const date = Date.parse(value);
  if (Number.isFinite(date)) return Math.max(0, Math.ceil((date - now) / 1000));
  return null;
}

/** Reads an error response: JSON:API `errors[]`, or an OAuth `{error, error_description}` body. */
export async function toApiError(response: Response): Promise<ApiError> {
  let body: unknown = null;
  try {
    const text = await response.text();
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  let errors: JsonApiErrorObject[] = [];
  if (body && typeof body === 'object') {
    const b = body as { errors?: unknown; error?: unknown; error_description?: unknown };
    if (Array.isArray(b.errors)) errors = b.errors.filter((e): e is JsonApiErrorObject => !!e && typeof e === 'object');
    else if (typeof b.error === 'string')
      errors = [
        {
          status: String(response.status),
          code: b.error,
          detail: typeof b.error_description === 'string' ? b.error_description : undefined,
        },
      ];
  }
  return new ApiError(response.status, errors, parseRetryAfter(response.headers.get('Retry-After')), body);
}

/** Maps 422 errors with `source.pointer` to form field names: `/data/attributes/email` and `/email` give `email`. */
export function fieldErrors(error: ApiError): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const e of error.errors) {
    const pointer = e.source?.pointer;
    if (!pointer) continue;
    const field = pointer.split('/').filter(Boolean).pop();
    if (!field) continue;
    (out[field] ??= []).push(e.detail || e.title || 'Invalid value');
  }
  return out;
}

/**
 * Whether a call failed because the portal could not be reached: the browser's fetch rejects with a TypeError
 * ("Failed to fetch", "Load failed", "NetworkError ...") when it gets no answer at all, and a gateway in front of a
 * stopped server answers 502, 503 or 504. Nothing was written; the same call can be tried again later.
 */
export function isUnreachable(error: unknown): boolean {
  if (error instanceof ApiError) return error.status === 502 || error.status === 503 || error.status === 504;
  return error instanceof TypeError;
}
