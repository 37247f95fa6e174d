import { PhoneOutlined, UserOutlined } from '@ant-design/icons';
import { Alert, Avatar, Card, Empty, Input, List, Typography } from 'antd';
import { useDeferredValue, useState } from 'react';
import { QueryState } from '../../../components/query-state';
import { useDocumentTitle } from '../../../components/use-document-title';
import { useCachedQuery } from '../../../lib/cache/cached-copy';
import { useFeatureTranslation } from '../../../lib/i18n/feature-namespaces';
import { str } from '../../../lib/portal/text';
import { useSession } from '../../../lib/session/use-session';
import { directoryKeys, fetchContacts, matches, type DirectoryContact } from '../../../lib/portal/directory-api';

const fullName = (u: DirectoryContact) =>
  [str(u.field_first_name), str(u.field_last_name)].filter(Boolean).join(' ') || str(u.name);

export default function ContactsPage() {
  const { t } = useFeatureTranslation(['directory', 'portalData']);
  useDocumentTitle(t('directory:contactsTitle'));
  const { profile } = useSession();
  const handlerId = profile.handlerUid ?? '';
  const [search, setSearch] = useState('');
  const q = useDeferredValue(search);
  const query = useCachedQuery<DirectoryContact[]>({
    queryKey: directoryKeys.contacts(handlerId),
    cache: handlerId ? { listKey: 'contacts' } : null,
    enabled: !!handlerId,
    queryFn: (signal) => fetchContacts(handlerId, signal),
  });
  return (
    <Card>
      <Typography.Title level={1} style={{ fontSize: 26 }}>
        {t('directory:contactsTitle')}
      </Typography.Title>
      {!handlerId ? (
        <Alert type="info" message={t('portalData:noHandler')} />
      ) : (
        <>
          <Typography.Paragraph type="secondary">
            {t('directory:contactsIntro', { handler: profile.handlerName ?? '' })}
          </Typography.Paragraph>
          <Input.Search
            aria-label={t('directory:searchContacts')}
            placeholder={t('directory:searchContacts')}
            allowClear
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            style={{ maxWidth: 420, marginBottom: 16 }}
            type="search"
          />
          <QueryState query={query} isEmpty={(r) => r.length === 0} emptyText={t('directory:noContact')}>
            {(rows) => {
              const found = rows.filter((u) => matches(q, fullName(u), u.field_job_title, u.field_phone));
              if (found.length === 0) return <Empty description={t('directory:noContact')} />;
              return (
                <List
                  dataSource={found}
                  renderItem={(u) => (
                    <List.Item>
                      <List.Item.Meta
                        avatar={<Avatar icon={<UserOutlined />} style={{ background: '#a0612a' }} />}
                        title={fullName(u)}
                        description={
                          <>
                            {u.field_job_title ? <div>{str(u.field_job_title)}</div> : null}
                            {u.field_phone ? (
                              <a href={`tel:${str(u.field_phone).replace(/\s+/g, '')}`}>
                                <PhoneOutlined aria-label={t('directory:phone')} /> <bdi>{str(u.field_phone)}</bdi>
                              </a>
                            ) : (
                              <Typography.Text type="secondary">{t('directory:noPhone')}</Typography.Text>
                            )}
                          </>
                        }
                      />
                    </List.Item>
                  )}
                />
              );
            }}
          </QueryState>
        </>
      )}
    </Card>
  );
}
