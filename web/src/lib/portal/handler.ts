import { useQuery } from '@tanstack/react-query';
import { jsonApi } from '../jsonapi/client';
import { queryKeys } from '../query-keys';
import { handlerWithIncludesParams, userByNameParams } from './handler-params';
import { STORAGE_KEYS } from '../session/keys';
import { sessionStore } from '../session/session-store';
import type { ApiEntity } from './entities';

type Handler = ApiEntity<'node--handler'>;

/** The signed-in user's handler (seeded by the login sequence; its cached copy covers a reload). */
export function useHandler(handlerId: string | null) {
  return useQuery({
    // Deserialized JSON:API graphs have cycles: structural sharing would walk them without end.
    structuralSharing: false,
    queryKey: queryKeys.handler(handlerId ?? ''),
    queryFn: ({ signal }) =>
      jsonApi.getOne<Handler>(
        `/jsonapi/node/handler/${encodeURIComponent(handlerId!)}`,
        handlerWithIncludesParams(),
        signal,
      ),
    enabled: !!handlerId,
    initialData: () => {
      const cached = sessionStore.getJson<Handler>(STORAGE_KEYS.handlerProfile);
      return cached && cached.id === handlerId ? cached : undefined;
    },
    initialDataUpdatedAt: 0,
  });
}

/** The signed-in user's record (first and last name for the certifier). */
export function useMe(username: string | null) {
  return useQuery({
    // Deserialized JSON:API graphs have cycles: structural sharing would walk them without end.
    structuralSharing: false,
    queryKey: queryKeys.me,
    queryFn: async ({ signal }) => {
      const users = await jsonApi.getAll<ApiEntity<'user--user'>>(
        '/jsonapi/user/user',
        userByNameParams(username!),
        signal,
      );
      return users[0] ?? null;
    },
    enabled: !!username,
  });
}

export const NEW_FORM_CERTIFICATION_KEY = STORAGE_KEYS.newFormCertification;

export function rememberCertifiedForm(formId: string): void {
  try {
    localStorage.setItem(NEW_FORM_CERTIFICATION_KEY, formId);
  } catch {
    /* storage refused */
  }
}

export function justCertifiedForm(): string | null {
  try {
    return localStorage.getItem(NEW_FORM_CERTIFICATION_KEY);
  } catch {
    return null;
  }
}

export function forgetCertifiedForm(): void {
  try {
    localStorage.removeItem(NEW_FORM_CERTIFICATION_KEY);
  } catch {
    /* storage refused */
  }
}
