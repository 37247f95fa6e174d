import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { AutoComplete, Button, Table, Typography } from 'antd';
import type { VarietyRow } from '@pecan/contract';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../lib/i18n/format';
import { PoundsInput } from './inputs';
import { unitLabel } from '../../../components/field-text';
import { keepTypedOnEscape } from '../../../components/keep-typed-on-escape';

type Row = { key: number; variety: string; pounds: number | null };

/** Form 1's receipts by variety: a variety from the list (or a name typed in) and its pounds, one row each. */
export function VarietyTable({
  rows,
  onChange,
  varieties,
  readOnly,
  error,
  improvedTotal,
}: {
  rows: VarietyRow[];
  onChange: (rows: VarietyRow[]) => void;
  varieties: string[];
  readOnly?: boolean;
  error?: string;
  improvedTotal: number | null;
}) {
  const { t, i18n } = useTranslation('filing');
  const data: Row[] = rows.map((r, key) => ({ key, variety: r.variety, pounds: r.pounds as number | null }));
  const update = (index: number, patch: Partial<VarietyRow>) =>
    onChange(rows.map((r, i) => (i === index ? ({ ...r, ...patch } as VarietyRow) : r)));
  const used = new Set(rows.map((r) => r.variety.trim().toLowerCase()));
  return (
    <div>
      <Table<Row>
        size="small"
        rowKey="key"
        pagination={false}
        dataSource={data}
        // 300 px, laid out by the columns' widths rather than the inputs' own: a phone's card holds the three columns
        // side by side (at 420 the pounds and the remove button were scrolled out of sight on a 390 px screen); the
        // variety takes what a wider screen adds.
        scroll={{ x: 300 }}
        tableLayout="fixed"
        locale={{ emptyText: t('forms.noVarieties') }}
        columns={[
          {
            key: 'variety',
            title: t('forms.variety'),
            render: (_, row) =>
              readOnly ? (
                row.variety
              ) : (
                <AutoComplete
                  onKeyDown={keepTypedOnEscape}
                  aria-label={t('forms.varietyOfRow', { n: row.key + 1 })}
                  value={row.variety}
                  style={{ width: '100%' }}
                  options={varieties
                    .filter((v) => v === row.variety || !used.has(v.toLowerCase()))
                    .map((v) => ({ value: v }))}
                  filterOption={(input, option) =>
                    String(option?.value ?? '')
                      .toLowerCase()
                      .includes(input.toLowerCase())
                  }
                  onChange={(v) => update(row.key, { variety: String(v ?? '') })}
                  placeholder={t('forms.varietyPlaceholder')}
                  status={error && !row.variety.trim() ? 'error' : undefined}
                />
              ),
          },
          {
            key: 'pounds',
            width: '40%',
            title: `${t('forms.pounds')} (${unitLabel(t, 'lb inshell')})`,
            align: 'end',
            render: (_, row) =>
              readOnly ? (
                formatNumber(row.pounds, i18n.language)
              ) : (
                <PoundsInput
                  ariaLabel={t('forms.poundsOfRow', { n: row.key + 1 })}
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
                      aria-label={t('forms.removeVariety', { n: row.key + 1 })}
                      onClick={() => onChange(rows.filter((_, i) => i !== row.key))}
                    />
                  ),
                },
              ]),
        ]}
        summary={() => (
          <Table.Summary.Row>
            <Table.Summary.Cell index={0}>
              <strong>{t('forms.improvedTotal')}</strong>
            </Table.Summary.Cell>
            <Table.Summary.Cell index={1} align="end">
              <strong data-testid="variety-total">
                {improvedTotal === null ? '—' : formatNumber(improvedTotal, i18n.language)}
              </strong>
            </Table.Summary.Cell>
            {readOnly ? null : <Table.Summary.Cell index={2} />}
          </Table.Summary.Row>
        )}
      />
      {readOnly ? null : (
        <Button
          icon={<PlusOutlined />}
          style={{ marginTop: 8 }}
          onClick={() => onChange([...rows, { variety: '', pounds: 0 }])}
        >
          {t('forms.addVariety')}
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
