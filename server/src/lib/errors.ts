// The errors the API answers on purpose, thrown anywhere on the server; plugins/errors.ts turns them (and
// Fastify's and the database's own) into JSON:API error documents.

/** One JSON:API error object. `source.pointer` names a body member, `source.parameter` a query parameter. */
export interface ErrorObject {
  status: string;
  title: string;
  detail?: string;
  source?: { pointer?: string; parameter?: string };
  meta?: Record<string, unknown>;
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  424: 'Failed Dependency',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** An error the API answers on purpose. Anything else thrown is a 500 with a request id and no stack trace. */
export class ApiError extends Error {
  readonly status: number;
  readonly errors: ErrorObject[];
  readonly headers: Record<string, string>;

  constructor(status: number, detail: string, extra: Partial<ErrorObject> = {}, headers: Record<string, string> = {}) {
    super(detail);
    this.status = status;
    this.errors = [{ status: String(status), title: TITLES[status] ?? 'Error', detail, ...extra }];
    this.headers = headers;
  }

  /** Several errors at once, e.g. one 422 per invalid field. */
  static many(status: number, errors: Array<Omit<ErrorObject, 'status' | 'title'> & { title?: string }>): ApiError {
    const e = new ApiError(status, errors[0]?.detail ?? TITLES[status] ?? 'Error');
    e.errors.splice(
      0,
      1,
      ...errors.map((x) => ({ status: String(status), title: x.title ?? TITLES[status] ?? 'Error', ...x })),
    );
    return e;
  }
}

export const badParameter = (parameter: string, detail: string) => new ApiError(400, detail, { source: { parameter } });
export const notFound = (detail = 'The requested resource does not exist.') => new ApiError(404, detail);
export const forbidden = (detail = 'You are not allowed to do this.') => new ApiError(403, detail);
export const conflict = (detail: string) => new ApiError(409, detail);
