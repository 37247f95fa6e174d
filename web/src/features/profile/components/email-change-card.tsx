import { MailOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Card, Input, Typography } from 'antd';
import { useId, useState } from 'react';
import { errorText } from '../../../components/query-state';
import { ApiError, fieldErrors } from '../../../lib/http/errors';
import { useFeatureTranslation } from '../../../lib/i18n/feature-namespaces';
import { requestEmailChange } from '../api/profile-api';

/**
 * Changing one's e-mail address: the current password and the new address; the server mails a link to the new
 * address and tells the old one, and the address changes only when the link is opened (docs/SECURITY.md).
 */
export function EmailChangeCard({ currentEmail }: { currentEmail: string | null }) {
  const { t } = useFeatureTranslation(['profileEdit', 'portalData']);
  const ids = { cur: useId(), mail: useId() };
  const [password, setPassword] = useState('');
  const [email, setEmail] = useState('');
  const change = useMutation({
    mutationFn: () => requestEmailChange(password, email.trim()),
    onSuccess: () => {
      setPassword('');
      setEmail('');
    },
  });
  const errors = change.error instanceof ApiError ? fieldErrors(change.error) : {};
  const ready = password.length > 0 && email.trim().includes('@');
  return (
    <Card
      size="small"
      type="inner"
      style={{ marginTop: 16 }}
      title={
        <span>
          <MailOutlined /> {t('profileEdit:emailTitle')}
        </span>
      }
    >
      <Typography.Paragraph>
        {t('profileEdit:emailCurrent')}{' '}
        <Typography.Text strong dir="ltr">
          {currentEmail ?? t('profileEdit:emailNone')}
        </Typography.Text>
      </Typography.Paragraph>
      <Typography.Paragraph type="secondary">{t('profileEdit:emailIntro')}</Typography.Paragraph>
      {change.isSuccess ? (
        <Alert
          type="success"
          showIcon
          role="status"
          style={{ marginBottom: 12 }}
          message={t('profileEdit:emailSent', { email: change.data.email })}
          description={t('profileEdit:emailSentHelp')}
        />
      ) : null}
      <form
        aria-label={t('profileEdit:emailTitle')}
        onSubmit={(e) => {
          e.preventDefault();
          if (ready) change.mutate();
        }}
        noValidate
      >
        <div style={{ marginBottom: 16 }}>
          <label htmlFor={ids.mail} style={{ display: 'block', marginBottom: 4, fontWeight: 500 }}>
            {t('profileEdit:emailNew')}
          </label>
          <Input
            id={ids.mail}
            type="email"
            dir="ltr"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            autoComplete="email"
            maxLength={254}
            status={errors.new_email ? 'error' : undefined}
          />
          {errors.new_email ? (
            <Typography.Text type="danger" role="alert" style={{ display: 'block', marginTop: 2 }}>
              {errors.new_email[0]}
            </Typography.Text>
          ) : null}
        </div>
        <div style={{ marginBottom: 16 }}>
          <label htmlFor={ids.cur} style={{ display: 'block', marginBottom: 4, fontWeight: 500 }}>
            {t('profileEdit:currentPassword')}
          </label>
          <Input.Password
            id={ids.cur}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            autoComplete="current-password"
            status={errors.current_password ? 'error' : undefined}
          />
          {errors.current_password ? (
            <Typography.Text type="danger" role="alert" style={{ display: 'block', marginTop: 2 }}>
              {errors.current_password[0]}
            </Typography.Text>
          ) : null}
        </div>
        {change.error && !errors.new_email && !errors.current_password ? (
          <Alert
            type="error"
            showIcon
            role="alert"
            style={{ marginBottom: 12 }}
            message={t('profileEdit:emailRefused')}
            description={errorText(change.error)}
          />
        ) : null}
        <Button htmlType="submit" type="primary" disabled={!ready} loading={change.isPending}>
          {t('profileEdit:emailSubmit')}
        </Button>
      </form>
    </Card>
  );
}
