import { Alert, Grid, Tag, Typography } from 'antd';
import type { FormInstance } from 'antd';
import type { ReactNode } from 'react';
import { ApiError, fieldErrors } from '../../../lib/http/errors';

/**
 * Pieces the council console's pages share: the server's 422 errors put at their fields, the message of any other
 * failure, a page heading with its actions, and a drawer width that fills a phone's screen.
 */

/**
 * Puts each 422 error at the form field its pointer names (`rename` maps a server name to the form's, when they
 * differ); returns the text of the errors no field shows, or null.
 */
export function showServerErrors(form: FormInstance, error: unknown, fieldNames: string[], rename: Record<string, string> = {}): string | null {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error);
  const byField = fieldErrors(error);
  const shown = Object.entries(byField).filter(([name]) => fieldNames.includes(name)).map(([name, errors]) => ({ name: rename[name] ?? name, errors }));
  form.setFields(shown);
  if (shown.length > 0) form.scrollToField(shown[0].name);
  const rest = error.errors.filter((e) => {
    const field = e.source?.pointer?.split('/').filter(Boolean).pop();
    return !field || !fieldNames.includes(field);
  });
  if (rest.length === 0 && shown.length > 0) return null;
  return rest.map((e) => e.detail || e.title).filter(Boolean).join(' ') || error.message;
}

/** The text of a failed call, for a message. */
export const failureText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** A form-level error (one no field shows). */
export function FormError({ text }: { text: string | null }) {
  if (!text) return null;
  return <Alert type="error" showIcon role="alert" message={text} style={{ marginBottom: 16 }} />;
}

export function PageHeading({ title, intro, actions }: { title: string; intro?: ReactNode; actions?: ReactNode }) {
  return (
    <div style={{ marginBottom: 16 }}>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, alignItems: 'center', justifyContent: 'space-between' }}>
        <Typography.Title level={1} style={{ fontSize: 24, margin: 0 }}>
          {title}
        </Typography.Title>
        {actions}
      </div>
      {intro ? (
        <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
          {intro}
        </Typography.Paragraph>
      ) : null}
    </div>
  );
}

/** Drawers take the whole width of a phone, 560 px elsewhere. */
export function useDrawerWidth(): number | string {
  const screens = Grid.useBreakpoint();
  return screens.md ? 560 : '100%';
}

const STATUS_COLORS: Record<string, string> = { active: 'green', inactive: 'default', blocked: 'red', pending: 'gold', refused: 'default' };

export function StatusTag({ status, label }: { status: string; label: string }) {
  return <Tag color={STATUS_COLORS[status] ?? 'default'}>{label}</Tag>;
}

/** An empty text field is sent as null (the server clears it). */
export const orNull = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
