/**
 * Query parameters in Drupal's JSON:API syntax: the part of `drupal-jsonapi-params` the web app uses (filters with
 * operators and groups, includes, sparse fieldsets, sort, page limit), writing the same query string. That library
 * serializes with `qs`, which with its dependencies was about 18 KB gzip on every signed-in page; params.test.ts
 * checks the strings against the library's for each form of call.
 */
type FilterValue = string | number | boolean | (string | number)[] | null;
type Operator =
  | '='
  | '<>'
  | '>'
  | '>='
  | '<'
  | '<='
  | 'STARTS_WITH'
  | 'CONTAINS'
  | 'ENDS_WITH'
  | 'IN'
  | 'NOT IN'
  | 'BETWEEN'
  | 'NOT BETWEEN'
  | 'IS NULL'
  | 'IS NOT NULL';
type Node = string | number | boolean | null | undefined | Node[] | { [key: string]: Node };

export class DrupalJsonApiParams {
  private filter: Record<string, Node> = {};
  private include: string[] = [];
  private page: { limit?: number; offset?: number } | undefined;
  private sort: string[] = [];
  private fields: Record<string, string> = {};

  addFields(type: string, fields: string[]): this {
    this.fields[type] = fields.join(',');
    return this;
  }

  addSort(path: string, direction?: 'ASC' | 'DESC'): this {
    this.sort.push((direction === 'DESC' ? '-' : '') + path);
    return this;
  }

  addPageLimit(limit: number): this {
    this.page = { ...this.page, limit };
    return this;
  }

  addPageOffset(offset: number): this {
    this.page = { ...this.page, offset };
    return this;
  }

  addInclude(fields: string[]): this {
    this.include.push(...fields);
    return this;
  }

  addGroup(name: string, conjunction: 'AND' | 'OR' = 'OR', memberOf?: string): this {
    this.filter[name] = { group: memberOf === undefined ? { conjunction } : { conjunction, memberOf } };
    return this;
  }

  addFilter(path: string, value: FilterValue, operator: Operator = '=', memberOf?: string): this {
    // As the library: the path is the key unless taken, then the number of filters so far.
    const name = this.filter[path] === undefined ? path : String(Object.keys(this.filter).length);
    const member = memberOf === undefined ? {} : { memberOf };
    if (operator === 'IS NULL' || operator === 'IS NOT NULL') {
      this.filter[name] = { condition: { path, operator, ...member } };
    } else if (value === null) {
      throw new TypeError(`Value cannot be null for the operator "${operator}"`);
    } else if (Array.isArray(value)) {
      if (!['IN', 'NOT IN', 'BETWEEN', 'NOT BETWEEN'].includes(operator))
        throw new TypeError(`Value cannot be an array for the operator "${operator}"`);
      if (operator.endsWith('BETWEEN') && value.length !== 2)
        throw new TypeError(`Value must consists of 2 items for the "${operator}"`);
      this.filter[name] = { condition: { path, value, operator, ...member } };
    } else if (memberOf === undefined && name === path) {
      // The shortcut forms: filter[path]=value, or filter[path][value]=...&filter[path][operator]=...
      this.filter[name] = operator === '=' ? value : { value, operator };
    } else {
      this.filter[name] = { condition: { path, value, ...(operator !== '=' ? { operator } : {}), ...member } };
    }
    return this;
  }

  getQueryObject(): Record<string, Node> {
    const out: Record<string, Node> = { filter: this.filter };
    if (this.include.length > 0) out.include = this.include.join(',');
    if (this.page) out.page = this.page;
    if (this.sort.length > 0) out.sort = this.sort.join(',');
    out.fields = this.fields;
    return out;
  }

  /** `qs.stringify` with its defaults: bracketed keys, array indices, keys and values percent-encoded (RFC 3986). */
  getQueryString(): string {
    const parts: string[] = [];
    const walk = (key: string, node: Node) => {
      if (node === undefined) return;
      if (node === null) parts.push(`${encode(key)}=`);
      else if (Array.isArray(node)) node.forEach((item, i) => walk(`${key}[${i}]`, item));
      else if (typeof node === 'object') for (const [k, v] of Object.entries(node)) walk(`${key}[${k}]`, v);
      else parts.push(`${encode(key)}=${encode(String(node))}`);
    };
    for (const [k, v] of Object.entries(this.getQueryObject())) walk(k, v);
    return parts.join('&');
  }
}

function encode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
