import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { AutoComplete, Alert, Button, Col, Form, Modal, Popconfirm, Row, Select, Space, Table, Typography } from 'antd';
import {
  countryName,
  duplicateCountryRows,
  countryOptions,
  FORM_FIELDS,
  validateFormAttributes,
  type CountryLanguage,
  type FieldDef,
} from '@pecan/contract';
import { useMutation } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, fieldErrors } from '../../../lib/http/errors';
import { formatDate, formatNumber } from '../../../lib/i18n/format';
import { attr } from '../../../lib/portal/entities';
import type { MonthlyBundle } from '../../../lib/portal/packages';
import { createRow, deleteRow, updateRow, type RowBundle } from '../api/forms-api';
import type { FormRow } from '../api/form-model';
import { fieldErrorText, fieldLabel, unitLabel } from '../../../components/field-text';
import { DateInput, PoundsInput } from './inputs';
import { errorText } from '../../../components/query-state';
import { keepTypedOnEscape } from '../../../components/keep-typed-on-escape';

export const countryLanguage = (lang: string): CountryLanguage =>
  lang === 'sa' ? 'ar' : ((['en', 'zh', 'es', 'fr', 'it'].includes(lang) ? lang : 'en') as CountryLanguage);

const emptyRow = (fields: FieldDef[]): Record<string, unknown> =>
  Object.fromEntries(fields.map((f) => [`field_${f.name}`, f.kind === 'pounds' ? 0 : null]));

/** A row's value of a contract field: the names come from the contract's field list, so read as plain keys. */
const valueOf = (row: FormRow, def: FieldDef): unknown => (row as Record<string, unknown>)[`field_${def.name}`];

/** The rows of form 2 (purchases outside the US) or form 3 (exports by country): add, change, remove while a draft. */
export function RowsTable({
  rowBundle,
  formBundle,
  formId,
  rows,
  readOnly,
  varieties,
  onChanged,
}: {
  rowBundle: RowBundle;
  formBundle: MonthlyBundle;
  formId: string;
  rows: FormRow[];
  readOnly: boolean;
  varieties: string[];
  onChanged: () => Promise<unknown>;
}) {
  const { t, i18n } = useTranslation('filing');
  const lang = i18n.language;
  const fields = FORM_FIELDS[rowBundle];
  const [editing, setEditing] = useState<{ id: string | null; values: Record<string, unknown> } | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const countries = useMemo(() => countryOptions(countryLanguage(lang)).filter((c) => c.code !== 'US'), [lang]);

  const save = useMutation({
    mutationFn: async (input: { id: string | null; values: Record<string, unknown> }) => {
      const attributes = Object.fromEntries(
        Object.entries(input.values).filter(([, v]) => v !== null && v !== undefined && v !== ''),
      );
      if (input.id) await updateRow(rowBundle, input.id, attributes);
      else await createRow(rowBundle, formBundle, formId, attributes);
      await onChanged();
    },
    onSuccess: () => setEditing(null),
    onError: (error) => {
      if (error instanceof ApiError && error.status === 422) {
        const byField = fieldErrors(error);
        setErrors(
          Object.fromEntries(
            Object.entries(byField).map(([attr, msgs]) => [
              attr,
              fieldErrorText(
                t,
                fields.find((f) => `field_${f.name}` === attr),
                { message: msgs[0] },
              ),
            ]),
          ),
        );
      }
    },
  });
  const remove = useMutation({
    mutationFn: async (id: string) => {
      await deleteRow(rowBundle, id);
      await onChanged();
    },
  });

  // Form 3 lists a country once (contract's rule, the server refuses it too): said at the field as it is picked.
  const countryTwice = (() => {
    if (rowBundle !== 'export_by_country' || !editing) return null;
    const mine = editing.values.field_country as string | null | undefined;
    const others = rows.filter((r) => r.id !== editing.id).map((r) => attr(r, 'field_country'));
    if (!duplicateCountryRows([...others, mine]).includes(others.length)) return null;
    return t('rows.countryTwice', { country: countryName(String(mine), countryLanguage(lang)) ?? mine });
  })();
  const shownErrors = countryTwice ? { ...errors, field_country: countryTwice } : errors;

  const submit = () => {
    if (!editing || countryTwice) return;
    const attributes = Object.fromEntries(
      Object.entries(editing.values).filter(([, v]) => v !== null && v !== undefined && v !== ''),
    );
    const found = validateFormAttributes(rowBundle, attributes, { mode: 'complete' });
    const next: Record<string, string> = {};
    for (const e of found)
      next[e.field] = fieldErrorText(
        t,
        fields.find((f) => `field_${f.name}` === e.field),
        e,
      );
    setErrors(next);
    if (found.length === 0) save.mutate(editing);
  };

  const show = (def: FieldDef, row: FormRow) => {
    const v = valueOf(row, def);
    if (def.kind === 'pounds') return formatNumber(v as number, lang);
    if (def.kind === 'date') return formatDate(v as string, lang);
    if (def.name === 'country' || def.name === 'country_of_origin')
      return countryName(String(v ?? ''), countryLanguage(lang)) ?? String(v ?? '');
    return String(v ?? '');
  };

  const label = rowBundle === 'export_by_country' ? t('rows.exports') : t('rows.purchases');
  const columns = [
    ...fields.map((def) => ({
      key: def.name,
      title: def.unit ? `${fieldLabel(t, def.name)} (${unitLabel(t, def.unit)})` : fieldLabel(t, def.name),
      align: (def.kind === 'pounds' ? 'end' : 'start') as 'end' | 'start',
      render: (_: unknown, row: FormRow) => show(def, row),
    })),
    ...(readOnly
      ? []
      : [
          {
            key: 'actions',
            title: t('rows.actions'),
            render: (_: unknown, row: FormRow) => {
              const name = show(fields[0], row);
              return (
                <Space size={0}>
                  <Button
                    type="text"
                    icon={<EditOutlined />}
                    aria-label={t('rows.editRow', { name })}
                    onClick={() => {
                      setErrors({});
                      setEditing({
                        id: row.id,
                        values: Object.fromEntries(fields.map((f) => [`field_${f.name}`, valueOf(row, f) ?? null])),
                      });
                    }}
                  />
                  <Popconfirm
                    title={t('rows.removeConfirm', { name })}
                    okText={t('rows.remove')}
                    cancelText={t('common.cancel')}
                    onConfirm={() => remove.mutateAsync(row.id)}
                  >
                    <Button
                      type="text"
                      danger
                      icon={<DeleteOutlined />}
                      aria-label={t('rows.removeRow', { name })}
                      loading={remove.isPending && remove.variables === row.id}
                    />
                  </Popconfirm>
                </Space>
              );
            },
          },
        ]),
  ];

  const input = (def: FieldDef) => {
    const attr = `field_${def.name}`;
    const value = editing?.values[attr];
    const set = (v: unknown) => setEditing((e) => (e ? { ...e, values: { ...e.values, [attr]: v } } : e));
    const invalid = !!shownErrors[attr];
    const id = `row-${def.name}`;
    if (def.kind === 'pounds')
      return (
        <PoundsInput
          id={id}
          value={value as number | null}
          onChange={set}
          unit={unitLabel(t, def.unit)}
          invalid={invalid}
        />
      );
    if (def.kind === 'date')
      return <DateInput id={id} value={value as string | null} onChange={set} invalid={invalid} />;
    if (def.name === 'country' || def.name === 'country_of_origin')
      return (
        <Select
          id={id}
          showSearch
          value={(value as string | null) ?? undefined}
          onChange={set}
          status={invalid ? 'error' : undefined}
          placeholder={t('rows.chooseCountry')}
          optionFilterProp="label"
          options={countries.map((c) => ({ value: c.code, label: c.name }))}
          style={{ width: '100%' }}
        />
      );
    return (
      <AutoComplete
        onKeyDown={keepTypedOnEscape}
        id={id}
        value={(value as string | null) ?? ''}
        onChange={(v) => set(v || null)}
        options={varieties.map((v) => ({ value: v }))}
        filterOption={(inputValue, option) =>
          String(option?.value ?? '')
            .toLowerCase()
            .includes(inputValue.toLowerCase())
        }
        placeholder={t('forms.varietyPlaceholder')}
        style={{ width: '100%' }}
      />
    );
  };

  return (
    <section aria-labelledby="rows-title" style={{ marginBottom: 16 }}>
      <div
        style={{
          display: 'flex',
          flexWrap: 'wrap',
          justifyContent: 'space-between',
          alignItems: 'center',
          gap: 8,
          marginBottom: 8,
        }}
      >
        <Typography.Title level={2} id="rows-title" style={{ fontSize: 18, margin: 0 }}>
          {label}
        </Typography.Title>
        {readOnly ? null : (
          <Button
            icon={<PlusOutlined />}
            onClick={() => {
              setErrors({});
              setEditing({ id: null, values: emptyRow(fields) });
            }}
          >
            {t('rows.add')}
          </Button>
        )}
      </div>
      {remove.error ? (
        <Alert
          type="error"
          showIcon
          message={t('common.writeError')}
          description={errorText(remove.error)}
          style={{ marginBottom: 8 }}
        />
      ) : null}
      <Table<FormRow>
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={rows}
        columns={columns}
        scroll={{ x: 640 }}
        locale={{ emptyText: t('rows.empty') }}
        aria-label={label}
      />
      <Modal
        open={!!editing}
        title={editing?.id ? t('rows.editTitle') : t('rows.addTitle')}
        okText={t('common.save')}
        cancelText={t('common.cancel')}
        onOk={submit}
        confirmLoading={save.isPending}
        onCancel={() => setEditing(null)}
        destroyOnHidden
      >
        <Form layout="vertical" component="div">
          <Row gutter={12}>
            {fields.map((def) => (
              <Col key={def.name} xs={24} sm={def.kind === 'pounds' ? 12 : 24}>
                <Form.Item
                  label={fieldLabel(t, def.name)}
                  htmlFor={`row-${def.name}`}
                  validateStatus={shownErrors[`field_${def.name}`] ? 'error' : undefined}
                  help={
                    shownErrors[`field_${def.name}`] ? (
                      <span role="alert">{shownErrors[`field_${def.name}`]}</span>
                    ) : undefined
                  }
                >
                  {input(def)}
                </Form.Item>
              </Col>
            ))}
          </Row>
        </Form>
        {save.error && !(save.error instanceof ApiError && save.error.status === 422) ? (
          <Alert type="error" showIcon message={t('common.writeError')} description={errorText(save.error)} />
        ) : null}
      </Modal>
    </section>
  );
}
