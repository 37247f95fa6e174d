import { Typography } from 'antd';
import type { TFunction } from 'i18next';
import { formatMoney, formatNumber } from '../../../lib/i18n/format';
import { attr } from '../../../lib/portal/entities';
import type { Invoice } from '../../../lib/portal/invoices';

/** An invoice's inter-handler line as the API gives it (`field_transfer_lines`). */
interface TransferLine {
  direction: 'assumed' | 'credited';
  counterparty_name: string;
  counterparty_number: string;
  pecan_type: 'improved' | 'native' | 'substandard';
  pounds: number;
  amount: string;
}

const linesOf = (inv: Invoice): TransferLine[] => {
  const lines = attr(inv, 'field_transfer_lines');
  return Array.isArray(lines) ? (lines as TransferLine[]) : [];
};

/**
 * The assessment a form 4 agreement moved onto or off the invoice, a line each: who the other handler is, the type,
 * the pounds and the amount (986.162, 986.26). Nothing when none moved.
 */
export function TransferLines({ inv, t, lang }: { inv: Invoice; t: TFunction; lang: string }) {
  const lines = linesOf(inv);
  if (lines.length === 0) return null;
  return (
    <ul style={{ margin: '4px 0 0', paddingInlineStart: 18 }} data-testid="invoice-transfer-lines">
      {lines.map((l, i) => (
        <li key={i}>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t(`invoices.transfer_${l.direction}`, { handler: `${l.counterparty_name} (${l.counterparty_number})` })}
            {': '}
            {t('invoices.transferFigures', {
              pounds: formatNumber(l.pounds, lang),
              type: t(`forms.pecanType_${l.pecan_type}`),
              amount: formatMoney(l.amount, lang),
            })}
          </Typography.Text>
        </li>
      ))}
    </ul>
  );
}
