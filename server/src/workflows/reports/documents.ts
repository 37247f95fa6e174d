import type { Row } from '../../jsonapi/resource.js';
import { newId } from '../../lib/time.js';
import { insertNode, rowsDbOf, storeFile, updateRow, type Actor } from '../common.js';

export const PDF_MIME = 'application/pdf';
export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export interface StoredDocument {
  /** The report node's id. */
  id: string;
  fileId: string;
  /** Whether the node was created now (false: an earlier one was updated). */
  created: boolean;
}

/**
 * Creates or updates the one report node of its scope (`key`: its unique columns) and points it at a newly stored
 * file. Regenerating replaces the link only: earlier files stay stored, owned by the same node.
 */
export async function upsertDocumentNode(
  a: Actor,
  spec: {
    table: string;
    type: string;
    key: Row;
    values: Row;
    fileColumn: string;
    file: { filename: string; mime: string; content: Uint8Array };
  },
): Promise<StoredDocument> {
  let q = rowsDbOf(a).selectFrom(spec.table).selectAll();
  for (const [column, value] of Object.entries(spec.key)) q = q.where(column, '=', value as string);
  const existing = (await q.executeTakeFirst()) as Row | undefined;
  const id = existing ? String(existing.id) : newId();
  const fileId = await storeFile(a, { type: spec.type, id }, spec.file.filename, spec.file.mime, spec.file.content);
  if (existing) {
    await updateRow(a, spec.table, existing, { ...spec.values, [spec.fileColumn]: fileId });
    return { id, fileId, created: false };
  }
  await insertNode(a, spec.table, { ...spec.key, ...spec.values, [spec.fileColumn]: fileId }, id);
  return { id, fileId, created: true };
}
