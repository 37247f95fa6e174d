import { form1ContextMonths } from '@pecan/contract';
import { useQuery } from '@tanstack/react-query';
import { figuresByMonth, getCertifiedForm1, stocksByMonth } from '../api/form1-months';
import { formKeys } from '../api/forms-api';

/**
 * The current certified figures a form 1 of `month` reads (the season's earlier months and the previous month),
 * keyed by month, and their stocks (what "No change since last month" carries); undefined while loading. Under the
 * packages' key: a certification or an amendment refreshes it.
 */
export function useForm1Context(handlerId: string | null, month: string | null, enabled: boolean) {
  return useQuery({
    queryKey: formKeys.form1Context(handlerId ?? '', month ?? ''),
    queryFn: async ({ signal }) => {
      const months = await getCertifiedForm1(handlerId!, { in: form1ContextMonths(month!) }, signal);
      return { figures: figuresByMonth(months), stocks: stocksByMonth(months) };
    },
    enabled: enabled && !!handlerId && !!month,
    structuralSharing: false,
  });
}
