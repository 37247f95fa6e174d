import { PlusOutlined } from '@ant-design/icons';
import { Alert, Button, Grid, Input, Popconfirm, Space, Tag } from 'antd';
import type { FormInstance } from 'antd';
import type { ReactNode } from 'react';
import { ApiError, fieldErrors } from '../../../lib/http/errors';
import { useFeatureTranslation } from '../../../lib/i18n/feature-namespaces';
import { PageHeading } from '../../../components/council-page-parts';

export { failureText, PageHeading } from '../../../components/council-page-parts';

/**
 * Pieces the council console's pages share: the server's 422 errors put at their fields, the message of any other
 * failure, a page heading with its actions, and a drawer width that fills a phone's screen.
 */

/**
 * Puts each 422 error at the form field its pointer names (`rename` maps a server name to the form's, when they
 * differ); returns the text of the errors no field shows, or null.
 */
export function showServerErrors(
  form: FormInstance,
  error: unknown,
  fieldNames: string[],
  rename: Record<string, string> = {},
): string | null {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error);
  const byField = fieldErrors(error);
  const shown = Object.entries(byField)
    .filter(([name]) => fieldNames.includes(name))
    .map(([name, errors]) => ({ name: rename[name] ?? name, errors }));
  form.setFields(shown);
  if (shown.length > 0) form.scrollToField(shown[0].name);
  const rest = error.errors.filter((e) => {
    const field = e.source?.pointer?.split('/').filter(Boolean).pop();
    return !field || !fieldNames.includes(field);
  });
  if (rest.length === 0 && shown.length > 0) return null;
  return (
    rest
      .map((e) => e.detail || e.title)
      .filter(Boolean)
      .join(' ') || error.message
  );
}

/** A form-level error (one no field shows). */
export function FormError({ text }: { text: string | null }) {
  if (!text) return null;
  return <Alert type="error" showIcon role="alert" message={text} style={{ marginBottom: 16 }} />;
}

/** A list page's heading with its one "new" button. */
export function ListHeading({
  title,
  intro,
  newLabel,
  onNew,
}: {
  title: string;
  intro: ReactNode;
  newLabel: string;
  onNew: () => void;
}) {
  return (
    <PageHeading
      title={title}
      intro={intro}
      actions={
        <Button type="primary" icon={<PlusOutlined aria-hidden="true" />} onClick={onNew}>
          {newLabel}
        </Button>
      }
    />
  );
}

/** A list's search box, named by its placeholder text. */
export function SearchBox({
  label,
  value,
  onChange,
  onSearch,
  width,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  onSearch?: (v: string) => void;
  width: number;
}) {
  return (
    <Input.Search
      type="search"
      allowClear
      aria-label={label}
      placeholder={label}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      onSearch={onSearch}
      style={{ width, maxWidth: '100%' }}
    />
  );
}

/** A drawer form's Cancel and Create/Save buttons (Save submits the form). */
export function DrawerActions({
  isNew,
  saving,
  onCancel,
  onSave,
}: {
  isNew: boolean;
  saving: boolean;
  onCancel: () => void;
  onSave: () => void;
}) {
  const { t } = useFeatureTranslation('councilAdmin');
  return (
    <Space>
      <Button onClick={onCancel}>{t('cancel')}</Button>
      <Button type="primary" loading={saving} onClick={onSave}>
        {isNew ? t('create') : t('save')}
      </Button>
    </Space>
  );
}

/** Drawers take the whole width of a phone, 560 px elsewhere. */
export function useDrawerWidth(): number | string {
  const screens = Grid.useBreakpoint();
  return screens.md ? 560 : '100%';
}

const STATUS_COLORS: Record<string, string> = {
  active: 'green',
  inactive: 'default',
  blocked: 'red',
  pending: 'gold',
  refused: 'default',
};

export function StatusTag({ status, label }: { status: string; label: string }) {
  return <Tag color={STATUS_COLORS[status] ?? 'default'}>{label}</Tag>;
}

/** An empty text field is sent as null (the server clears it). */
export const orNull = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

/**
 * A row action that asks first (deactivate, send a password link): the question, what happens, then the action.
 * `danger` marks the confirming button; the row's own button stays plain, since antd's red on white fails contrast.
 */
export function ConfirmButton({
  title,
  text,
  okText,
  label,
  ariaLabel,
  icon,
  danger = false,
  disabled = false,
  onConfirm,
}: {
  title: string;
  text: string;
  okText: string;
  label: string;
  ariaLabel: string;
  icon: ReactNode;
  danger?: boolean;
  disabled?: boolean;
  onConfirm: () => Promise<unknown>;
}) {
  const { t } = useFeatureTranslation('councilAdmin');
  return (
    <Popconfirm
      title={title}
      description={<div style={{ maxWidth: 300 }}>{text}</div>}
      okText={okText}
      okButtonProps={{ danger }}
      cancelText={t('cancel')}
      onConfirm={() => onConfirm().catch(() => undefined)}
      disabled={disabled}
    >
      <Button size="small" icon={icon} disabled={disabled} aria-label={ariaLabel}>
        {label}
      </Button>
    </Popconfirm>
  );
}
