import type { AppContext, Viewer } from '../context.js';
import { decodeWrite, resourceData } from '../jsonapi/write.js';
import { allResources } from '../resources/index.js';
import { loadRow } from '../workflows/common.js';

/**
 * The demo data set is written the way the web app writes: a JSON:API document, decoded and validated as the
 * API decodes it, then the type's write handler. So every demo figure went through the same code as a filing.
 */
const byType = new Map(allResources.map((d) => [d.type, d]));

interface Document {
  attributes?: Record<string, unknown>;
  relationships?: Record<string, { data: { type: string; id: string } | null }>;
}

function defOf(type: string) {
  const def = byType.get(type);
  if (!def?.writes) throw new Error(`${type} is not writable`);
  return def;
}

export async function post(ctx: AppContext, viewer: Viewer, type: string, doc: Document): Promise<string> {
  const def = defOf(type);
  const data = resourceData({ data: { type, ...doc } }, def);
  const input = decodeWrite(data, def, ctx.dialect);
  return def.writes!.create!({ ctx, viewer, db: ctx.db, def }, input, undefined);
}

export async function patch(ctx: AppContext, viewer: Viewer, type: string, id: string, doc: Document): Promise<void> {
  const def = defOf(type);
  const data = resourceData({ data: { type, id, ...doc } }, def, id);
  const input = decodeWrite(data, def, ctx.dialect);
  const row = await loadRow(ctx.db, def.table, id);
  await def.writes!.update!({ ctx, viewer, db: ctx.db, def }, row, input);
}

export const link = (type: string, id: string) => ({ data: { type, id } });
