import { DesktopOutlined, MobileOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Popconfirm, Skeleton, Tag, Typography, theme } from 'antd';
import { useNavigate } from 'react-router';
import { ErrorWithRetry } from '../../../components/query-state';
import { useFeatureTranslation } from '../../../lib/i18n/feature-namespaces';
import { formatDate } from '../../../lib/i18n/format';
import { logout } from '../../../lib/session/session';
import { describeAgent, endSession, sessionsQuery, type ActiveSession } from '../api/sessions-api';

/** My Profile's "Active sessions": every browser signed in as this user, each of which can be signed out. */
export function ActiveSessionsCard() {
  const { t, i18n } = useFeatureTranslation('account');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { token } = theme.useToken();
  const sessions = useQuery(sessionsQuery());
  const end = useMutation({
    mutationFn: async (s: ActiveSession) => {
      // Ending this browser's own session is signing out.
      if (s.current) await logout();
      else await endSession(s.id);
      return s;
    },
    onSuccess: (s) => {
      if (s.current) {
        navigate('/signin', { replace: true });
        return;
      }
      message.success(t('account:sessions.ended'));
      void queryClient.invalidateQueries({ queryKey: sessionsQuery().queryKey });
    },
    onError: () => message.error(t('account:sessions.endFailed')),
  });
  const when = (iso: string) => formatDate(iso, i18n.language, { dateStyle: 'medium', timeStyle: 'short' });

  const title = (s: ActiveSession) => {
    const agent = describeAgent(s.user_agent);
    return agent ? t('account:sessions.browserOn', agent) : t('account:sessions.unknownDevice');
  };
  return (
    <Card style={{ marginTop: 16 }} data-testid="active-sessions">
      <Typography.Title level={2} style={{ fontSize: 20 }}>
        {t('account:sessions.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('account:sessions.intro')}</Typography.Paragraph>
      {sessions.isError ? (
        <ErrorWithRetry error={sessions.error} onRetry={() => void sessions.refetch()} />
      ) : sessions.isPending ? (
        <Skeleton active />
      ) : (
        <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {sessions.data.map((s) => (
            <li
              key={s.id}
              data-session={s.current ? 'current' : 'other'}
              style={{
                display: 'flex',
                gap: 12,
                alignItems: 'flex-start',
                flexWrap: 'wrap',
                padding: '12px 0',
                borderTop: `1px solid ${token.colorSplit}`,
              }}
            >
              <span aria-hidden="true" style={{ fontSize: 22, lineHeight: 1, paddingTop: 2 }}>
                {/iPhone|Android|Mobile/.test(s.user_agent ?? '') ? <MobileOutlined /> : <DesktopOutlined />}
              </span>
              <div style={{ flex: '1 1 220px', minWidth: 0 }}>
                <div style={{ fontWeight: 600 }}>
                  {title(s)} {s.current ? <Tag color="green">{t('account:sessions.thisDevice')}</Tag> : null}
                </div>
                <Typography.Text type="secondary" style={{ display: 'block' }}>
                  {t('account:sessions.signedIn', { when: when(s.created) })}
                </Typography.Text>
                <Typography.Text type="secondary" style={{ display: 'block' }}>
                  {t('account:sessions.lastUsed', { when: when(s.last_used) })}
                </Typography.Text>
                {s.address ? (
                  <Typography.Text type="secondary" style={{ display: 'block' }}>
                    {t('account:sessions.from')} <bdi dir="ltr">{s.address}</bdi>
                  </Typography.Text>
                ) : null}
              </div>
              <Popconfirm
                title={t('account:sessions.confirmTitle')}
                description={s.current ? t('account:sessions.confirmCurrent') : t('account:sessions.confirmText')}
                okText={t('account:sessions.end')}
                cancelText={t('account:sessions.cancel')}
                okButtonProps={{ danger: true }}
                onConfirm={() => end.mutateAsync(s).catch(() => undefined)}
              >
                {/* Not antd's danger colour on white (#ff4d4f, 3.3:1 contrast): the confirmation carries the
                    warning. */}
                <Button loading={end.isPending && end.variables?.id === s.id}>{t('account:sessions.end')}</Button>
              </Popconfirm>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
