import { describe, expect, it } from 'vitest';
import { OAUTH_TOKEN_KEY } from './keys';
import { MemoryStorage } from './memory-storage';
import { SessionStore } from './session-store';
import { toStoredToken } from './token-rules';

const token = toStoredToken({ token_type: 'Bearer', access_token: 'a', expires_in: 300, refresh_token: 'r' }, 1_000);

describe('session store', () => {
  it("keeps the token in localStorage only with 'Remember me'", () => {
    const local = new MemoryStorage();
    const session = new MemoryStorage();
    const store = new SessionStore(local, session);
    store.setToken(token, true);
    expect(local.getItem(OAUTH_TOKEN_KEY)).not.toBeNull();
    expect(local.getItem('id_token')).toBe('a');
    expect(session.getItem(OAUTH_TOKEN_KEY)).toBeNull();
    store.setToken(token, false);
    expect(local.getItem(OAUTH_TOKEN_KEY)).toBeNull();
    expect(session.getItem(OAUTH_TOKEN_KEY)).not.toBeNull();
    expect(store.isRemembered()).toBe(false);
  });

  it('writes the profile under the spec keys and clears them all on logout', () => {
    const local = new MemoryStorage();
    const store = new SessionStore(local, new MemoryStorage());
    store.setToken(token, true);
    store.setProfile({
      username: 'alice',
      userUid: 'u1',
      userFirstName: 'Alice',
      handlerUid: 'h1',
      handlerName: 'Riverbend',
      handlerNumber: '101',
      handlerStatus: 'active',
      roles: ['handler'],
    });
    expect(local.getItem('username')).toBe('alice');
    expect(local.getItem('user_firstname')).toBe('Alice');
    expect(local.getItem('handler_number')).toBe('101');
    expect(store.getSnapshot().profile.handlerName).toBe('Riverbend');
    store.clear();
    expect(local.length).toBe(0);
    expect(store.getSnapshot().token).toBeNull();
  });

  it('writes a resource graph with cycles (a handler and its confirmations) with each resource once', () => {
    const local = new MemoryStorage();
    const store = new SessionStore(local, new MemoryStorage());
    store.setToken(token, true);
    const handler: Record<string, unknown> = { id: 'h1', type: 'node--handler', title: 'Riverbend' };
    const confirmation = { id: 'c1', type: 'node--handler_packet_confirmation', field_handler: handler };
    handler.field_handler_packet_confirms = [confirmation];
    store.setItem('handler_profile', handler);
    expect(JSON.parse(local.getItem('handler_profile')!)).toEqual({
      id: 'h1',
      type: 'node--handler',
      title: 'Riverbend',
      field_handler_packet_confirms: [
        { id: 'c1', type: 'node--handler_packet_confirmation', field_handler: { type: 'node--handler', id: 'h1' } },
      ],
    });
  });

  it('clears an invalid stored token', () => {
    const local = new MemoryStorage();
    local.setItem(OAUTH_TOKEN_KEY, '{"broken":');
    local.setItem('username', 'mallory');
    const store = new SessionStore(local, new MemoryStorage());
    expect(store.getToken()).toBeNull();
    expect(local.getItem(OAUTH_TOKEN_KEY)).toBeNull();
    expect(local.getItem('username')).toBeNull();
  });
});
