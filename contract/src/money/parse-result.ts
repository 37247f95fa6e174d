/**
 * The outcome of parsing user or API input. Parsers return this instead of throwing so that validation can collect
 * one message per field (the server answers one 422 error per field) and the web app can show it beside the input.
 * Messages are sentence tails without the field name ("must be ..."), so callers can put the field in front.
 */
export type ParseResult<T> = { ok: true; value: T } | { ok: false; message: string };

export const parsed = <T>(value: T): ParseResult<T> => ({ ok: true, value });
export const rejected = <T = never>(message: string): ParseResult<T> => ({ ok: false, message });
