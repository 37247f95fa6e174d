import { useQuery } from '@tanstack/react-query';
import { DrupalJsonApiParams, jsonApi } from '../../../lib/jsonapi/client';
import { ApiError } from '../../../lib/http/errors';
import type { MonthlyBundle } from '../../../lib/portal/packages';
import { formKeys } from '../api/forms-api';

const BUNDLES: MonthlyBundle[] = ['apc_form_1', 'apc_form_2', 'apc_form_3'];

/** Which of forms 1, 2, 3 an id belongs to (the certification routes carry the id only). */
export function useFormBundle(formId: string | undefined) {
  return useQuery({
    // Deserialized JSON:API graphs have cycles: structural sharing would walk them without end.
    structuralSharing: false,
    queryKey: formKeys.bundleOf(formId ?? ''),
    enabled: !!formId,
    staleTime: Infinity,
    queryFn: async ({ signal }) => {
      let last: unknown = new ApiError(404);
      for (const bundle of BUNDLES) {
        try {
          await jsonApi.request(`/jsonapi/node/${bundle}/${encodeURIComponent(formId!)}`, {
            params: new DrupalJsonApiParams().addFields(`node--${bundle}`, ['title']),
            signal,
          });
          return bundle;
        } catch (error) {
          last = error;
          if (!(error instanceof ApiError) || (error.status !== 404 && error.status !== 403)) throw error;
        }
      }
      throw last;
    },
  });
}
