import { EditOutlined, FileAddOutlined, SafetyCertificateOutlined, DiffOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Descriptions, Flex, Input, Modal, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { FileDownload } from '../../../components/file-download';
import { QueryState, errorText } from '../../../components/query-state';
import { useDocumentTitle } from '../../../components/use-document-title';
import { useCachedQuery } from '../../../lib/cache/cached-copy';
import { useFeatureTranslation } from '../../../lib/i18n/feature-namespaces';
import { formatDate } from '../../../lib/i18n/format';
import { one } from '../../../lib/portal/entities';
import { useSeasons, type Season } from '../../../lib/portal/seasons';
import { iso, ltr, str } from '../../../lib/portal/text';
import { STORAGE_KEYS } from '../../../lib/session/keys';
import { useSession } from '../../../lib/session/use-session';
import { amendForm5, fetchForm5List, form5Keys, startForm5, type Form5 } from '../api/form5-api';

const STATUS_COLOR: Record<string, string> = { draft: 'blue', certified: 'green', superseded: 'default' };

interface SeasonRow {
  season: Season;
  versions: Form5[];
}

/** Seasons (newest first) with their form 5 versions (oldest first; the last is the current one). */
export function groupBySeason(seasons: Season[], forms: Form5[]): SeasonRow[] {
  return seasons.map((season) => ({
    season,
    versions: forms
      .filter((f) => one(f, 'field_season')?.id === season.id)
      .sort(
        (a, b) =>
          Number(a.field_amendment_number ?? 0) - Number(b.field_amendment_number ?? 0) ||
          str(a.created).localeCompare(str(b.created)),
      ),
  }));
}

export default function YearEndPage() {
  const { t, i18n } = useFeatureTranslation(['yearEnd', 'portalData']);
  useDocumentTitle(t('yearEnd:title'));
  const navigate = useNavigate();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const { profile } = useSession();
  const handlerId = profile.handlerUid;
  const seasons = useSeasons();
  const forms = useCachedQuery<Form5[]>({
    queryKey: form5Keys.list(handlerId ?? ''),
    cache: handlerId ? { specKey: STORAGE_KEYS.yearEndForms } : null,
    enabled: !!handlerId,
    queryFn: (signal) => fetchForm5List(handlerId!, signal),
  });

  const start = useMutation({
    mutationFn: (seasonId: string) => startForm5(seasonId, handlerId!),
    onSuccess: (form) => {
      void queryClient.invalidateQueries({ queryKey: form5Keys.list(handlerId ?? '') });
      navigate(`/dashboard/year-end/${form.id}`);
    },
    onError: (e) => message.error(errorText(e)),
  });
  // An amendment says why (its version, PDF and the council's board show the reason): asked in a dialog first.
  const [amending, setAmending] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const amend = useMutation({
    mutationFn: (id: string) => amendForm5(id, reason.trim()),
    onSuccess: (form) => {
      setAmending(null);
      setReason('');
      void queryClient.invalidateQueries({ queryKey: form5Keys.list(handlerId ?? '') });
      navigate(`/dashboard/form5AmendCertification/${form.id}`);
    },
  });

  const lang = i18n.language;
  if (!handlerId)
    return (
      <Card>
        <Typography.Title level={1} style={{ fontSize: 26 }}>
          {t('yearEnd:title')}
        </Typography.Title>
        <Alert type="info" message={t('portalData:noHandler')} />
      </Card>
    );

  const combined = {
    ...forms,
    data: forms.data && seasons.data ? groupBySeason(seasons.data, forms.data) : undefined,
    error: forms.error ?? seasons.error,
    refetch: () => Promise.all([forms.refetch(), seasons.refetch()]),
  };

  return (
    <Card>
      <Typography.Title level={1} style={{ fontSize: 26 }}>
        {t('yearEnd:title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('yearEnd:intro')}</Typography.Paragraph>
      <QueryState query={combined} isEmpty={(rows) => rows.length === 0} emptyText={t('yearEnd:empty')}>
        {(rows) => (
          <Flex vertical gap={16}>
            {rows.map(({ season, versions }) => {
              const current = versions[versions.length - 1];
              const status = str(current?.field_form_status);
              return (
                <Card
                  key={season.id}
                  size="small"
                  type="inner"
                  title={<span>{t('yearEnd:seasonTitle', { season: ltr(season.title) })}</span>}
                  extra={
                    current ? (
                      <Tag color={STATUS_COLOR[status]}>
                        {t(`portalData:status.${status}`, { defaultValue: status })}
                      </Tag>
                    ) : (
                      <Tag>{t('yearEnd:notStarted')}</Tag>
                    )
                  }
                  data-testid={`season-${str(season.title)}`}
                >
                  <Descriptions
                    size="small"
                    column={{ xs: 1, sm: 2, md: 3 }}
                    items={[
                      {
                        key: 'due',
                        label: t('yearEnd:dueDate'),
                        children: formatDate(str(season.field_reporting_due_date), lang) || '—',
                      },
                      ...(current
                        ? [
                            {
                              key: 'version',
                              label: t('yearEnd:version'),
                              children:
                                Number(current.field_amendment_number ?? 0) === 0
                                  ? t('yearEnd:original')
                                  : t('yearEnd:amendmentN', { n: current.field_amendment_number }),
                            },
                            {
                              key: 'cert',
                              label: t('yearEnd:certified'),
                              children: current.field_certification_datetime
                                ? t('yearEnd:certifiedBy', {
                                    name: iso(current.field_certification_name),
                                    date: iso(
                                      formatDate(str(current.field_certification_datetime), lang, {
                                        dateStyle: 'medium',
                                        timeStyle: 'short',
                                      }),
                                    ),
                                  })
                                : '—',
                            },
                          ]
                        : []),
                    ]}
                  />
                  <Space wrap style={{ marginTop: 12 }}>
                    {!current ? (
                      <Button
                        type="primary"
                        icon={<FileAddOutlined />}
                        loading={start.isPending && start.variables === season.id}
                        onClick={() => start.mutate(season.id)}
                      >
                        {t('yearEnd:start')}
                      </Button>
                    ) : null}
                    {current && status === 'draft' ? (
                      <>
                        <Button
                          type="primary"
                          icon={<EditOutlined />}
                          onClick={() => navigate(`/dashboard/year-end/${current.id}`)}
                        >
                          {t('yearEnd:edit')}
                        </Button>
                        <Button
                          icon={<SafetyCertificateOutlined />}
                          onClick={() =>
                            navigate(
                              `/dashboard/${Number(current.field_amendment_number ?? 0) > 0 ? 'form5AmendCertification' : 'form5Certification'}/${current.id}`,
                            )
                          }
                        >
                          {t('yearEnd:certify')}
                        </Button>
                      </>
                    ) : null}
                    {current && status === 'certified' ? (
                      <Button
                        icon={<DiffOutlined />}
                        loading={amend.isPending && amend.variables === current.id}
                        onClick={() => setAmending(current.id)}
                      >
                        {t('yearEnd:amend')}
                      </Button>
                    ) : null}
                    {versions
                      .filter((v) => v.field_form_5_pdf)
                      .map((v) => (
                        <FileDownload
                          key={v.id}
                          file={v.field_form_5_pdf}
                          label={`${str(v.title)} ${Number(v.field_amendment_number ?? 0) === 0 ? t('yearEnd:original') : t('yearEnd:amendmentN', { n: v.field_amendment_number })}`}
                          text={
                            versions.length > 1
                              ? t('yearEnd:pdfOf', {
                                  version:
                                    Number(v.field_amendment_number ?? 0) === 0
                                      ? t('yearEnd:original')
                                      : t('yearEnd:amendmentN', { n: v.field_amendment_number }),
                                })
                              : undefined
                          }
                        />
                      ))}
                  </Space>
                </Card>
              );
            })}
          </Flex>
        )}
      </QueryState>
      <Modal
        open={amending !== null}
        title={t('yearEnd:amendDialog.title')}
        okText={t('yearEnd:amendDialog.ok')}
        okButtonProps={{ disabled: !reason.trim() }}
        confirmLoading={amend.isPending}
        onOk={() => amending && amend.mutate(amending)}
        onCancel={() => {
          setAmending(null);
          amend.reset();
        }}
      >
        <Typography.Paragraph>{t('yearEnd:amendDialog.text')}</Typography.Paragraph>
        <label htmlFor="form5-amend-reason" style={{ display: 'block', marginBottom: 4 }}>
          {t('yearEnd:cert.reason')}
        </label>
        <Input.TextArea
          id="form5-amend-reason"
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          maxLength={1000}
          rows={3}
        />
        {amend.error ? (
          <Alert style={{ marginTop: 12 }} type="error" showIcon message={errorText(amend.error)} />
        ) : null}
      </Modal>
    </Card>
  );
}
