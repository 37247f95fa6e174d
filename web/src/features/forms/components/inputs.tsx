import { DatePicker, InputNumber } from 'antd';
import dayjs from 'dayjs';
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { languageInfo } from '../../../lib/i18n/languages';

function groupSeparator(language: string): string {
  const parts = new Intl.NumberFormat(languageInfo(language).intl).formatToParts(11111);
  return parts.find((p) => p.type === 'group')?.value ?? ',';
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whole pounds with the language's thousands separator; what is typed is passed on as typed (validation judges it). */
export function PoundsInput({
  id,
  value,
  onChange,
  unit,
  invalid,
  readOnly,
  style,
  ariaLabel,
}: {
  id?: string;
  value: number | null | undefined;
  onChange?: (value: number | null) => void;
  unit?: string;
  invalid?: boolean;
  readOnly?: boolean;
  style?: CSSProperties;
  ariaLabel?: string;
}) {
  const { i18n } = useTranslation();
  const group = groupSeparator(i18n.language);
  const groupRe = new RegExp(escapeRegExp(group), 'g');
  return (
    <InputNumber<number>
      id={id}
      aria-label={ariaLabel}
      value={value ?? null}
      onChange={(v) => onChange?.(typeof v === 'number' ? v : null)}
      controls={false}
      readOnly={readOnly}
      status={invalid ? 'error' : undefined}
      aria-invalid={invalid || undefined}
      addonAfter={unit}
      inputMode="numeric"
      style={{ width: '100%', ...style }}
      formatter={(v) => {
        if (v === undefined || v === null || (v as unknown) === '') return '';
        const [whole, frac] = String(v).split('.');
        const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, group);
        return frac !== undefined ? `${grouped}.${frac}` : grouped;
      }}
      parser={(s) => {
        const cleaned = (s ?? '').replace(groupRe, '').replace(/[\s,']/g, '');
        return cleaned as unknown as number;
      }}
    />
  );
}

/** A calendar date as YYYY-MM-DD. */
export function DateInput({
  id,
  value,
  onChange,
  invalid,
  disabled,
  ariaLabel,
}: {
  id?: string;
  value: string | null | undefined;
  onChange?: (value: string | null) => void;
  invalid?: boolean;
  disabled?: boolean;
  ariaLabel?: string;
}) {
  return (
    <DatePicker
      id={id}
      aria-label={ariaLabel}
      value={value ? dayjs(value) : null}
      onChange={(d) => onChange?.(d ? d.format('YYYY-MM-DD') : null)}
      status={invalid ? 'error' : undefined}
      disabled={disabled}
      format="YYYY-MM-DD"
      style={{ width: '100%' }}
    />
  );
}
