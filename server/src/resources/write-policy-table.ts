import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { FORM_FIELDS, type FormBundle } from '@pecan/contract';
import { WRITE_POLICY, type Party } from './write-policy.js';

/**
 * The write policy as the Markdown tables docs/SECURITY.md shows between its `write-policy` markers. A test fails
 * when the doc and the policy disagree; `npx tsx server/src/resources/write-policy-table.ts --write` rewrites them.
 */
const WHO: Record<Party, string> = {
  staff: 'staff',
  own: "its handler's users",
  self: 'the user',
  transferring: 'transferring handler',
  receiving: 'receiving handler',
  client: "its handler's API clients (scope write)",
};

function fieldList(type: string, fields: string[] | 'writable', except: string[]): string {
  if (fields === 'writable') return `every writable field${except.map((f) => ` but \`${f}\``).join('')}`;
  if (fields.length === 0) return '-';
  const bundle = type.replace('node--', '') as FormBundle;
  const entered = (FORM_FIELDS[bundle] ?? []).filter((f) => f.entry === 'entered').map((f) => `field_${f.name}`);
  const all = entered.length > 0 && entered.every((f) => fields.includes(f));
  const rest = fields.filter((f) => !all || !entered.includes(f)).map((f) => `\`${f}\``);
  return [...(all ? ['the entered form fields'] : []), ...rest].join(', ');
}

export function writePolicyTables(): string {
  const lines = ['| type | action | who | fields it takes | record must be |', '|---|---|---|---|---|'];
  for (const [type, policy] of Object.entries(WRITE_POLICY)) {
    for (const [action, rule] of Object.entries(policy.actions)) {
      if (!rule) continue;
      lines.push(
        `| ${type} | ${action} | ${rule.by.map((p) => WHO[p]).join(', ')} | ${fieldList(type, rule.fields, Object.keys(rule.except ?? {}))} | ${rule.while?.join(', ') ?? 'any'} |`,
      );
    }
  }
  lines.push('', '| type | fixed once created (422) | whose record a relationship may name |', '|---|---|---|');
  for (const [type, policy] of Object.entries(WRITE_POLICY)) {
    if (!policy.frozen?.length && Object.keys(policy.links ?? {}).length === 0) continue;
    const links =
      Object.entries(policy.links ?? {})
        .map(([f, rule]) => `\`${f}\`: ${rule}`)
        .join(', ') || '-';
    lines.push(`| ${type} | ${policy.frozen?.map((f) => `\`${f}\``).join(', ') || '-'} | ${links} |`);
  }
  return lines.join('\n');
}

export const DOC_PATH = fileURLToPath(new URL('../../../docs/SECURITY.md', import.meta.url));
const START = '<!-- write-policy:start (generated from server/src/resources/write-policy.ts) -->';
const END = '<!-- write-policy:end -->';

/** The tables as the doc holds them now (null when the markers are missing). */
export function documentedTables(doc: string): string | null {
  const from = doc.indexOf(START);
  const to = doc.indexOf(END);
  return from < 0 || to < from ? null : doc.slice(from + START.length, to).trim();
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv.includes('--write')) {
  const doc = readFileSync(DOC_PATH, 'utf8');
  const from = doc.indexOf(START);
  const to = doc.indexOf(END);
  if (from < 0 || to < from) throw new Error(`docs/SECURITY.md needs the markers ${START} and ${END}`);
  writeFileSync(DOC_PATH, `${doc.slice(0, from + START.length)}\n${writePolicyTables()}\n${doc.slice(to)}`);
}
