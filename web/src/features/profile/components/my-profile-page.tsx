import { Card, Descriptions, Typography } from 'antd';
import { useFeatureTranslation } from '../../../lib/i18n/feature-namespaces';
import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../../../components/use-document-title';
import { formatDate } from '../../../lib/i18n/format';
import { sessionStore } from '../../../lib/session/session-store';
import { useSession } from '../../../lib/session/use-session';
import { ActiveSessionsCard } from './active-sessions-card';
import { ProfileEditor } from './profile-edit-page';
import { roleLabelKeys } from '../lib/role-labels';
import { MyApiClients } from '../../../components/api-clients/api-clients-card';

/** The signed-in user's identity and session, from what the login sequence stored. */
export default function MyProfilePage() {
  const { t, i18n } = useTranslation();
  const { profile, token } = useSession();
  const { t: tp } = useFeatureTranslation(['profileEdit', 'account']);
  useDocumentTitle(t('profile.title'));
  const none = t('profile.none');
  const status = profile.handlerStatus
    ? t(`profile.status_${profile.handlerStatus}`, { defaultValue: profile.handlerStatus })
    : none;
  const roleKeys = roleLabelKeys(profile.roles);
  const roles = roleKeys.length ? roleKeys.map((k) => t(k)).join(', ') : none;
  return (
    <>
      <Card>
        <Typography.Title level={1} style={{ fontSize: 26 }}>
          {t('profile.title')}
        </Typography.Title>
        <Descriptions
          bordered
          column={1}
          items={[
            { key: 'username', label: t('profile.username'), children: profile.username ?? none },
            { key: 'first', label: t('profile.firstName'), children: profile.userFirstName ?? none },
            { key: 'handler', label: t('profile.handler'), children: profile.handlerName ?? none },
            { key: 'number', label: t('profile.handlerNumber'), children: profile.handlerNumber ?? none },
            { key: 'status', label: t('profile.handlerStatus'), children: status },
            { key: 'roles', label: t('profile.roles'), children: roles },
            {
              key: 'session',
              label: t('profile.session'),
              children: sessionStore.isRemembered() ? t('profile.remembered') : t('profile.notRemembered'),
            },
            {
              key: 'logout',
              label: t('profile.autoLogout'),
              children: token
                ? formatDate(new Date(token.logout_at), i18n.language, { dateStyle: 'medium', timeStyle: 'short' })
                : none,
            },
          ]}
        />
      </Card>
      {profile.userUid ? (
        <Card style={{ marginTop: 16 }} title={tp('editProfile')}>
          <ProfileEditor />
        </Card>
      ) : null}
      <ActiveSessionsCard />
      <MyApiClients />
    </>
  );
}
