import { isStaff, type Viewer } from '../context.js';
import type { ResourceDef, Row, WriteContext, WriteHandlers, WriteInput } from '../jsonapi/resource.js';
import { ApiError, conflict, forbidden } from '../lib/errors.js';
import {
  PERSON_ONLY_FIELDS,
  WRITE_POLICY,
  type Action,
  type ActionRule,
  type Party,
  type State,
  type TypeWritePolicy,
} from './write-policy.js';

/**
 * The engine of write-policy.ts: every write handler of a type is wrapped so the policy is checked first, inside
 * the write's transaction and before anything is written. It is generic: it knows parties, fields, links and states,
 * nothing of a particular type. The order of its answers: 405 (no such action), 403 (not a party, or a link to
 * another handler's record), 422 (a field the action does not take, or a frozen one changed), 409 (wrong state).
 */
export function policyOf(type: string): TypeWritePolicy {
  const policy = WRITE_POLICY[type];
  if (!policy) throw new Error(`${type} has writes but no entry in resources/write-policy.ts`);
  return policy;
}

/** How the viewer stands to a record under the type's ownership. */
export function partiesOf(viewer: Viewer, policy: TypeWritePolicy, row: Row): Set<Party> {
  if (isStaff(viewer)) return new Set(['staff']);
  const out = new Set<Party>();
  const h = viewer.handlerId;
  // An API client is a party of its handler's records as `client`, nothing else (write-policy.ts).
  if (viewer.client) {
    if (viewer.client.write && h && policy.owner === 'handler' && row.handler_id === h) out.add('client');
    return out;
  }
  switch (policy.owner) {
    case 'handler':
      if (h && row.handler_id === h) out.add('own');
      break;
    case 'handler itself':
      if (h && row.id === h) out.add('own');
      break;
    case 'user':
      if (row.id === viewer.userId) out.add('self');
      break;
    case 'parties':
      if (h && row.transferring_handler_id === h) out.add('transferring');
      if (h && row.receiving_handler_id === h) out.add('receiving');
      break;
    case 'none':
      break;
  }
  return out;
}

const pointerOf = (def: ResourceDef, field: string) =>
  def.relationships[field] ? `/data/relationships/${field}` : `/data/attributes/${field}`;
const invalid = (def: ResourceDef, errors: Array<{ field: string; detail: string }>) =>
  ApiError.many(
    422,
    errors.map((e) => ({ detail: e.detail, source: { pointer: pointerOf(def, e.field) } })),
  );

function ruleOf(def: ResourceDef, policy: TypeWritePolicy, action: Action): ActionRule {
  const rule = policy.actions[action];
  if (!rule) throw new ApiError(405, `${def.type} cannot be changed that way (${action}).`, {}, { allow: 'GET' });
  return rule;
}

/** The fields a request names: its attributes and its to-one relationships. */
const namedFields = (input: WriteInput) => [...Object.keys(input.attributes), ...Object.keys(input.relationships)];

function accepts(def: ResourceDef, rule: ActionRule, field: string): boolean {
  if (rule.except?.[field]) return false;
  if (rule.fields !== 'writable') return rule.fields.includes(field);
  const a = def.attributes[field];
  const r = def.relationships[field];
  return Boolean(a?.writable || (r?.kind === 'one' && r.writable));
}

/** A field the action does not take is a 422; a frozen one only when the request names a different value. */
function checkFields(
  def: ResourceDef,
  policy: TypeWritePolicy,
  action: Action,
  rule: ActionRule,
  input: WriteInput,
  row: Row | null,
): void {
  const errors: Array<{ field: string; detail: string }> = [];
  for (const field of namedFields(input)) {
    if (accepts(def, rule, field)) continue;
    if (row && policy.frozen?.includes(field)) {
      const rel = def.relationships[field];
      const column = rel?.kind === 'one' ? rel.column : def.attributes[field]?.column;
      if (column && (input.values[column] ?? null) === (row[column] ?? null)) continue;
      errors.push({ field, detail: `${field} is fixed once the ${def.bundle} exists and cannot change.` });
      continue;
    }
    const elsewhere = rule.except?.[field];
    if (elsewhere) {
      errors.push({ field, detail: elsewhere });
      continue;
    }
    errors.push({
      field,
      detail: `${field} cannot be set when you ${action.startsWith('add to') ? 'add to it' : action} this ${def.bundle}.`,
    });
  }
  if (errors.length > 0) throw invalid(def, errors);
}

function checkParty(w: WriteContext, policy: TypeWritePolicy, action: Action, rule: ActionRule, row: Row): void {
  const parties = partiesOf(w.viewer, policy, row);
  if (rule.by.some((p) => parties.has(p))) return;
  if (parties.has('client')) {
    throw forbidden(
      `An API client cannot ${action} this ${w.def.bundle}: ${action === 'certify' ? "certification is a person's act" : 'a person does that'}.`,
    );
  }
  throw forbidden(`You are not allowed to ${action} this ${w.def.bundle}.`);
}

/** A create's own side: a handler user must be a party the rule names (the links decide whose record it is). */
function checkCreator(w: WriteContext, action: Action, rule: ActionRule): void {
  if (isStaff(w.viewer)) return;
  if (w.viewer.client) {
    if (!rule.by.includes('client'))
      throw forbidden(`An API client cannot ${action} ${w.def.bundle} records: a person does that.`);
    return;
  }
  if (!w.viewer.handlerId || !rule.by.some((p) => p !== 'staff'))
    throw forbidden(`Only council staff can ${action} ${w.def.bundle} records.`);
}

/**
 * Each to-one relationship the request names must point at a record the writer may link to. A record that does not
 * exist is left to the workflow, which answers 422 naming the field.
 */
async function checkLinks(
  w: WriteContext,
  policy: TypeWritePolicy,
  input: WriteInput,
  tables: Map<string, string>,
): Promise<void> {
  if (isStaff(w.viewer)) return;
  for (const [field, link] of Object.entries(input.relationships)) {
    const rule = policy.links?.[field];
    if (!link || rule === 'reference') continue;
    if (rule === undefined) throw forbidden(`Only council staff can set ${field}.`);
    const table = tables.get(link.type);
    if (!table) continue;
    const target = (await w.db.selectFrom(table).selectAll().where('id', '=', link.id).executeTakeFirst()) as
      Row | undefined;
    if (!target) continue;
    if (rule === 'any handler') continue;
    const owner = link.type === 'node--handler' ? target.id : target.handler_id;
    if (owner !== w.viewer.handlerId) throw forbidden(`${field} must name a record of your own company.`);
  }
}

async function checkState(w: WriteContext, states: State[] | undefined, row: Row): Promise<void> {
  for (const state of states ?? []) {
    if (state === 'draft' && row.form_status !== 'draft')
      throw conflict(`This ${w.def.bundle} is ${String(row.form_status)} and can no longer change: amend it instead.`);
    if (state === 'certified' && row.form_status !== 'certified')
      throw conflict(`This ${w.def.bundle} is not certified yet.`);
    if (state === 'active' && row.form_activity !== 'active')
      throw conflict(`This ${w.def.bundle} was cancelled and can no longer change.`);
    if (state === 'form is a draft') {
      const rel = w.def.relationships.field_form;
      const table = rel?.kind === 'one' ? rel.target.replace('node--', '') : '';
      const form = await w.db
        .selectFrom(table)
        .select('form_status')
        .where('id', '=', row.form_id as string)
        .executeTakeFirst();
      if (form && form.form_status !== 'draft')
        throw conflict(
          `This ${w.def.bundle} belongs to a form that is ${String(form.form_status)}: amend the form instead.`,
        );
    }
  }
}

/** An API client's scope must include write: checked first, so a read-only client learns nothing more. */
function checkClient(w: WriteContext): void {
  if (w.viewer.client && !w.viewer.client.write)
    throw forbidden('This API client may only read (its scope is "read").');
}

function checkPersonOnly(w: WriteContext, input: WriteInput): void {
  if (!w.viewer.client) return;
  const named = namedFields(input).filter((f) => PERSON_ONLY_FIELDS.includes(f));
  if (named.length > 0) {
    throw invalid(
      w.def,
      named.map((field) => ({
        field,
        detail: `An API client cannot set ${field}: certification is a person's act. Save the draft; a person certifies it in the portal.`,
      })),
    );
  }
}

export async function authorizeCreate(w: WriteContext, input: WriteInput, tables: Map<string, string>): Promise<void> {
  checkClient(w);
  const policy = policyOf(w.def.type);
  const action = policy.createAction?.(input) ?? 'create';
  const rule = ruleOf(w.def, policy, action);
  checkCreator(w, action, rule);
  checkPersonOnly(w, input);
  await checkLinks(w, policy, input, tables);
  checkFields(w.def, policy, action, rule, input, null);
}

export async function authorizeUpdate(
  w: WriteContext,
  row: Row,
  input: WriteInput,
  tables: Map<string, string>,
): Promise<void> {
  checkClient(w);
  const policy = policyOf(w.def.type);
  const action = policy.updateAction?.(input) ?? 'update';
  const rule = ruleOf(w.def, policy, action);
  checkParty(w, policy, action, rule, row);
  checkPersonOnly(w, input);
  const unfrozen = {
    ...input,
    relationships: Object.fromEntries(Object.entries(input.relationships).filter(([f]) => !policy.frozen?.includes(f))),
  };
  await checkLinks(w, policy, unfrozen, tables);
  checkFields(w.def, policy, action, rule, input, row);
  await checkState(w, rule.while, row);
}

export async function authorizeDelete(w: WriteContext, row: Row): Promise<void> {
  checkClient(w);
  const policy = policyOf(w.def.type);
  const rule = ruleOf(w.def, policy, 'delete');
  checkParty(w, policy, 'delete', rule, row);
  await checkState(w, rule.while, row);
}

export async function authorizeAdd(w: WriteContext, row: Row, field: string): Promise<void> {
  checkClient(w);
  const policy = policyOf(w.def.type);
  const action: Action = `add to ${field}`;
  const rule = ruleOf(w.def, policy, action);
  checkParty(w, policy, action, rule, row);
  await checkState(w, rule.while, row);
}

/** The HTTP method of each policy action, to check that the policy and the write handlers agree. */
const methodOf = (action: string): keyof WriteHandlers =>
  action === 'create' || action === 'amend'
    ? 'create'
    : action === 'delete'
      ? 'delete'
      : action.startsWith('add to')
        ? 'addToRelationship'
        : 'update';

/**
 * The type's write handlers behind the policy. A handler without an action in the policy, or an action without its
 * handler, stops the server at start-up: the policy is the whole truth of who may write what.
 */
export function guardedWrites(def: ResourceDef, handlers: WriteHandlers, tables: Map<string, string>): WriteHandlers {
  const policy = policyOf(def.type);
  const methods = new Set(Object.keys(policy.actions).map(methodOf));
  for (const m of Object.keys(handlers) as Array<keyof WriteHandlers>)
    if (!methods.has(m)) throw new Error(`${def.type}: write handler ${m} has no action in write-policy.ts`);
  for (const m of methods)
    if (!handlers[m]) throw new Error(`${def.type}: write-policy.ts allows ${m} but the type has no handler for it`);
  const { create, update, delete: remove, addToRelationship } = handlers;
  return {
    ...(create && {
      create: async (w, input, id) => {
        await authorizeCreate(w, input, tables);
        return create(w, input, id);
      },
    }),
    ...(update && {
      update: async (w, row, input) => {
        await authorizeUpdate(w, row, input, tables);
        return update(w, row, input);
      },
    }),
    ...(remove && {
      delete: async (w, row) => {
        await authorizeDelete(w, row);
        return remove(w, row);
      },
    }),
    ...(addToRelationship && {
      addToRelationship: async (w, row, field, ids) => {
        await authorizeAdd(w, row, field);
        return addToRelationship(w, row, field, ids);
      },
    }),
  };
}
