import { ArrowLeftOutlined, DiffOutlined } from '@ant-design/icons';
import { attributeName, FORM_FIELDS, type FieldDef, type FieldKind } from '@pecan/contract';
import { useQuery } from '@tanstack/react-query';
import { Card, Descriptions, Select, Space, Switch, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { FilingPage } from '../../../components/filing-page';
import { QueryState } from '../../../components/query-state';
import { useDocumentTitle } from '../../../components/use-document-title';
import { useFeatureTranslation } from '../../../lib/i18n/feature-namespaces';
import { formatDate, formatMoney, formatNumber } from '../../../lib/i18n/format';
import { filingVersionsQuery, type FilingVersion, type FilingVersions } from '../api/council-api';
import { dateTime, PageHeading, TextTag } from './shared';

/** Attributes shown in each version's heading rather than as compared fields. */
const HEADING_ATTRIBUTES = new Set([
  'title',
  'created',
  'changed',
  'status',
  'langcode',
  'drupal_internal__nid',
  'field_form_status',
  'field_certified',
  'field_certification_name',
  'field_certification_title',
  'field_certification_datetime',
  'field_amendment_number',
  'field_amendment_reason',
]);
const CHANGED_BG = '#fff1b8';
const VERSION_STATUS_COLOR: Record<string, string> = { draft: 'gold', certified: 'green', superseded: 'default' };

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** A field's kind (pounds, money...) from the contract's field table of its form, if it has one. */
function kindOf(bundle: string, attribute: string): FieldKind | undefined {
  const fields = (FORM_FIELDS as Record<string, readonly FieldDef[]>)[bundle];
  return fields?.find((f) => attributeName(f) === attribute)?.kind;
}

/**
 * A value as the handler's own form shows it: pounds with thousands separators, money as dollars, ratios and prices
 * to their four places, dates in the reader's language. The API sends decimals as strings ("4437.65"), so the
 * field's kind decides, not the value's type.
 */
function useValueText(bundle: string) {
  const { t, i18n } = useFeatureTranslation('councilOps');
  const lang = i18n.language;
  const scalar = (kind: FieldKind | undefined, v: unknown): string => {
    if (v === null || v === undefined || v === '') return '—';
    if (typeof v === 'boolean') return v ? t('yes') : t('no');
    switch (kind) {
      case 'money':
        return formatMoney(v as string, lang);
      case 'price':
        return formatNumber(v as string, lang, { style: 'currency', currency: 'USD', minimumFractionDigits: 4 });
      case 'ratio':
        return formatNumber(v as string, lang, { minimumFractionDigits: 4, maximumFractionDigits: 4 });
      case 'date':
        return formatDate(v as string, lang);
      default:
        return typeof v === 'number' || (typeof v === 'string' && kind === 'pounds')
          ? formatNumber(v as number | string, lang)
          : String(v);
    }
  };
  return (attribute: string, v: unknown): string => {
    const kind = kindOf(bundle, attribute);
    if (Array.isArray(v))
      // Variety and transfer lists: each entry's words as they are, its pounds with separators.
      return (
        v
          .map((x) =>
            typeof x === 'object' && x
              ? Object.entries(x as Record<string, unknown>)
                  .map(([k, val]) => scalar(k === 'pounds' ? 'pounds' : undefined, val))
                  .join(': ')
              : String(x),
          )
          .join(', ') || '—'
      );
    if (v !== null && typeof v === 'object') return JSON.stringify(v);
    return scalar(kind, v);
  };
}

/** A field's label from the forms' own texts (forms 1-3 in 'filing', form 5 in 'yearEnd'), else its name. */
function useFieldLabel() {
  const { t, i18n } = useFeatureTranslation(['councilOps', 'yearEnd']);
  return (attribute: string): string => {
    const name = attribute.replace(/^field_/, '');
    for (const key of [`filing:fields.${name}`, `yearEnd:fields.${name}`]) {
      if (i18n.exists(key) && typeof t(key, { returnObjects: true }) === 'string') return t(key);
    }
    return name.replace(/_/g, ' ');
  };
}

function versionName(v: FilingVersion, t: (k: string, o?: Record<string, unknown>) => string) {
  return v.amendment_number === 0 ? t('versions.original') : t('versions.amendmentN', { n: v.amendment_number });
}

function VersionHeading({ v }: { v: FilingVersion }) {
  const { t, i18n } = useFeatureTranslation('councilOps');
  return (
    <Space direction="vertical" size={2}>
      <strong>{versionName(v, t)}</strong>
      <TextTag
        color={VERSION_STATUS_COLOR[v.form_status] ?? 'default'}
        text={t(`versionStatus.${v.form_status}`, { defaultValue: v.form_status })}
      />
      {v.certified_at ? (
        <Typography.Text type="secondary" style={{ fontSize: 12, fontWeight: 'normal' }}>
          {t('versions.certifiedBy', {
            name: v.certification_name ?? '',
            date: dateTime(v.certified_at, i18n.language),
          })}
        </Typography.Text>
      ) : null}
      {v.amendment_reason ? (
        <Typography.Text style={{ fontSize: 12, fontWeight: 'normal' }}>
          {t('versions.reason', { reason: v.amendment_reason })}
        </Typography.Text>
      ) : null}
    </Space>
  );
}

interface FieldRow {
  attribute: string;
  label: string;
  left: unknown;
  right: unknown;
  changed: boolean;
}

function Comparison({ bundle, left, right }: { bundle: string; left: FilingVersion; right: FilingVersion | null }) {
  const { t } = useFeatureTranslation('councilOps');
  const label = useFieldLabel();
  const text = useValueText(bundle);
  const [onlyChanged, setOnlyChanged] = useState(false);
  // Changed means different between the two versions chosen (not only the server's changed_fields of adjacent ones).
  const names = [...new Set([...Object.keys(left.attributes), ...Object.keys(right?.attributes ?? {})])].filter(
    (n) => !HEADING_ATTRIBUTES.has(n) && n.startsWith('field_'),
  );
  const rows: FieldRow[] = names.map((n) => ({
    attribute: n,
    label: label(n),
    left: left.attributes[n],
    right: right?.attributes[n],
    changed: !!right && !same(left.attributes[n], right.attributes[n]),
  }));
  const shown = onlyChanged ? rows.filter((r) => r.changed) : rows;
  const changedCount = rows.filter((r) => r.changed).length;
  const columns: ColumnsType<FieldRow> = [
    {
      key: 'field',
      title: t('versions.field'),
      width: 260,
      render: (_, r) => (
        <span>
          {r.label}
          {r.changed ? (
            <Tag color="orange" icon={<DiffOutlined />} style={{ marginInlineStart: 8 }}>
              {t('versions.changed')}
            </Tag>
          ) : null}
        </span>
      ),
    },
    {
      key: 'left',
      title: <VersionHeading v={left} />,
      align: 'end',
      onCell: (r) => (r.changed ? { style: { background: CHANGED_BG } } : {}),
      render: (_, r) => text(r.attribute, r.left),
    },
    ...(right
      ? [
          {
            key: 'right',
            title: <VersionHeading v={right} />,
            align: 'end' as const,
            onCell: (r: FieldRow) => (r.changed ? { style: { background: CHANGED_BG, fontWeight: 600 } } : {}),
            render: (_: unknown, r: FieldRow) => text(r.attribute, r.right),
          },
        ]
      : []),
  ];
  return (
    <>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 16, alignItems: 'center', marginBottom: 12 }}>
        {right ? (
          <span
            role="note"
            aria-label={t('versions.legend')}
            style={{ display: 'inline-flex', alignItems: 'center', gap: 8 }}
          >
            <span
              aria-hidden="true"
              style={{
                display: 'inline-block',
                width: 18,
                height: 18,
                background: CHANGED_BG,
                border: '1px solid #d4b106',
              }}
            />
            {t('versions.legendText')}
          </span>
        ) : null}
        {right ? <Typography.Text strong>{t('versions.changedCount', { count: changedCount })}</Typography.Text> : null}
        {right ? (
          <label style={{ display: 'inline-flex', alignItems: 'center', gap: 8 }}>
            <Switch checked={onlyChanged} onChange={setOnlyChanged} size="small" />
            {t('versions.onlyChanged')}
          </label>
        ) : null}
      </div>
      <Table<FieldRow>
        rowKey="attribute"
        columns={columns}
        dataSource={shown}
        size="small"
        pagination={false}
        scroll={{ x: 640 }}
        data-testid="versions-comparison"
      />
    </>
  );
}

function Versions({ data }: { data: FilingVersions }) {
  const { t } = useFeatureTranslation('councilOps');
  const { versionId } = useParams();
  const list = data.versions;
  // By default: the version opened against the one before it (or the last two).
  const openedAt = Math.max(
    0,
    list.findIndex((v) => v.id === versionId),
  );
  const rightDefault = list.length > 1 ? Math.max(openedAt, 1) : 0;
  const [pair, setPair] = useState<[number, number]>([Math.max(0, rightDefault - 1), rightDefault]);
  const options = list.map((v, i) => ({
    value: i,
    label: `${versionName(v, t)} · ${t(`versionStatus.${v.form_status}`, { defaultValue: v.form_status })}`,
  }));
  return (
    <>
      {list.length > 1 ? (
        <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, alignItems: 'flex-end', marginBottom: 16 }}>
          <div style={{ display: 'flex', flexDirection: 'column', gap: 4 }}>
            <label htmlFor="versions-left">{t('versions.compare')}</label>
            <Select
              id="versions-left"
              style={{ minWidth: 220 }}
              value={pair[0]}
              onChange={(v) => setPair([v, pair[1]])}
              options={options}
            />
          </div>
          <div style={{ display: 'flex', flexDirection: 'column', gap: 4 }}>
            <label htmlFor="versions-right">{t('versions.with')}</label>
            <Select
              id="versions-right"
              style={{ minWidth: 220 }}
              value={pair[1]}
              onChange={(v) => setPair([pair[0], v])}
              options={options}
            />
          </div>
        </div>
      ) : (
        <Typography.Paragraph type="secondary">{t('versions.onlyOne')}</Typography.Paragraph>
      )}
      <Comparison
        bundle={data.bundle}
        left={list[pair[0]]}
        right={list.length > 1 && pair[0] !== pair[1] ? list[pair[1]] : null}
      />
    </>
  );
}

function FilingVersionsContent() {
  const { t } = useFeatureTranslation('councilOps');
  const { bundle = '', versionId = '' } = useParams();
  // Back to the board as it was filtered (the board passes its query string along).
  const backSearch = (useLocation().state as { boardSearch?: string } | null)?.boardSearch ?? '';
  const query = useQuery(filingVersionsQuery(bundle, versionId));
  const title = query.data
    ? t('versions.title', {
        form: t(`forms.${query.data.bundle}`),
        handler: `${query.data.handler.handler_number} ${query.data.handler.name}`,
      })
    : t('versions.titlePlain');
  useDocumentTitle(title);
  return (
    <Card>
      <Link to={`/dashboard/council/board${backSearch}`}>
        <ArrowLeftOutlined /> {t('versions.back')}
      </Link>
      <PageHeading title={title} intro={t('versions.intro')} />
      <QueryState query={query}>
        {(d) => (
          <>
            <Descriptions
              size="small"
              column={{ xs: 1, md: 3 }}
              style={{ marginBottom: 16 }}
              items={[
                {
                  key: 'form',
                  label: t('versions.form'),
                  children: `${t(`forms.${d.bundle}`)} · ${t(`formTitles.${d.bundle}`)}`,
                },
                {
                  key: 'handler',
                  label: t('board.handler'),
                  children: `${d.handler.handler_number} ${d.handler.name}`,
                },
                { key: 'count', label: t('versions.count'), children: d.versions.length },
              ]}
            />
            <Versions data={d} />
          </>
        )}
      </QueryState>
    </Card>
  );
}

/** A filing, read only: its versions side by side, the fields that changed between them highlighted. */
export default function FilingVersionsPage() {
  return (
    <FilingPage>
      <FilingVersionsContent />
    </FilingPage>
  );
}
