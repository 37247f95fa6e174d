import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Select, Table, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import type { PecanType, TransferRow } from '@pecan/contract';
import { PECAN_TYPES } from '@pecan/contract';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../lib/i18n/format';
import { str } from '../../../lib/portal/text';
import { useSession } from '../../../lib/session/use-session';
import { DrupalJsonApiParams, jsonApi } from '../../../lib/jsonapi/client';
import type { ApiEntity } from '../../../lib/portal/entities';
import { HandlerPicker } from '../../../components/handler-picker';
import { unitLabel } from '../../../components/field-text';
import { formKeys } from '../api/forms-api';
import { PoundsInput } from './inputs';

type Row = TransferRow & { key: number };

/** The names of the receivers the lines name, as the reader may see them (the directory's handlers and its own). */
function useReceiverNames(ids: string[]) {
  const unique = [...new Set(ids)].sort();
  return useQuery({
    queryKey: formKeys.receivers(unique),
    enabled: unique.length > 0,
    staleTime: 300_000,
    queryFn: async ({ signal }) => {
      const params = new DrupalJsonApiParams()
        .addFilter('id', unique, 'IN')
        .addFields('node--handler', ['title', 'field_handler_number'])
        .addPageLimit(200);
      const list = await jsonApi.getAll<ApiEntity<'node--handler'>>('/jsonapi/node/handler', params, signal);
      return new Map(list.map((h) => [h.id, `${str(h.title)} (${str(h.field_handler_number)})`]));
    },
  });
}

/**
 * Form 1's inter-handler shipments: one line per receiving handler and pecan type, inshell pounds. Their sum is the
 * month's "shipped to other handlers"; under a form 4 agreement naming the receiver responsible, the receiver's
 * invoice carries their assessment (986.162, 986.26).
 */
export function TransferTable({
  rows,
  onChange,
  readOnly,
  error,
  total,
}: {
  rows: TransferRow[];
  onChange: (rows: TransferRow[]) => void;
  readOnly?: boolean;
  error?: string;
  total: number | null;
}) {
  const { t, i18n } = useTranslation('filing');
  const ownHandler = useSession().profile.handlerUid;
  const named = useReceiverNames(rows.map((r) => r.receiving_handler).filter(Boolean));
  const names = named.data ?? new Map<string, string>();
  const data: Row[] = rows.map((r, key) => ({ ...r, key }));
  const update = (index: number, patch: Partial<TransferRow>) =>
    onChange(rows.map((r, i) => (i === index ? { ...r, ...patch } : r)));
  const typeLabel = (type: PecanType) => t(`forms.pecanType_${type}`);
  // A receiver the directory does not list (it left the directory) cannot be named here: the reader may not see it.
  const nameOf = (id: string) => names.get(id) ?? (named.data ? t('forms.transferUnlisted') : '');
  return (
    <div data-testid="transfer-lines">
      <Table<Row>
        size="small"
        rowKey="key"
        pagination={false}
        dataSource={data}
        scroll={{ x: 420 }}
        tableLayout="fixed"
        locale={{ emptyText: t('forms.noTransfers') }}
        columns={[
          {
            key: 'handler',
            title: t('forms.transferHandler'),
            render: (_, row) =>
              readOnly ? (
                nameOf(row.receiving_handler)
              ) : (
                <HandlerPicker
                  value={row.receiving_handler || undefined}
                  exclude={ownHandler}
                  valueLabel={row.receiving_handler ? nameOf(row.receiving_handler) : undefined}
                  ariaLabel={t('forms.transferHandlerOfRow', { n: row.key + 1 })}
                  onChange={(id) => update(row.key, { receiving_handler: id })}
                  placeholder={t('forms.transferHandler')}
                />
              ),
          },
          {
            key: 'type',
            width: '26%',
            title: t('forms.transferType'),
            render: (_, row) =>
              readOnly ? (
                typeLabel(row.pecan_type)
              ) : (
                <Select
                  aria-label={t('forms.transferTypeOfRow', { n: row.key + 1 })}
                  style={{ width: '100%' }}
                  value={row.pecan_type}
                  onChange={(v: PecanType) => update(row.key, { pecan_type: v })}
                  options={PECAN_TYPES.map((v) => ({ value: v, label: typeLabel(v) }))}
                />
              ),
          },
          {
            key: 'pounds',
            width: '28%',
            title: `${t('forms.pounds')} (${unitLabel(t, 'lb inshell')})`,
            align: 'end',
            render: (_, row) =>
              readOnly ? (
                formatNumber(row.pounds, i18n.language)
              ) : (
                <PoundsInput
                  ariaLabel={t('forms.transferPoundsOfRow', { n: row.key + 1 })}
                  value={row.pounds}
                  onChange={(v) => update(row.key, { pounds: v as number })}
                />
              ),
          },
          ...(readOnly
            ? []
            : [
                {
                  key: 'remove',
                  width: 48,
                  render: (_: unknown, row: Row) => (
                    <Button
                      type="text"
                      danger
                      icon={<DeleteOutlined />}
                      aria-label={t('forms.removeTransfer', { n: row.key + 1 })}
                      onClick={() => onChange(rows.filter((_, i) => i !== row.key))}
                    />
                  ),
                },
              ]),
        ]}
        summary={() => (
          <Table.Summary.Row>
            <Table.Summary.Cell index={0} colSpan={2}>
              <strong>{t('forms.transferTotal')}</strong>
            </Table.Summary.Cell>
            <Table.Summary.Cell index={2} align="end">
              <strong data-testid="transfer-total">{total === null ? '—' : formatNumber(total, i18n.language)}</strong>
            </Table.Summary.Cell>
            {readOnly ? null : <Table.Summary.Cell index={3} />}
          </Table.Summary.Row>
        )}
      />
      {readOnly ? null : (
        <Button
          icon={<PlusOutlined />}
          style={{ marginTop: 8 }}
          onClick={() => onChange([...rows, { receiving_handler: '', pecan_type: 'improved', pounds: 0 }])}
        >
          {t('forms.addTransfer')}
        </Button>
      )}
      {error ? (
        <Typography.Text type="danger" role="alert" style={{ display: 'block', marginTop: 4 }}>
          {error}
        </Typography.Text>
      ) : null}
    </div>
  );
}
