import { Card, Collapse, Descriptions, Input, List, Space, Table, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useViewport } from '../../../components/use-viewport';
import { QueryState } from '../../../components/query-state';
import { useDocumentTitle } from '../../../components/use-document-title';
import { useFeatureTranslation } from '../../../lib/i18n/feature-namespaces';
import type { ApiReference, AttributeRow, TypeReference } from '../api/api-reference-model';
import { apiReferenceQuery } from '../api/fetch-api-reference';

const code = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: 13 } as const;

/** Help -> API: the JSON:API's types, read from the server's own OpenAPI description (/jsonapi/openapi.json). */
export default function ApiReferencePage() {
  const { t } = useFeatureTranslation('apiReference');
  useDocumentTitle(t('title'));
  const query = useQuery(apiReferenceQuery());
  const [search, setSearch] = useState('');
  const q = useDeferredValue(search.trim().toLowerCase());
  return (
    <Card>
      <article>
        <Typography.Title level={1} style={{ fontSize: 26 }}>
          {t('title')}
        </Typography.Title>
        <Typography.Paragraph style={{ fontSize: 15, maxWidth: 820 }}>{t('intro')}</Typography.Paragraph>
        <Typography.Paragraph style={{ fontSize: 15, maxWidth: 820 }}>
          {t('machineReadable')}{' '}
          <Typography.Text copyable style={code}>
            /jsonapi/openapi.json
          </Typography.Text>
        </Typography.Paragraph>
        <Typography.Paragraph>
          <Link to="/dashboard/help">{t('backToHelp')}</Link>
        </Typography.Paragraph>
        <QueryState query={query} rows={8}>
          {(reference) => <Reference reference={reference} search={q} onSearch={setSearch} value={search} />}
        </QueryState>
      </article>
    </Card>
  );
}

function Reference({
  reference,
  search,
  onSearch,
  value,
}: {
  reference: ApiReference;
  search: string;
  value: string;
  onSearch: (v: string) => void;
}) {
  const { t } = useFeatureTranslation('apiReference');
  const types = useMemo(
    () =>
      reference.types.filter(
        (type) => !search || type.type.includes(search) || type.attributes.some((a) => a.name.includes(search)),
      ),
    [reference, search],
  );
  return (
    <>
      <section aria-labelledby="api-query">
        <Typography.Title level={2} id="api-query" style={{ fontSize: 20 }}>
          {t('queryTitle')}
        </Typography.Title>
        <Descriptions
          column={1}
          bordered
          size="small"
          items={reference.parameters.map((p) => ({
            key: p.name,
            label: <span style={code}>{p.name}</span>,
            children: p.description,
          }))}
        />
      </section>
      <section aria-labelledby="api-types" style={{ marginTop: 24 }}>
        <Typography.Title level={2} id="api-types" style={{ fontSize: 20 }}>
          {t('typesTitle', { count: reference.types.length })}
        </Typography.Title>
        <Input.Search
          allowClear
          value={value}
          onChange={(e) => onSearch(e.target.value)}
          placeholder={t('search')}
          aria-label={t('search')}
          style={{ maxWidth: 420, marginBottom: 16 }}
        />
        <Collapse
          items={types.map((type) => ({
            key: type.type,
            label: (
              <Space wrap size={[8, 4]}>
                <Typography.Text strong style={code}>
                  {type.type}
                </Typography.Text>
                {type.methods.map((m) => (
                  <Tag key={m} color={m === 'GET' ? 'blue' : m === 'DELETE' ? 'red' : 'green'}>
                    {m}
                  </Tag>
                ))}
              </Space>
            ),
            children: <TypeDetails type={type} />,
          }))}
        />
      </section>
    </>
  );
}

function TypeDetails({ type }: { type: TypeReference }) {
  const { t } = useFeatureTranslation('apiReference');
  const { mode } = useViewport();
  return (
    <div>
      <Typography.Paragraph>
        {t('address')}:{' '}
        <Typography.Text copyable style={code}>
          {type.path}
        </Typography.Text>
        {type.defaultSort ? (
          <>
            {' '}
            · {t('defaultSort')}: <span style={code}>{type.defaultSort}</span>
          </>
        ) : null}
      </Typography.Paragraph>
      <Typography.Title level={3} style={{ fontSize: 16 }}>
        {t('attributes')}
      </Typography.Title>
      {mode === 'mobile' ? <AttributeList rows={type.attributes} /> : <AttributeTable rows={type.attributes} />}
      {type.relationships.length > 0 ? (
        <>
          <Typography.Title level={3} style={{ fontSize: 16, marginTop: 16 }}>
            {t('relationships')}
          </Typography.Title>
          <List
            size="small"
            dataSource={type.relationships}
            renderItem={(r) => (
              <List.Item>
                <Space wrap size={[8, 4]}>
                  <span style={code}>{r.name}</span>
                  <span>
                    → <span style={code}>{r.target}</span>
                  </span>
                  <Tag>{r.many ? t('many') : t('one')}</Tag>
                  {r.writable ? <Tag color="green">{t('writable')}</Tag> : null}
                  {r.restricted ? <Tag color="orange">{t('restricted')}</Tag> : null}
                </Space>
              </List.Item>
            )}
          />
        </>
      ) : null}
    </div>
  );
}

function Flags({ row }: { row: AttributeRow }) {
  const { t } = useFeatureTranslation('apiReference');
  return (
    <Space wrap size={[4, 4]}>
      {row.filterable ? <Tag color="blue">{t('filterable')}</Tag> : null}
      {row.writable ? <Tag color="green">{t('writable')}</Tag> : <Tag>{t('readOnly')}</Tag>}
      {row.restricted ? <Tag color="orange">{t('restricted')}</Tag> : null}
      {row.nullable ? <Tag>{t('nullable')}</Tag> : null}
    </Space>
  );
}

const Allowed = ({ values }: { values?: string[] }) =>
  values ? (
    <Space wrap size={[4, 4]}>
      {values.map((v) => (
        <Tag key={v} style={code}>
          {v}
        </Tag>
      ))}
    </Space>
  ) : null;

function AttributeTable({ rows }: { rows: AttributeRow[] }) {
  const { t } = useFeatureTranslation('apiReference');
  return (
    <Table<AttributeRow>
      size="small"
      rowKey="name"
      pagination={false}
      dataSource={rows}
      columns={[
        {
          title: t('name'),
          dataIndex: 'name',
          width: '38%',
          render: (name: string, row) => (
            <>
              <div style={{ ...code, wordBreak: 'break-all' }}>{name}</div>
              {row.description ? (
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {row.description}
                </Typography.Text>
              ) : null}
            </>
          ),
        },
        { title: t('kind'), dataIndex: 'kind' },
        { title: t('unit'), dataIndex: 'unit', render: (unit?: string) => unit ?? '' },
        { title: t('allowed'), dataIndex: 'allowed', render: (values?: string[]) => <Allowed values={values} /> },
        { title: t('use'), key: 'flags', render: (_: unknown, row) => <Flags row={row} /> },
      ]}
    />
  );
}

/** Phones: one card-like item per attribute, nothing to scroll sideways. */
function AttributeList({ rows }: { rows: AttributeRow[] }) {
  const { t } = useFeatureTranslation('apiReference');
  return (
    <List
      size="small"
      dataSource={rows}
      renderItem={(row) => (
        <List.Item>
          <div style={{ width: '100%' }}>
            <div style={{ ...code, wordBreak: 'break-all' }}>{row.name}</div>
            <div>
              {row.kind}
              {row.unit ? ` · ${t('unit')}: ${row.unit}` : ''}
            </div>
            {row.description ? (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {row.description}
              </Typography.Text>
            ) : null}
            <Allowed values={row.allowed} />
            <div style={{ marginTop: 4 }}>
              <Flags row={row} />
            </div>
          </div>
        </List.Item>
      )}
    />
  );
}
