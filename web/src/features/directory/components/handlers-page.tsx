import { GlobalOutlined, MailOutlined, PhoneOutlined, EnvironmentOutlined } from '@ant-design/icons';
import { Button, Card, Col, Input, Row, Space, Tag, Typography } from 'antd';
import { useEffect, useRef } from 'react';
import { ErrorWithRetry, QueryState } from '../../../components/query-state';
import { useDocumentTitle } from '../../../components/use-document-title';
import { useFeatureTranslation } from '../../../lib/i18n/feature-namespaces';
import { str } from '../../../lib/portal/text';
import { useHandlerDirectory, useSearchText } from '../../../lib/portal/use-handler-directory';

const safeUrl = (u: string) => (/^https?:\/\//i.test(u) ? u : null);

export default function HandlersPage() {
  const { t } = useFeatureTranslation(['directory', 'portalData']);
  useDocumentTitle(t('directory:handlersTitle'));
  const search = useSearchText();
  const { query, rows, savedAt } = useHandlerDirectory(search.searched);
  const list = useRef<HTMLDivElement>(null);
  // A failed "Show more" is told under the cards, with its own Retry; the cards already shown stay.
  const moreFailed = query.isFetchNextPageError;

  // Keyboard and screen reader users go on from the first card that came in (the button may be gone).
  const focusAt = useRef<number | null>(null);
  useEffect(() => {
    focusAt.current = null;
  }, [search.searched]);
  useEffect(() => {
    const at = focusAt.current;
    if (at === null || !rows || rows.length <= at) return;
    focusAt.current = null;
    list.current?.querySelectorAll<HTMLElement>('[role=listitem]')[at]?.focus();
  }, [rows]);
  const showMore = () => {
    focusAt.current = rows?.length ?? 0;
    void query.fetchNextPage();
  };

  return (
    <Card>
      <Typography.Title level={1} style={{ fontSize: 26 }}>
        {t('directory:handlersTitle')}
      </Typography.Title>
      <Input.Search
        aria-label={t('directory:searchHandlers')}
        placeholder={t('directory:searchHandlers')}
        allowClear
        value={search.text}
        onChange={(e) => search.setText(e.target.value)}
        onSearch={(value) => search.searchNow(value)}
        loading={query.isFetching && !query.isFetchingNextPage && search.searched !== ''}
        style={{ maxWidth: 420, marginBottom: 16 }}
        type="search"
      />
      <QueryState
        query={{
          data: rows,
          error: moreFailed ? null : query.error,
          isPending: query.isPending,
          isFetching: query.isFetching,
          refetch: query.refetch,
          savedAt,
        }}
        isEmpty={(r) => r.length === 0}
        emptyText={search.searched ? t('directory:noHandlerFound') : t('directory:noHandlers')}
      >
        {(found) => (
          <>
            <Row gutter={[16, 16]} role="list" ref={list}>
              {found.map((h) => {
                const site = safeUrl(str(h.field_website));
                return (
                  <Col key={h.id} xs={24} md={12} xxl={8} role="listitem" tabIndex={-1}>
                    <Card
                      size="small"
                      title={<span style={{ whiteSpace: 'normal' }}>{str(h.title)}</span>}
                      extra={<Tag>{t('directory:number', { number: str(h.field_handler_number) })}</Tag>}
                      style={{ height: '100%' }}
                    >
                      <Space direction="vertical" size={6}>
                        {h.field_address ? (
                          <span>
                            <EnvironmentOutlined aria-label={t('directory:address')} />{' '}
                            <span style={{ whiteSpace: 'pre-line' }}>{str(h.field_address)}</span>
                          </span>
                        ) : null}
                        {h.field_phone ? (
                          <a href={`tel:${str(h.field_phone).replace(/\s+/g, '')}`}>
                            <PhoneOutlined aria-label={t('directory:phone')} /> <bdi>{str(h.field_phone)}</bdi>
                          </a>
                        ) : null}
                        {h.field_email ? (
                          <a href={`mailto:${str(h.field_email)}`}>
                            <MailOutlined aria-label={t('directory:email')} /> <bdi>{str(h.field_email)}</bdi>
                          </a>
                        ) : null}
                        {site ? (
                          <a href={site} target="_blank" rel="noopener noreferrer">
                            <GlobalOutlined aria-label={t('directory:website')} />{' '}
                            <bdi>{site.replace(/^https?:\/\//, '')}</bdi>
                          </a>
                        ) : null}
                      </Space>
                    </Card>
                  </Col>
                );
              })}
            </Row>
            <Space direction="vertical" align="center" style={{ width: '100%', marginTop: 16 }}>
              <Typography.Text type="secondary" role="status">
                {t('directory:showing', { count: found.length })}
              </Typography.Text>
              {moreFailed ? <ErrorWithRetry error={query.error} onRetry={showMore} /> : null}
              {query.hasNextPage && !moreFailed ? (
                <Button onClick={showMore} loading={query.isFetchingNextPage}>
                  {t('directory:showMore')}
                </Button>
              ) : null}
            </Space>
          </>
        )}
      </QueryState>
    </Card>
  );
}
