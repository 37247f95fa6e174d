import { partialMatchKey } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { invoicesKey, openInvoicesKey } from './portal/invoices';
import { seasonPackagesKey } from './portal/packages';
import { directoryKeys } from './portal/directory-api';
import { awaitingCountersignatureKey } from './portal/transfers-awaiting';
import { confirmationKey, councilKeys, queryKeys } from './query-keys';

/** Whether invalidating `root` refreshes the query of `key` (TanStack's prefix match). */
const refreshes = (root: readonly unknown[], key: readonly unknown[]) => partialMatchKey(key, root);

describe('shared query keys', () => {
  it('keep the values the sign-in batch seeds the cache under', () => {
    expect(queryKeys.me).toEqual(['me']);
    expect(queryKeys.handler('h')).toEqual(['handler', 'h']);
    expect(queryKeys.seasons).toEqual(['seasons']);
    expect(seasonPackagesKey('h', 's')).toEqual(['forms-packages', 'h', 'season', 's']);
    expect(openInvoicesKey('h')).toEqual(['invoices', 'h', 'open']);
    expect(awaitingCountersignatureKey('h')).toEqual(['transfers', 'h', 'awaiting']);
    expect(confirmationKey('h', 's')).toEqual(['packet-confirmation', 'h', 's']);
  });

  it('a certification refreshes the packages, the next package and the invoices', () => {
    expect(refreshes(queryKeys.packages, seasonPackagesKey('h', 's'))).toBe(true);
    expect(refreshes(queryKeys.packages, queryKeys.nextPackage('h', '2026-01-20'))).toBe(true);
    expect(refreshes(queryKeys.invoices, invoicesKey('h'))).toBe(true);
    expect(refreshes(queryKeys.invoices, openInvoicesKey('h'))).toBe(true);
  });

  it('a transfer written refreshes the dashboard count; a profile saved, the contacts', () => {
    expect(refreshes(queryKeys.transfers, awaitingCountersignatureKey('h'))).toBe(true);
    expect(refreshes(queryKeys.contacts, directoryKeys.contacts('h'))).toBe(true);
    expect(refreshes(queryKeys.packetConfirmations, confirmationKey('h', 's'))).toBe(true);
  });

  it('a new current season refreshes every council read', () => {
    expect(refreshes(councilKeys.all, councilKeys.seasons)).toBe(true);
    expect(refreshes(councilKeys.all, councilKeys.calendar(undefined))).toBe(true);
    expect(councilKeys.calendar(undefined)).toEqual(['council', 'calendar', 'current']);
  });
});
