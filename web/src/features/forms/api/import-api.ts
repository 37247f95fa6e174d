import { authorizedFetch } from '../../../lib/http/authorized-fetch';
import { ApiError } from '../../../lib/http/errors';
import type { MonthlyBundle } from '../../../lib/portal/packages';

/** The server's import of a form from a spreadsheet (server/src/forms-import/routes.ts, docs/FORMS-IMPORT.md). */
export interface ImportCellError {
  row: number;
  column: string;
  field: string;
  code: string;
  params: Record<string, string | number>;
  detail: string;
}

export interface ImportFigure {
  field: string;
  unit?: string;
  kind: string;
  imported: unknown;
  current: unknown;
}

export interface ImportPreview {
  name: string;
  valid: boolean;
  errors: ImportCellError[];
  changed: string;
  status: string;
  fields: ImportFigure[];
  list: {
    target: string;
    columns: string[];
    imported: Array<Record<string, unknown>>;
    current: Array<Record<string, unknown>>;
  };
  totals: ImportFigure[];
  blocked?: { code: string; detail: string };
  applied?: boolean;
}

/** A refusal of the whole file: its code and parameters, as the server words them in `meta`. */
export interface ImportProblem {
  code: string;
  params: Record<string, string | number>;
  detail: string;
}

const base = (bundle: MonthlyBundle, formId: string) => `/api/forms/${bundle}/${encodeURIComponent(formId)}/import`;

export async function downloadTemplate(
  bundle: MonthlyBundle,
  formId: string,
  extension: 'xlsx' | 'csv',
): Promise<void> {
  const response = await authorizedFetch(`${base(bundle, formId)}/template.${extension}`);
  const disposition = response.headers.get('content-disposition') ?? '';
  const filename = /filename="([^"]+)"/.exec(disposition)?.[1] ?? `import.${extension}`;
  const url = URL.createObjectURL(await response.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

async function send(url: string, file: File): Promise<ImportPreview> {
  const response = await authorizedFetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/octet-stream' },
    body: file,
  });
  return ((await response.json()) as { data: ImportPreview }).data;
}

/** Checks the file: errors and preview; nothing is saved. */
export const previewImport = (bundle: MonthlyBundle, formId: string, file: File): Promise<ImportPreview> =>
  send(`${base(bundle, formId)}?name=${encodeURIComponent(file.name)}`, file);

/** Checks the same file again and saves it as the draft (the draft's `changed` seen in the preview guards it). */
export const applyImport = (
  bundle: MonthlyBundle,
  formId: string,
  file: File,
  changed: string,
): Promise<ImportPreview> =>
  send(
    `${base(bundle, formId)}/apply?name=${encodeURIComponent(file.name)}&changed=${encodeURIComponent(changed)}`,
    file,
  );

/** The file-level refusals and, for a refused Apply, the cell errors, read from an ApiError's body. */
export function importProblems(error: unknown): { problems: ImportProblem[]; cells: ImportCellError[] } {
  if (!(error instanceof ApiError)) return { problems: [], cells: [] };
  const errors =
    (error.body as { errors?: Array<{ detail?: string; meta?: Record<string, unknown> }> } | null)?.errors ?? [];
  const problems: ImportProblem[] = [];
  const cells: ImportCellError[] = [];
  for (const e of errors) {
    const meta = e.meta ?? {};
    if (typeof meta.row === 'number' && typeof meta.column === 'string') cells.push(meta as unknown as ImportCellError);
    else
      problems.push({
        code: String(meta.code ?? `http_${error.status}`),
        params: (meta.params as Record<string, string | number>) ?? {},
        detail: e.detail ?? error.message,
      });
  }
  return { problems, cells };
}
