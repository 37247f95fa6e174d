import {
  CalendarOutlined,
  CheckCircleOutlined,
  EditOutlined,
  FolderOpenOutlined,
  LockOutlined,
  PlusOutlined,
  UnlockOutlined,
} from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  DatePicker,
  Descriptions,
  Form,
  InputNumber,
  Modal,
  Popconfirm,
  Select,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs from 'dayjs';
import { useState } from 'react';
import { QueryState } from '../../../components/query-state';
import { useDocumentTitle } from '../../../components/use-document-title';
import { formatDate, formatNumber } from '../../../lib/i18n/format';
import { useFeatureTranslation } from '../../../lib/i18n/feature-namespaces';
import { councilKeys, queryKeys } from '../../../lib/query-keys';
import {
  calendarQuery,
  createSeason,
  seasonListQuery,
  makeSeasonCurrent,
  setSeasonClosed,
  monthToOpen,
  nextMonth,
  openPeriod,
  setPeriodDueDate,
  setYearEndDueDate,
  type Calendar,
  type CalendarPeriod,
  type Season,
} from '../api/council-admin-api';
import { failureText, FormError, PageHeading, showServerErrors } from './shared';

const monthLabel = (month: string, lang: string) => formatDate(`${month}-01`, lang, { month: 'long', year: 'numeric' });
const dateLabel = (date: string, lang: string) => formatDate(date, lang, { dateStyle: 'medium' });

/** A due date being changed: a month's (forms 1-3) or a season's year-end (form 5). */
type DueDateEdit = { kind: 'period'; period: CalendarPeriod } | { kind: 'season'; season: Season };

/** Seasons (crop years) and their calendar: create a season, make it current, open months, move due dates. */
export default function SeasonsPage() {
  const { t, i18n } = useFeatureTranslation(['councilAdmin', 'portalData']);
  useDocumentTitle(t('seasons.title'));
  const { message } = App.useApp();
  const client = useQueryClient();
  const lang = i18n.language;
  const seasons = useQuery(seasonListQuery());
  const [chosen, setChosen] = useState<string | null>(null);
  const current = seasons.data?.find((s) => s.current) ?? seasons.data?.[0] ?? null;
  const shownId = chosen ?? current?.id ?? null;
  const [creating, setCreating] = useState(false);
  const [dueDate, setDueDate] = useState<DueDateEdit | null>(null);
  // The seasons list the handlers' pages read (JSON:API) changes too: refresh it with ours.
  const refresh = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: councilKeys.all }),
      client.invalidateQueries({ queryKey: queryKeys.seasons }),
    ]);

  const makeCurrent = useMutation({
    mutationFn: (s: Season) => makeSeasonCurrent(s.id),
    onSuccess: (s) => {
      message.success(t('seasons.madeCurrent', { title: s.title }));
      setChosen(s.id);
      return refresh();
    },
    onError: (error) => message.error(failureText(error)),
  });

  const closeOrReopen = useMutation({
    mutationFn: (s: Season) => setSeasonClosed(s.id, !s.closed),
    onSuccess: (s) => {
      message.success(t(s.closed ? 'seasons.closedDone' : 'seasons.reopenedDone', { title: s.title }));
      return refresh();
    },
    onError: (error) => message.error(failureText(error)),
  });

  const columns: ColumnsType<Season> = [
    {
      key: 'title',
      title: t('seasons.season'),
      render: (_, s) => (
        <Space wrap size={4}>
          <strong>{s.title}</strong>
          {s.current ? <Tag color="green">{t('seasons.current')}</Tag> : null}
          {s.closed ? <Tag icon={<LockOutlined aria-hidden="true" />}>{t('seasons.closed')}</Tag> : null}
        </Space>
      ),
    },
    {
      key: 'dates',
      title: t('seasons.dates'),
      render: (_, s) => (
        <span
          style={{ whiteSpace: 'nowrap' }}
        >{`${dateLabel(s.start_date, lang)} – ${dateLabel(s.end_date, lang)}`}</span>
      ),
    },
    {
      key: 'yearEnd',
      title: t('seasons.yearEndDue'),
      render: (_, s) => (
        <Space size={4}>
          <span style={{ whiteSpace: 'nowrap' }}>{dateLabel(s.reporting_due_date, lang)}</span>
          <Button
            size="small"
            type="text"
            icon={<EditOutlined />}
            aria-label={t('seasons.changeYearEndOf', { title: s.title })}
            onClick={() => setDueDate({ kind: 'season', season: s })}
          />
        </Space>
      ),
    },
    {
      key: 'actions',
      title: t('actions'),
      render: (_, s) => (
        <Space wrap size={4}>
          <Button
            size="small"
            icon={<CalendarOutlined aria-hidden="true" />}
            onClick={() => setChosen(s.id)}
            disabled={s.id === shownId}
            aria-label={t('seasons.showCalendarOf', { title: s.title })}
          >
            {t('seasons.showCalendar')}
          </Button>
          {/* Keyed by what it does: a fresh popup per state, so the finished "Close" leaves no hidden busy icon
              (announced as "loading") in the "Reopen" button that follows it. */}
          <Popconfirm
            key={s.closed ? 'reopen' : 'close'}
            title={t(s.closed ? 'seasons.reopenTitle' : 'seasons.closeTitle', { title: s.title })}
            description={
              <div style={{ maxWidth: 300 }}>{t(s.closed ? 'seasons.reopenText' : 'seasons.closeText')}</div>
            }
            okText={t(s.closed ? 'seasons.reopen' : 'seasons.close')}
            cancelText={t('cancel')}
            onConfirm={() => closeOrReopen.mutateAsync(s).catch(() => undefined)}
          >
            <Button
              size="small"
              icon={s.closed ? <UnlockOutlined aria-hidden="true" /> : <LockOutlined aria-hidden="true" />}
            >
              {t(s.closed ? 'seasons.reopen' : 'seasons.close')}
            </Button>
          </Popconfirm>
          {s.current ? null : (
            <Popconfirm
              title={t('seasons.makeCurrentTitle', { title: s.title })}
              description={<div style={{ maxWidth: 300 }}>{t('seasons.makeCurrentText')}</div>}
              okText={t('seasons.makeCurrent')}
              cancelText={t('cancel')}
              onConfirm={() => makeCurrent.mutateAsync(s).catch(() => undefined)}
            >
              <Button
                size="small"
                icon={<CheckCircleOutlined aria-hidden="true" />}
                aria-label={t('seasons.makeCurrentWho', { title: s.title })}
              >
                {t('seasons.makeCurrent')}
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Card>
        <PageHeading
          title={t('seasons.title')}
          intro={t('seasons.intro')}
          actions={
            <Button type="primary" icon={<PlusOutlined aria-hidden="true" />} onClick={() => setCreating(true)}>
              {t('seasons.new')}
            </Button>
          }
        />
        <QueryState query={seasons} isEmpty={(l) => l.length === 0} emptyText={t('seasons.empty')}>
          {(list) => (
            <Table<Season>
              rowKey="id"
              columns={columns}
              dataSource={list}
              pagination={false}
              scroll={{ x: 760 }}
              rowClassName={(s) => (s.id === shownId ? 'ant-table-row-selected' : '')}
            />
          )}
        </QueryState>
      </Card>
      {shownId ? (
        <CalendarCard
          seasonId={shownId}
          onEditDueDate={(period) => setDueDate({ kind: 'period', period })}
          onChanged={refresh}
        />
      ) : null}
      <NewSeasonDialog
        open={creating}
        seasons={seasons.data ?? []}
        onClose={() => setCreating(false)}
        onCreated={(s) => {
          setChosen(s.id);
          return refresh();
        }}
      />
      <DueDateDialog edit={dueDate} onClose={() => setDueDate(null)} onSaved={refresh} />
    </Space>
  );
}

/** A season's calendar: its months with due dates and packages, the year-end due date, and "open a month". */
function CalendarCard({
  seasonId,
  onEditDueDate,
  onChanged,
}: {
  seasonId: string;
  onEditDueDate: (p: CalendarPeriod) => void;
  onChanged: () => unknown;
}) {
  const { t, i18n } = useFeatureTranslation(['councilAdmin', 'portalData']);
  const lang = i18n.language;
  const calendar = useQuery(calendarQuery(seasonId));
  const columns: ColumnsType<CalendarPeriod> = [
    { key: 'month', title: t('seasons.month'), render: (_, p) => <strong>{monthLabel(p.period_month, lang)}</strong> },
    {
      key: 'due',
      title: t('seasons.dueDate'),
      render: (_, p) => (
        <Space size={4}>
          <span style={{ whiteSpace: 'nowrap' }}>{dateLabel(p.due_date, lang)}</span>
          <Button
            size="small"
            type="text"
            icon={<EditOutlined />}
            aria-label={t('seasons.changeDueOf', { month: monthLabel(p.period_month, lang) })}
            onClick={() => onEditDueDate(p)}
          />
        </Space>
      ),
    },
    { key: 'packages', title: t('seasons.packages'), align: 'end', render: (_, p) => formatNumber(p.packages, lang) },
  ];
  return (
    <Card>
      <QueryState query={calendar}>
        {(c) => (
          <>
            <Typography.Title level={2} style={{ fontSize: 20, marginTop: 0 }}>
              {t('seasons.calendarOf', { title: c.season.title })}
            </Typography.Title>
            <Descriptions size="small" column={{ xs: 1, md: 2 }} style={{ marginBottom: 16 }}>
              <Descriptions.Item
                label={t('seasons.dates')}
              >{`${dateLabel(c.season.start_date, lang)} – ${dateLabel(c.season.end_date, lang)}`}</Descriptions.Item>
              <Descriptions.Item label={t('seasons.yearEndDue')}>
                {dateLabel(c.year_end_due_date, lang)}
              </Descriptions.Item>
            </Descriptions>
            <OpenMonth calendar={c} onOpened={onChanged} />
            <Table<CalendarPeriod>
              rowKey="id"
              columns={columns}
              dataSource={c.periods}
              pagination={false}
              scroll={{ x: 480 }}
              locale={{ emptyText: t('seasons.noMonths') }}
            />
          </>
        )}
      </QueryState>
    </Card>
  );
}

/** The months of a season not open yet; the first of them after the last open month is proposed. */
function unopenedMonths(c: Calendar): string[] {
  const open = new Set(c.periods.map((p) => p.period_month));
  const out: string[] = [];
  for (let m = c.season.start_date.slice(0, 7); m <= c.season.end_date.slice(0, 7); m = nextMonth(m))
    if (!open.has(m)) out.push(m);
  return out;
}

function OpenMonth({ calendar, onOpened }: { calendar: Calendar; onOpened: () => unknown }) {
  const { t, i18n } = useFeatureTranslation('councilAdmin');
  const { message } = App.useApp();
  const lang = i18n.language;
  const months = unopenedMonths(calendar);
  const proposed = monthToOpen(calendar.season, calendar.periods);
  const [month, setMonth] = useState<string | null>(null);
  const chosen =
    month && months.includes(month) ? month : proposed && months.includes(proposed) ? proposed : (months[0] ?? null);
  const open = useMutation({
    mutationFn: (m: string) => openPeriod(m),
    onSuccess: (r, m) => {
      message.success(t('seasons.opened', { month: monthLabel(m, lang), count: r.packages_created }));
      setMonth(null);
      return onOpened();
    },
    onError: (error) => message.error(failureText(error)),
  });
  if (!chosen) return <Typography.Paragraph type="secondary">{t('seasons.allOpen')}</Typography.Paragraph>;
  return (
    <Space wrap align="end" style={{ marginBottom: 16 }}>
      <div>
        <label htmlFor="open-month" style={{ display: 'block', marginBottom: 4 }}>
          {t('seasons.monthToOpen')}
        </label>
        <Select
          id="open-month"
          showSearch
          optionFilterProp="label"
          style={{ width: 220 }}
          value={chosen}
          onChange={setMonth}
          options={months.map((m) => ({ value: m, label: monthLabel(m, lang) }))}
        />
      </div>
      <Popconfirm
        title={t('seasons.openTitle', { month: monthLabel(chosen, lang) })}
        description={<div style={{ maxWidth: 320 }}>{t('seasons.openText')}</div>}
        okText={t('seasons.open')}
        cancelText={t('cancel')}
        onConfirm={() => open.mutateAsync(chosen).catch(() => undefined)}
      >
        <Button type="primary" icon={<FolderOpenOutlined aria-hidden="true" />} loading={open.isPending}>
          {t('seasons.open')}
        </Button>
      </Popconfirm>
    </Space>
  );
}

function NewSeasonDialog({
  open,
  seasons,
  onClose,
  onCreated,
}: {
  open: boolean;
  seasons: Season[];
  onClose: () => void;
  onCreated: (s: Season) => unknown;
}) {
  const { t } = useFeatureTranslation('councilAdmin');
  const { message } = App.useApp();
  const [form] = Form.useForm<{ start_year: number }>();
  const [formError, setFormError] = useState<string | null>(null);
  const newest = seasons
    .map((s) => Number(s.start_date.slice(0, 4)))
    .sort()
    .at(-1);
  const save = useMutation({
    mutationFn: (v: { start_year: number }) => createSeason(v.start_year),
    onMutate: () => setFormError(null),
    onSuccess: (s) => {
      message.success(t('seasons.created', { title: s.title }));
      onClose();
      return onCreated(s);
    },
    onError: (error) => setFormError(showServerErrors(form, error, ['start_year'])),
  });
  return (
    <Modal
      open={open}
      title={t('seasons.new')}
      okText={t('create')}
      cancelText={t('cancel')}
      okButtonProps={{ loading: save.isPending }}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <FormError text={formError} />
      <Form
        form={form}
        layout="vertical"
        initialValues={{ start_year: newest ? newest + 1 : new Date().getFullYear() }}
        onFinish={(v) => save.mutate(v)}
      >
        <Form.Item
          name="start_year"
          label={t('seasons.startYear')}
          extra={t('seasons.startYearHelp')}
          rules={[{ required: true, message: t('validation.required') }]}
        >
          <InputNumber min={2000} max={2200} precision={0} style={{ width: 160 }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Moves a month's due date (forms 1-3) or a season's year-end due date (form 5). */
function DueDateDialog({
  edit,
  onClose,
  onSaved,
}: {
  edit: DueDateEdit | null;
  onClose: () => void;
  onSaved: () => unknown;
}) {
  const { t, i18n } = useFeatureTranslation('councilAdmin');
  const { message } = App.useApp();
  const [form] = Form.useForm<{ date: dayjs.Dayjs | null }>();
  const [formError, setFormError] = useState<string | null>(null);
  const lang = i18n.language;
  const field = edit?.kind === 'season' ? 'reporting_due_date' : 'due_date';
  const title = !edit
    ? ''
    : edit.kind === 'season'
      ? t('seasons.changeYearEndOf', { title: edit.season.title })
      : t('seasons.changeDueOf', { month: monthLabel(edit.period.period_month, lang) });
  const initial = !edit ? null : dayjs(edit.kind === 'season' ? edit.season.reporting_due_date : edit.period.due_date);
  const save = useMutation({
    mutationFn: async (v: { date: dayjs.Dayjs | null }) => {
      const date = v.date!.format('YYYY-MM-DD');
      if (edit!.kind === 'season') await setYearEndDueDate(edit!.season.id, date);
      else await setPeriodDueDate(edit!.period.id, date);
      return date;
    },
    onMutate: () => setFormError(null),
    onSuccess: (date) => {
      message.success(t('seasons.dueSaved', { date: dateLabel(date, lang) }));
      onClose();
      return onSaved();
    },
    // The server names its body member; the form's one field is `date`.
    onError: (error) => setFormError(showServerErrors(form, error, [field], { [field]: 'date' })),
  });
  return (
    <Modal
      open={edit !== null}
      title={title}
      okText={t('save')}
      cancelText={t('cancel')}
      okButtonProps={{ loading: save.isPending }}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <FormError text={formError} />
      <Form form={form} layout="vertical" initialValues={{ date: initial }} onFinish={(v) => save.mutate(v)}>
        <Form.Item
          name="date"
          label={t('seasons.dueDate')}
          rules={[{ required: true, message: t('validation.required') }]}
        >
          <DatePicker format="YYYY-MM-DD" style={{ width: 200 }} allowClear={false} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
