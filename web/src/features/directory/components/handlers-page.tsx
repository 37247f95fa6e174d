import { GlobalOutlined, MailOutlined, PhoneOutlined, EnvironmentOutlined } from '@ant-design/icons';
import { Card, Col, Empty, Input, Row, Space, Tag, Typography } from 'antd';
import { useDeferredValue, useState } from 'react';
import { QueryState } from '../../../components/query-state';
import { useDocumentTitle } from '../../../components/use-document-title';
import { useCachedQuery } from '../../../lib/cache/cached-copy';
import { useFeatureTranslation } from '../../../lib/i18n/feature-namespaces';
import type { Entity } from '../../../lib/jsonapi/deserialize';
import { str } from '../../../lib/portal-data/use-seasons';
import { fetchHandlers, matches } from '../api/directory-api';

const safeUrl = (u: string) => (/^https?:\/\//i.test(u) ? u : null);

export default function HandlersPage() {
  const { t } = useFeatureTranslation(['directory', 'portalData']);
  useDocumentTitle(t('directory:handlersTitle'));
  const [search, setSearch] = useState('');
  const q = useDeferredValue(search);
  const query = useCachedQuery<Entity[]>({ queryKey: ['handler-directory'], cache: { listKey: 'handler_directory' }, queryFn: (signal) => fetchHandlers(signal) });
  return (
    <Card>
      <Typography.Title level={1} style={{ fontSize: 26 }}>{t('directory:handlersTitle')}</Typography.Title>
      <Input.Search
        aria-label={t('directory:searchHandlers')}
        placeholder={t('directory:searchHandlers')}
        allowClear
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        style={{ maxWidth: 420, marginBottom: 16 }}
        type="search"
      />
      <QueryState query={query} isEmpty={(r) => r.length === 0} emptyText={t('directory:noHandlers')}>
        {(rows) => {
          const found = rows.filter((h) => matches(q, h.title, h.field_handler_number, h.field_address, h.field_email, h.field_phone, h.field_website));
          if (found.length === 0) return <Empty description={t('directory:noHandlerFound')} />;
          return (
            <Row gutter={[16, 16]} role="list">
              {found.map((h) => {
                const site = safeUrl(str(h.field_website));
                return (
                  <Col key={h.id} xs={24} md={12} xxl={8} role="listitem">
                    <Card size="small" title={<span style={{ whiteSpace: 'normal' }}>{str(h.title)}</span>} extra={<Tag>{t('directory:number', { number: str(h.field_handler_number) })}</Tag>} style={{ height: '100%' }}>
                      <Space direction="vertical" size={6}>
                        {h.field_address ? (
                          <span><EnvironmentOutlined aria-label={t('directory:address')} /> <span style={{ whiteSpace: 'pre-line' }}>{str(h.field_address)}</span></span>
                        ) : null}
                        {h.field_phone ? <a href={`tel:${str(h.field_phone).replace(/\s+/g, '')}`}><PhoneOutlined aria-label={t('directory:phone')} /> <bdi>{str(h.field_phone)}</bdi></a> : null}
                        {h.field_email ? <a href={`mailto:${str(h.field_email)}`}><MailOutlined aria-label={t('directory:email')} /> <bdi>{str(h.field_email)}</bdi></a> : null}
                        {site ? <a href={site} target="_blank" rel="noopener noreferrer"><GlobalOutlined aria-label={t('directory:website')} /> <bdi>{site.replace(/^https?:\/\//, '')}</bdi></a> : null}
                      </Space>
                    </Card>
                  </Col>
                );
              })}
            </Row>
          );
        }}
      </QueryState>
    </Card>
  );
}
