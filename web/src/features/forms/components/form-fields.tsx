import { Checkbox, Col, Form, Row, theme, Typography } from 'antd';
import type { FieldDef, TransferRow, VarietyRow } from '@pecan/contract';
import { formatCents } from '@pecan/contract';
import { useTranslation } from 'react-i18next';
import { formatDate, formatMoney, formatNumber } from '../../../lib/i18n/format';
import { fieldLabel, unitLabel } from '../../../components/field-text';
import { DateInput, PoundsInput } from './inputs';
import { TransferTable } from './transfer-table';
import { VarietyTable } from './variety-table';

/** Sections of the form pages, in order; a field not listed goes to 'general'. */
const SECTION_OF: Record<string, string> = {
  receipts_by_variety: 'receipts',
  receipts_native: 'receipts',
  receipts_substandard: 'receipts',
  receipts_improved: 'receipts',
  receipts_total: 'receipts',
  receipts_ytd_improved: 'receipts',
  receipts_ytd_native: 'receipts',
  receipts_ytd_substandard: 'receipts',
  assessment_due: 'receipts',
  // 986.177(a)(6)-(7): each flow with its previous month and season to date, inshell and shelled never added.
  shipments_inshell: 'shipments',
  shipments_inshell_prev_month: 'shipments',
  shipments_inshell_ytd: 'shipments',
  shipments_shelled: 'shipments',
  shipments_shelled_prev_month: 'shipments',
  shipments_shelled_ytd: 'shipments',
  interhandler_shipments: 'transfers',
  interhandler_shipped: 'transfers',
  interhandler_shipped_prev_month: 'transfers',
  interhandler_shipped_ytd: 'transfers',
  interhandler_received: 'transfers',
  interhandler_received_prev_month: 'transfers',
  interhandler_received_ytd: 'transfers',
  inventory_inshell: 'inventory',
  inventory_shelled: 'inventory',
  committed_domestic: 'inventory',
  committed_domestic_shelled: 'inventory',
  committed_export: 'inventory',
  committed_export_shelled: 'inventory',
  under_contract_from_handlers: 'inventory',
  under_contract_shelled: 'inventory',
  mexico_ship_date: 'mexico',
  mexico_inshell_lb: 'mexico',
  mexico_return_date: 'mexico',
  mexico_shelled_lb: 'mexico',
  mexico_ytd_inshell_lb: 'mexico',
  mexico_ytd_shelled_lb: 'mexico',
  purchased_inshell_total: 'totals',
  purchased_shelled_total: 'totals',
  total_inshell_lb: 'totals',
  total_shelled_lb: 'totals',
  total_substandard_lb: 'totals',
  prior_inshell_lb: 'totals',
  prior_shelled_lb: 'totals',
  prior_substandard_lb: 'totals',
  ytd_inshell_lb: 'totals',
  ytd_shelled_lb: 'totals',
  ytd_substandard_lb: 'totals',
};
const SECTION_ORDER = ['general', 'receipts', 'shipments', 'transfers', 'inventory', 'mexico', 'totals'];

export interface FormFieldsProps {
  fields: FieldDef[];
  /** Entered values keyed by attribute (field_x). */
  values: Record<string, unknown>;
  /** Computed values keyed by field name, in stored units (money in cents). */
  computed: Record<string, number | null>;
  errors: Record<string, string>;
  onChange?: (attribute: string, value: unknown) => void;
  readOnly?: boolean;
  varieties?: string[];
  /** Sections that only appear with rows (forms 2 and 3 put the rows table between). */
  rowsSection?: React.ReactNode;
}

function ComputedValue({ def, value, id }: { def: FieldDef; value: number | null; id: string }) {
  const { t, i18n } = useTranslation('filing');
  const { token } = theme.useToken();
  const text =
    value === null
      ? '—'
      : def.kind === 'money'
        ? formatMoney(formatCents(value), i18n.language)
        : `${formatNumber(value, i18n.language)} ${unitLabel(t, def.unit) ?? ''}`;
  return (
    <output
      id={id}
      data-testid={`computed-${def.name}`}
      style={{
        display: 'block',
        padding: '5px 11px',
        minHeight: 32,
        boxSizing: 'border-box',
        background: token.colorFillTertiary,
        border: `1px dashed ${token.colorBorder}`,
        borderRadius: token.borderRadius,
        fontVariantNumeric: 'tabular-nums',
        fontWeight: 600,
      }}
    >
      {text}
    </output>
  );
}

export function FormFields({
  fields,
  values,
  computed,
  errors,
  onChange,
  readOnly,
  varieties = [],
  rowsSection,
}: FormFieldsProps) {
  const { t, i18n } = useTranslation('filing');
  const sections = SECTION_ORDER.map((key) => ({
    key,
    fields: fields.filter((f) => (SECTION_OF[f.name] ?? 'general') === key),
  })).filter((s) => s.fields.length > 0);

  const control = (def: FieldDef) => {
    const attr = `field_${def.name}`;
    const id = `f-${def.name}`;
    const error = errors[attr];
    const value = values[attr];
    if (def.entry === 'computed') return <ComputedValue def={def} value={computed[def.name] ?? null} id={id} />;
    switch (def.kind) {
      case 'pounds':
        return readOnly ? (
          <Typography.Text
            id={id}
          >{`${formatNumber(value as number, i18n.language)} ${unitLabel(t, def.unit) ?? ''}`}</Typography.Text>
        ) : (
          <PoundsInput
            id={id}
            value={value as number | null}
            onChange={(v) => onChange?.(attr, v)}
            unit={unitLabel(t, def.unit)}
            invalid={!!error}
          />
        );
      case 'date':
        return readOnly ? (
          <Typography.Text id={id}>{value ? formatDate(value as string, i18n.language) : '—'}</Typography.Text>
        ) : (
          <DateInput id={id} value={value as string | null} onChange={(v) => onChange?.(attr, v)} invalid={!!error} />
        );
      case 'bool':
        return (
          <Checkbox
            id={id}
            checked={value === true}
            disabled={readOnly}
            onChange={(e) => onChange?.(attr, e.target.checked)}
          >
            {t(`fieldHelp.${def.name}`, { defaultValue: fieldLabel(t, def.name) })}
          </Checkbox>
        );
      case 'varietyList':
        return (
          <VarietyTable
            rows={(value as VarietyRow[] | undefined) ?? []}
            onChange={(rows) => onChange?.(attr, rows)}
            varieties={varieties}
            readOnly={readOnly}
            error={error}
            improvedTotal={computed.receipts_improved ?? null}
          />
        );
      case 'transferList':
        return (
          <TransferTable
            rows={(value as TransferRow[] | undefined) ?? []}
            onChange={(rows) => onChange?.(attr, rows)}
            readOnly={readOnly}
            error={error}
            total={computed.interhandler_shipped ?? null}
          />
        );
      default:
        return <Typography.Text id={id}>{String(value ?? '')}</Typography.Text>;
    }
  };

  return (
    <Form layout="vertical" component="div" requiredMark={false}>
      {sections.map((section) => (
        <section key={section.key} aria-labelledby={`sec-${section.key}`} style={{ marginBottom: 8 }}>
          <Typography.Title level={2} id={`sec-${section.key}`} style={{ fontSize: 18, marginTop: 8 }}>
            {t(`sections.${section.key}`)}
          </Typography.Title>
          <Row gutter={[16, 0]}>
            {section.fields.map((def) => {
              const wide = def.kind === 'varietyList' || def.kind === 'transferList';
              const attr = `field_${def.name}`;
              const error = errors[attr];
              return (
                <Col key={def.name} xs={24} md={wide ? 24 : 12} xl={wide ? 24 : 8}>
                  <Form.Item
                    label={
                      def.kind === 'bool' ? undefined : (
                        <span>
                          {fieldLabel(t, def.name)}
                          {def.entry === 'computed' ? (
                            <Typography.Text type="secondary"> ({t('forms.computed')})</Typography.Text>
                          ) : null}
                        </span>
                      )
                    }
                    htmlFor={wide ? undefined : `f-${def.name}`}
                    validateStatus={error && !wide ? 'error' : undefined}
                    help={error && !wide ? <span role="alert">{error}</span> : undefined}
                  >
                    {control(def)}
                  </Form.Item>
                </Col>
              );
            })}
          </Row>
          {section.key === 'general' ? rowsSection : null}
        </section>
      ))}
    </Form>
  );
}
