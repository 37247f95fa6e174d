import { describe, expect, it } from 'vitest';
import { auditQuery, invoicePaidBody, newUserBody, requestProblems, userEditBody } from './council-requests.js';

describe('council request schemas', () => {
  it('gives one problem per member, unknown members first, with the texts people read', () => {
    const input = { username: 'x'.repeat(61), first_name: '  ', email: null, role: 'boss', extra: 1 };
    expect(requestProblems(newUserBody, newUserBody.safeParse(input))).toEqual([
      {
        field: 'extra',
        detail:
          'extra is not a field of this request (expected: username, first_name, last_name, email, role, ' +
          'handler_number, password, job_title, phone).',
      },
      { field: 'username', detail: 'username must be at most 60 characters long.' },
      { field: 'first_name', detail: 'first_name cannot be empty.' },
      { field: 'email', detail: 'email cannot be empty.' },
      { field: 'role', detail: 'role is required: handler or staff.' },
    ]);
  });

  it('trims text and reads blank optional text as null', () => {
    expect(userEditBody.parse({ first_name: ' Ann ', last_name: '  ', phone: null })).toEqual({
      first_name: 'Ann',
      last_name: null,
      phone: null,
    });
    expect(invoicePaidBody.parse({ paid_date: '2026-11-20', reference: ' ' })).toEqual({
      paid_date: '2026-11-20',
      reference: null,
    });
  });

  it('names query parameters as parameters and turns audit bounds into the log timestamps', () => {
    const bad = auditQuery.safeParse({ from: 'yesterday', page: '0', bogus: 'x' });
    expect(requestProblems(auditQuery, bad, 'parameter').map((p) => p.detail)).toEqual([
      'bogus is not a parameter of this request (expected: handler, user, type, id, action, from, to, page).',
      'from must be a date (YYYY-MM-DD) or a timestamp (2026-11-22T14:03:00+00:00).',
      'page must be a whole number from 1.',
    ]);
    expect(auditQuery.parse({ from: '2026-11-01', to: '2026-11-02', page: '3' })).toEqual({
      from: '2026-11-01T00:00:00+00:00',
      to: '2026-11-02T23:59:59+00:00',
      page: 3,
    });
  });
});
