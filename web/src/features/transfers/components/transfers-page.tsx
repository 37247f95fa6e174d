import { FileAddOutlined, StopOutlined, EditOutlined, SwapRightOutlined, SwapLeftOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Descriptions,
  Flex,
  Grid,
  Input,
  Modal,
  Radio,
  Select,
  Space,
  Switch,
  Tag,
  Typography,
} from 'antd';
import { useEffect, useId, useState } from 'react';
import { RestoredNotice } from '../../../components/autosave/autosave-bar';
import { CertificationStep, useCertificationStep } from '../../../components/certifier-fields';
import {
  readUnsavedCopy,
  removeUnsavedCopy,
  unsavedCopyKey,
  writeUnsavedCopy,
} from '../../../components/autosave/unsaved-copy';
import { FileDownload } from '../../../components/file-download';
import { QueryState, errorText } from '../../../components/query-state';
import { useDocumentTitle } from '../../../components/use-document-title';
import { useCachedQuery } from '../../../lib/cache/cached-copy';
import { useFeatureTranslation } from '../../../lib/i18n/feature-namespaces';
import { formatDate } from '../../../lib/i18n/format';
import { one } from '../../../lib/portal/entities';
import { currentOrNewestSeason, useSeasons, type Season } from '../../../lib/portal/seasons';
import { iso, str } from '../../../lib/portal/text';
import { STORAGE_KEYS } from '../../../lib/session/keys';
import { useSession } from '../../../lib/session/use-session';
import { fetchForm4List, fileForm4, form4Keys, patchForm4, type Form4 } from '../api/form4-api';
import { HandlerPicker } from '../../../components/handler-picker';

const monthLabel = (month: string, lang: string) =>
  month ? formatDate(`${month}-01`, lang, { month: 'long', year: 'numeric' }) : '—';

function TransferCard({
  form,
  ownId,
  onCountersign,
  onCancel,
}: {
  form: Form4;
  ownId: string;
  onCountersign: (f: Form4) => void;
  onCancel: (f: Form4) => void;
}) {
  const { t, i18n } = useFeatureTranslation(['transfers', 'portalData']);
  const lang = i18n.language;
  const from = one(form, 'field_transferring_handler');
  const to = one(form, 'field_receiving_handler');
  const weTransfer = from?.id === ownId;
  const cancelled = form.field_form_activity === 'cancelled';
  const certified = form.field_form_status === 'certified';
  const countersigned = !!form.field_receiving_certification_name;
  const dt = (v: unknown) => formatDate(str(v), lang, { dateStyle: 'medium', timeStyle: 'short' });
  const rtl = lang === 'sa';
  const screens = Grid.useBreakpoint();
  // "Name (title), date": a signature given before titles were asked for has none.
  const signedText = (name: unknown, title: unknown, at: unknown) =>
    str(title)
      ? t('transfers:signedWithTitle', { name: iso(name), title: iso(title), date: iso(dt(at)) })
      : t('transfers:signed', { name: iso(name), date: iso(dt(at)) });
  return (
    <Card
      size="small"
      type="inner"
      title={
        <div style={{ whiteSpace: 'normal', padding: '8px 0' }}>
          <div>
            {str(from?.title) || '—'} <span aria-label={t('transfers:to')}>{rtl ? '←' : '→'}</span>{' '}
            {str(to?.title) || '—'}
          </div>
          <Space wrap size={4} style={{ marginTop: 6, fontWeight: 'normal' }}>
            <Tag
              color={weTransfer ? 'geekblue' : 'purple'}
              icon={weTransfer !== rtl ? <SwapRightOutlined /> : <SwapLeftOutlined />}
            >
              {weTransfer ? t('transfers:youTransfer') : t('transfers:youReceive')}
            </Tag>
            {cancelled ? (
              <Tag color="red">{t('transfers:cancelled')}</Tag>
            ) : countersigned ? (
              <Tag color="green">{t('transfers:signedByBoth')}</Tag>
            ) : (
              <Tag color="orange">{t('transfers:awaitingReceiver')}</Tag>
            )}
          </Space>
        </div>
      }
    >
      <Descriptions
        size="small"
        layout={screens.sm ? 'horizontal' : 'vertical'}
        // Two columns below 1200 px: the signatures (name, title, date and time) need the width.
        column={{ xs: 1, sm: 2, md: 2, lg: 2, xl: 3, xxl: 3 }}
        items={[
          {
            key: 'season',
            label: t('transfers:season'),
            children: str(one(form, 'field_season')?.title) || '—',
          },
          {
            key: 'resp',
            label: t('transfers:responsible'),
            children:
              form.field_responsible_handler === 'receiving'
                ? t('transfers:responsibleReceiving')
                : t('transfers:responsibleTransferring'),
          },
          {
            key: 'month',
            label: t('transfers:firstMonth'),
            children: monthLabel(str(form.field_first_transfer_month), lang),
          },
          // 986.162: due by the 10th of the month after the first transfer (the server moves it past weekends and
          // holidays).
          {
            key: 'due',
            label: t('transfers:dueBy'),
            children: form.field_due_date ? formatDate(str(form.field_due_date), lang) : '—',
          },
          {
            key: 'cert',
            label: t('transfers:certifiedBy'),
            children: certified
              ? signedText(
                  form.field_certification_name,
                  form.field_certification_title,
                  form.field_certification_datetime,
                )
              : '—',
          },
          {
            key: 'counter',
            label: t('transfers:countersignedBy'),
            children: countersigned
              ? signedText(
                  form.field_receiving_certification_name,
                  form.field_receiving_certification_title,
                  form.field_receiving_certification_datetime,
                )
              : t('transfers:notYet'),
          },
          ...(cancelled
            ? [{ key: 'cancelled', label: t('transfers:cancelledOn'), children: dt(form.field_cancelled_datetime) }]
            : []),
        ]}
      />
      <Space wrap style={{ marginTop: 8 }}>
        {!cancelled && !weTransfer && certified && !countersigned ? (
          <Button type="primary" icon={<EditOutlined />} onClick={() => onCountersign(form)}>
            {t('transfers:countersign')}
          </Button>
        ) : null}
        <FileDownload file={form.field_form_4_pdf} label={str(form.title)} />
        {!cancelled ? (
          <Button danger icon={<StopOutlined />} onClick={() => onCancel(form)}>
            {t('transfers:cancel')}
          </Button>
        ) : null}
      </Space>
    </Card>
  );
}

/** The new agreement's typed values as this browser keeps them. */
interface KeptTransfer {
  receivingId?: string;
  seasonId: string;
  responsible: 'transferring' | 'receiving';
  month: string;
  name: string;
  title: string;
}

function NewTransferModal({
  open,
  onClose,
  seasons,
  defaultSeasonId,
}: {
  open: boolean;
  onClose: () => void;
  seasons: Season[];
  defaultSeasonId: string;
}) {
  // The picker's texts (directory) are loaded with the modal's, so that opening it suspends nothing.
  const { t, i18n } = useFeatureTranslation(['transfers', 'portalData', 'directory']);
  const { profile } = useSession();
  const queryClient = useQueryClient();
  const { message } = App.useApp();
  const ids = { recv: useId(), season: useId(), month: useId(), resp: useId() };
  const [receivingId, setReceivingId] = useState<string | undefined>();
  const [seasonId, setSeasonId] = useState(defaultSeasonId);
  const [responsible, setResponsible] = useState<'transferring' | 'receiving'>('transferring');
  const [month, setMonth] = useState('');
  const certification = useCertificationStep();
  const { name, title, setName, setTitle, setAttest } = certification;
  // What was typed is kept in this browser until the agreement is filed: a reload, a closed tab or a portal that
  // cannot be reached loses nothing (the statement is ticked again, on purpose).
  const copyKey = profile.username ? unsavedCopyKey(profile.username, 'apc_form_4:new') : null;
  const [restoredAt, setRestoredAt] = useState<number | null>(null);
  useEffect(() => {
    if (!open) return;
    setSeasonId(defaultSeasonId);
    const copy = copyKey ? readUnsavedCopy<KeptTransfer>(copyKey) : null;
    if (!copy) return;
    const kept = copy.values;
    if (kept.receivingId) setReceivingId(kept.receivingId);
    if (kept.seasonId && seasons.some((s) => s.id === kept.seasonId)) setSeasonId(kept.seasonId);
    if (kept.responsible) setResponsible(kept.responsible);
    if (kept.month) setMonth(kept.month);
    if (kept.name) setName(kept.name);
    if (kept.title) setTitle(kept.title);
    setRestoredAt(copy.at);
  }, [open, defaultSeasonId, profile.username]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => {
    if (!open || !copyKey || !(receivingId || month || title)) return;
    writeUnsavedCopy<KeptTransfer>(copyKey, { receivingId, seasonId, responsible, month, name, title }, Date.now());
  }, [open, copyKey, receivingId, seasonId, responsible, month, name, title]);
  const discard = () => {
    if (copyKey) removeUnsavedCopy(copyKey);
    setRestoredAt(null);
    setReceivingId(undefined);
    setMonth('');
    setTitle('');
    setResponsible('transferring');
    setSeasonId(defaultSeasonId);
  };
  const file = useMutation({
    mutationFn: () =>
      fileForm4({
        transferringId: profile.handlerUid!,
        receivingId: receivingId!,
        seasonId,
        responsible,
        firstMonth: month,
        name: name.trim(),
        title: title.trim(),
      }),
    onSuccess: () => {
      message.success(t('transfers:filed'));
      if (copyKey) removeUnsavedCopy(copyKey);
      setRestoredAt(null);
      void queryClient.invalidateQueries({ queryKey: form4Keys.all });
      setReceivingId(undefined);
      setMonth('');
      setAttest(false);
      file.reset();
      onClose();
    },
  });
  const season = seasons.find((s) => s.id === seasonId);
  const startM = str(season?.field_season_start_date).slice(0, 7);
  const endM = str(season?.field_season_end_date).slice(0, 7);
  const monthOk = /^\d{4}-\d{2}$/.test(month) && (!startM || month >= startM) && (!endM || month <= endM);
  const ready = !!receivingId && !!seasonId && monthOk && certification.ready;
  const lbl = (id: string, text: string) => (
    <label htmlFor={id} style={{ display: 'block', margin: '12px 0 4px', fontWeight: 500 }}>
      {text}
    </label>
  );
  return (
    <Modal
      open={open}
      title={t('transfers:newTitle')}
      onCancel={onClose}
      okText={t('transfers:fileAndCertify')}
      cancelText={t('portalData:cancel')}
      okButtonProps={{ disabled: !ready }}
      confirmLoading={file.isPending}
      onOk={() => file.mutate()}
      destroyOnHidden
    >
      <RestoredNotice at={restoredAt} onDiscard={discard} />
      <Typography.Paragraph type="secondary">
        {t('transfers:newIntro', { handler: profile.handlerName ?? '' })}
      </Typography.Paragraph>
      {lbl(ids.recv, t('transfers:receivingHandler'))}
      <HandlerPicker
        id={ids.recv}
        value={receivingId}
        onChange={setReceivingId}
        exclude={profile.handlerUid}
        placeholder={t('transfers:chooseHandler')}
      />
      {lbl(ids.season, t('transfers:season'))}
      <Select
        id={ids.season}
        style={{ width: '100%' }}
        value={seasonId}
        onChange={setSeasonId}
        options={seasons.map((s) => ({ value: s.id, label: str(s.title) }))}
      />
      {lbl(ids.resp, t('transfers:responsible'))}
      <Radio.Group id={ids.resp} value={responsible} onChange={(e) => setResponsible(e.target.value)}>
        <Space direction="vertical">
          <Radio value="transferring">{t('transfers:responsibleTransferringLong')}</Radio>
          <Radio value="receiving">{t('transfers:responsibleReceivingLong')}</Radio>
        </Space>
      </Radio.Group>
      {lbl(ids.month, t('transfers:firstMonth'))}
      <Input
        id={ids.month}
        type="month"
        value={month}
        min={startM}
        max={endM}
        onChange={(e) => setMonth(e.target.value)}
        status={month && !monthOk ? 'error' : undefined}
      />
      {month && !monthOk ? (
        <Typography.Text type="danger" role="alert">
          {t('transfers:monthOutside', { season: str(season?.title) })}
        </Typography.Text>
      ) : null}
      <div style={{ marginTop: 16 }}>
        <CertificationStep handler={profile.handlerName ?? ''} {...certification.step} headingLevel={3} />
      </div>
      {file.error ? (
        <Alert
          type="error"
          showIcon
          role="alert"
          style={{ marginTop: 12 }}
          message={t('portalData:saveFailed')}
          description={errorText(file.error)}
        />
      ) : null}
      <div style={{ height: 4 }} aria-hidden data-lang={i18n.language} />
    </Modal>
  );
}

export default function TransfersPage() {
  const { t } = useFeatureTranslation(['transfers', 'portalData']);
  useDocumentTitle(t('transfers:title'));
  const { profile } = useSession();
  const { modal, message } = App.useApp();
  const queryClient = useQueryClient();
  const ownId = profile.handlerUid ?? '';
  const seasons = useSeasons();
  const current = currentOrNewestSeason(seasons.data);
  const [seasonId, setSeasonId] = useState<string | null>(null);
  const sid = seasonId ?? current?.id ?? '';
  const [showCancelled, setShowCancelled] = useState(false);
  const [filing, setFiling] = useState(false);
  const [countersigning, setCountersigning] = useState<Form4 | null>(null);
  // The receiving handler's countersignature needs a title (the server refuses one without).
  const countersignature = useCertificationStep({ titleRequired: true });

  const active = useCachedQuery<Form4[]>({
    queryKey: form4Keys.list(ownId, sid, 'active'),
    cache:
      ownId && sid
        ? sid === current?.id
          ? { specKey: STORAGE_KEYS.ihTransfers }
          : { listKey: `transfers:${sid}` }
        : null,
    enabled: !!ownId && !!sid,
    queryFn: (signal) => fetchForm4List(ownId, sid, 'active', signal),
  });
  const cancelled = useCachedQuery<Form4[]>({
    queryKey: form4Keys.list(ownId, sid, 'cancelled'),
    cache: ownId && sid ? { listKey: `transfers-cancelled:${sid}` } : null,
    enabled: !!ownId && !!sid && showCancelled,
    queryFn: (signal) => fetchForm4List(ownId, sid, 'cancelled', signal),
  });

  const patch = useMutation({
    mutationFn: ({ form, attrs }: { form: Form4; attrs: Record<string, unknown> }) => patchForm4(form, attrs),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: form4Keys.all }),
  });

  const onCancel = (form: Form4) => {
    modal.confirm({
      title: t('transfers:cancelTitle'),
      content: t('transfers:cancelText', { title: str(form.title) }),
      okText: t('transfers:cancelOk'),
      okButtonProps: { danger: true },
      cancelText: t('transfers:keep'),
      onOk: async () => {
        try {
          await patch.mutateAsync({ form, attrs: { field_form_activity: 'cancelled' } });
          message.success(t('transfers:cancelDone'));
        } catch (e) {
          message.error(errorText(e));
        }
      },
    });
  };

  if (!ownId)
    return (
      <Card>
        <Typography.Title level={1} style={{ fontSize: 26 }}>
          {t('transfers:title')}
        </Typography.Title>
        <Alert type="info" message={t('portalData:noHandler')} />
      </Card>
    );

  const list = (q: typeof active, emptyText: string) => (
    <QueryState query={q} isEmpty={(rows) => rows.length === 0} emptyText={emptyText}>
      {(rows) => (
        <Flex vertical gap={12}>
          {rows.map((f) => (
            <TransferCard
              key={f.id}
              form={f}
              ownId={ownId}
              onCancel={onCancel}
              onCountersign={(x) => {
                countersignature.setAttest(false);
                setCountersigning(x);
              }}
            />
          ))}
        </Flex>
      )}
    </QueryState>
  );

  return (
    <Card>
      <Flex justify="space-between" align="center" wrap gap={12} style={{ marginBottom: 8 }}>
        <Typography.Title level={1} style={{ fontSize: 26, margin: 0 }}>
          {t('transfers:title')}
        </Typography.Title>
        <Button type="primary" icon={<FileAddOutlined />} onClick={() => setFiling(true)} disabled={!seasons.data}>
          {t('transfers:new')}
        </Button>
      </Flex>
      <Typography.Paragraph type="secondary">{t('transfers:intro')}</Typography.Paragraph>
      <Flex gap={16} wrap align="center" style={{ marginBottom: 16 }}>
        <Space>
          <label htmlFor="transfers-season">{t('transfers:season')}</label>
          <Select
            id="transfers-season"
            style={{ minWidth: 140 }}
            value={sid || undefined}
            onChange={setSeasonId}
            loading={seasons.isPending}
            options={(seasons.data ?? []).map((s) => ({ value: s.id, label: str(s.title) }))}
          />
        </Space>
        <Space>
          <Switch id="transfers-cancelled" checked={showCancelled} onChange={setShowCancelled} />
          <label htmlFor="transfers-cancelled">{t('transfers:showCancelled')}</label>
        </Space>
      </Flex>
      {list(active, t('transfers:empty'))}
      {showCancelled ? (
        <section aria-labelledby="cancelled-heading" style={{ marginTop: 24 }}>
          <Typography.Title level={2} id="cancelled-heading" style={{ fontSize: 20 }}>
            {t('transfers:cancelledHeading')}
          </Typography.Title>
          {list(cancelled, t('transfers:emptyCancelled'))}
        </section>
      ) : null}
      {seasons.data ? (
        <NewTransferModal open={filing} onClose={() => setFiling(false)} seasons={seasons.data} defaultSeasonId={sid} />
      ) : null}
      <Modal
        open={!!countersigning}
        title={t('transfers:countersignTitle')}
        okText={t('transfers:countersign')}
        cancelText={t('portalData:cancel')}
        okButtonProps={{ disabled: !countersignature.ready }}
        confirmLoading={patch.isPending}
        onCancel={() => setCountersigning(null)}
        onOk={async () => {
          try {
            await patch.mutateAsync({
              form: countersigning!,
              attrs: {
                field_receiving_certified: true,
                field_receiving_certification_name: countersignature.name.trim(),
                field_receiving_certification_title: countersignature.title.trim(),
              },
            });
            message.success(t('transfers:countersigned'));
            setCountersigning(null);
          } catch (e) {
            message.error(errorText(e));
          }
        }}
      >
        <Typography.Paragraph>
          {t('transfers:countersignText', {
            // Isolated: a Latin name ending in a period would otherwise carry the Arabic sentence's end with it.
            from: iso(one(countersigning, 'field_transferring_handler')?.title),
          })}
        </Typography.Paragraph>
        <CertificationStep handler={profile.handlerName ?? ''} {...countersignature.step} headingLevel={3} />
      </Modal>
    </Card>
  );
}
