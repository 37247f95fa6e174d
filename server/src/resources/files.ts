import { sql } from 'kysely';
import { attr, type AccessRules, type DocumentLinks, type ResourceDef, type Row } from '../jsonapi/resource.js';
import { staffOr } from './access.js';

/** A file is readable by whoever may read the node it belongs to. */
function ownedBy(owners: ResourceDef[]): AccessRules {
  return {
    read: (v, a) =>
      staffOr(
        v,
        () =>
          sql`(${sql.join(
            owners.map((o, i) => {
              const oa = `${a}_o${i}`;
              return sql`(${sql.ref(`${a}.owner_type`)} = ${o.type} and exists (select 1 from ${sql.table(o.table)} as ${sql.raw(oa)} where ${sql.ref(`${oa}.id`)} = ${sql.ref(`${a}.owner_id`)} and ${o.access.read(v, oa)}))`;
            }),
            sql` or `,
          )})`,
      ),
  };
}

export function fileResource(owners: ResourceDef[]): ResourceDef {
  return {
    type: 'file--file',
    entity: 'file',
    bundle: 'file',
    table: 'files',
    attributes: {
      filename: attr('filename', 'string', { nullable: false }),
      filemime: attr('filemime', 'string', { nullable: false }),
      filesize: attr('filesize', 'int', { nullable: false }),
      created: attr('created', 'datetime', { nullable: false }),
    },
    relationships: {},
    access: ownedBy(owners),
    hiddenColumns: ['content'],
    computedAttributes: ['uri'],
    computeAttributes: fileUri,
    defaultSort: 'created',
  };
}

/** `uri`: Drupal's shape, with a signed link that downloads without a token until it expires. */
export function fileUri(row: Row, { baseUrl, signLink }: DocumentLinks): Record<string, unknown> {
  const path = signLink(String(row.id), String(row.filename));
  return { uri: { value: `private://portal/${row.id}/${row.filename}`, url: `${baseUrl}${path}` } };
}
