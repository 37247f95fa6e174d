import {
  CheckCircleOutlined,
  CloudUploadOutlined,
  DisconnectOutlined,
  EditOutlined,
  ExclamationCircleOutlined,
  LoadingOutlined,
  SaveOutlined,
} from '@ant-design/icons';
import { Alert, Button, Modal, Space, theme, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../lib/i18n/format';
import { errorText } from '../query-state';
import type { Autosave } from './use-autosave';

const time = (ms: number, lang: string) => formatDate(new Date(ms), lang, { timeStyle: 'short' });
const dateTime = (ms: number, lang: string) =>
  formatDate(new Date(ms), lang, { dateStyle: 'medium', timeStyle: 'short' });

/** "Saved at 14:02", "Saving…", or why the values are not saved yet; announced to screen readers as it changes. */
export function AutosaveStatus({ autosave }: { autosave: Autosave }) {
  const { t, i18n } = useTranslation();
  const { state, savedAt } = autosave;
  if (state === 'offline') {
    return (
      <Alert
        type="warning"
        showIcon
        icon={<DisconnectOutlined />}
        role="status"
        data-testid="save-status"
        message={t('draft.offline')}
      />
    );
  }
  if (state === 'failed') {
    return (
      <Alert
        type="error"
        showIcon
        role="status"
        data-testid="save-status"
        message={t('draft.failed', { reason: errorText(autosave.error, t('dataState.unknownError')) })}
      />
    );
  }
  const [icon, text, type] =
    state === 'saving'
      ? [<LoadingOutlined key="i" />, t('draft.saving'), 'secondary' as const]
      : state === 'unsaved'
        ? [<EditOutlined key="i" />, t('draft.unsaved'), 'secondary' as const]
        : state === 'invalid'
          ? [<ExclamationCircleOutlined key="i" />, t('draft.invalid'), 'warning' as const]
          : savedAt
            ? [
                <CheckCircleOutlined key="i" />,
                t('draft.savedAt', { time: time(savedAt, i18n.language) }),
                'success' as const,
              ]
            : [<CloudUploadOutlined key="i" />, t('draft.autosaveNote'), 'secondary' as const];
  return (
    <Typography.Text type={type} role="status" aria-live="polite" data-testid="save-status">
      <span aria-hidden="true">{icon}</span> {text}
    </Typography.Text>
  );
}

/** "Restored unsaved changes from <time>", with Discard: put back after a reload, a closed tab or a lost connection. */
export function RestoredNotice({ at, onDiscard }: { at: number | null; onDiscard: () => void }) {
  const { t, i18n } = useTranslation();
  if (!at) return null;
  return (
    <Alert
      type="info"
      showIcon
      role="status"
      style={{ marginBottom: 16 }}
      message={t('draft.restored', { time: dateTime(at, i18n.language) })}
      description={t('draft.restoredText')}
      action={
        <Button size="small" onClick={onDiscard}>
          {t('draft.discard')}
        </Button>
      }
    />
  );
}

/** The plain "Save draft" button. */
export function SaveDraftButton({ autosave, disabled }: { autosave: Autosave; disabled?: boolean }) {
  const { t } = useTranslation();
  return (
    <Button
      size="large"
      icon={<SaveOutlined />}
      loading={autosave.state === 'saving'}
      disabled={disabled}
      onClick={() => void autosave.saveNow()}
    >
      {t('draft.saveDraft')}
    </Button>
  );
}

/** "Leave this page?" when an in-app link is followed with unsaved values: save and leave, leave, or stay. */
export function LeaveDraftDialog({ autosave }: { autosave: Autosave }) {
  const { t } = useTranslation();
  const { blocker } = autosave;
  const [saving, setSaving] = useState(false);
  const open = blocker.state === 'blocked';
  const saveAndLeave = async () => {
    setSaving(true);
    const ok = await autosave.saveNow();
    setSaving(false);
    if (ok && blocker.state === 'blocked') blocker.proceed();
    else if (blocker.state === 'blocked') blocker.reset();
  };
  return (
    <Modal
      open={open}
      title={t('draft.leaveTitle')}
      onCancel={() => blocker.state === 'blocked' && blocker.reset()}
      footer={
        <Space wrap style={{ justifyContent: 'flex-end' }}>
          <Button onClick={() => blocker.state === 'blocked' && blocker.reset()}>{t('draft.stay')}</Button>
          <Button
            danger
            onClick={() => {
              autosave.discard();
              if (blocker.state === 'blocked') blocker.proceed();
            }}
          >
            {t('draft.leaveDiscard')}
          </Button>
          <Button type="primary" loading={saving} onClick={() => void saveAndLeave()}>
            {t('draft.leaveSave')}
          </Button>
        </Space>
      }
    >
      <Typography.Paragraph>{t('draft.leaveText')}</Typography.Paragraph>
    </Modal>
  );
}

/** The status line, the restored notice and the leave question of a form page that saves itself. */
export function AutosaveNotices({ autosave }: { autosave: Autosave }) {
  return (
    <>
      <RestoredNotice at={autosave.restoredAt} onDiscard={autosave.discard} />
      <LeaveDraftDialog autosave={autosave} />
    </>
  );
}

/**
 * The save status and the form's buttons, kept in view at the bottom of the window while the form scrolls: whoever
 * types in the first field sees "Saving…" and "Saved at" without looking for them.
 */
export function DraftActions({ autosave, children }: { autosave: Autosave; children: ReactNode }) {
  const { token } = theme.useToken();
  return (
    <div
      data-testid="draft-actions"
      style={{
        position: 'sticky',
        bottom: 0,
        zIndex: 2,
        marginInline: -12,
        padding: '10px 12px',
        background: token.colorBgContainer,
        borderTop: `1px solid ${token.colorBorderSecondary}`,
        boxShadow: '0 -4px 8px rgba(0, 0, 0, 0.04)',
      }}
    >
      <div style={{ marginBottom: 8 }}>
        <AutosaveStatus autosave={autosave} />
      </div>
      {children}
    </div>
  );
}
