import type { Entity } from '../jsonapi/deserialize';

/** Small readers for deserialized JSON:API entities. */
export const str = (e: Entity | null | undefined, key: string): string | null => {
  const v = e?.[key];
  return typeof v === 'string' ? v : null;
};
export const num = (e: Entity | null | undefined, key: string): number | null => {
  const v = e?.[key];
  return typeof v === 'number' ? v : null;
};
export const bool = (e: Entity | null | undefined, key: string): boolean => e?.[key] === true;
export const one = (e: Entity | null | undefined, key: string): Entity | null => {
  const v = e?.[key];
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Entity) : null;
};
export const many = (e: Entity | null | undefined, key: string): Entity[] => {
  const v = e?.[key];
  return Array.isArray(v) ? (v as Entity[]) : [];
};

/** The signed download link of a file--file (its uri.url), or null. */
export function fileUrl(file: Entity | null | undefined): string | null {
  const uri = file?.uri as { url?: unknown } | undefined;
  return uri && typeof uri.url === 'string' ? uri.url : null;
}
export function fileName(file: Entity | null | undefined): string | undefined {
  return str(file, 'filename') ?? undefined;
}

/** Today as YYYY-MM-DD in the user's own calendar. */
export function todayIso(now = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())}`;
}

/** An ISO timestamp in UTC written with +00:00 and no milliseconds. */
export function isoTimestamp(now = new Date()): string {
  return now.toISOString().replace(/\.\d{3}Z$/, '+00:00');
}
