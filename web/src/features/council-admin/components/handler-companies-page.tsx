import { ApiOutlined, EditOutlined, StopOutlined, TeamOutlined, UndoOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  Drawer,
  Empty,
  Form,
  Input,
  Segmented,
  Select,
  Space,
  Switch,
  Table,
  Typography,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useDeferredValue, useState } from 'react';
import { Link } from 'react-router';
import { QueryState } from '../../../components/query-state';
import { useDocumentTitle } from '../../../components/use-document-title';
import { useFeatureTranslation } from '../../../lib/i18n/feature-namespaces';
import { attr, bool } from '../../../lib/portal/entities';
import { matches } from '../../../lib/portal/directory-api';
import {
  councilAdminKeys,
  createHandler,
  handlerRecordsQuery,
  updateHandler,
  type HandlerRecord,
  type HandlerValues,
} from '../api/council-admin-api';
import { ApiClientsCard } from '../../../components/api-clients/api-clients-card';
import {
  ConfirmButton,
  DrawerActions,
  failureText,
  FormError,
  ListHeading,
  orNull,
  SearchBox,
  showServerErrors,
  StatusTag,
  useDrawerWidth,
} from './shared';

type StatusFilter = 'all' | 'active' | 'inactive';

/** The handler companies: list, search, create, edit, deactivate (no package when a month is opened) or reactivate. */
export default function HandlerCompaniesPage() {
  const { t } = useFeatureTranslation(['councilAdmin', 'portalData']);
  useDocumentTitle(t('handlers.title'));
  const { message } = App.useApp();
  const client = useQueryClient();
  const query = useQuery(handlerRecordsQuery());
  const [search, setSearch] = useState('');
  const q = useDeferredValue(search);
  const [status, setStatus] = useState<StatusFilter>('all');
  // null: drawer closed; 'new': creating; an entity: editing it.
  const [editing, setEditing] = useState<HandlerRecord | 'new' | null>(null);
  const [clientsOf, setClientsOf] = useState<HandlerRecord | null>(null);
  const drawerWidth = useDrawerWidth();

  const setActive = useMutation({
    mutationFn: ({ handler, active }: { handler: HandlerRecord; active: boolean }) =>
      updateHandler(handler, { field_handler_status: active ? 'active' : 'inactive' }),
    onSuccess: (_, { handler, active }) => {
      message.success(t(active ? 'handlers.reactivated' : 'handlers.deactivated', { name: attr(handler, 'title') }));
      return client.invalidateQueries({ queryKey: councilAdminKeys.handlerRecords });
    },
    onError: (error) => message.error(failureText(error)),
  });

  const columns: ColumnsType<HandlerRecord> = [
    {
      key: 'number',
      title: t('fields.handlerNumber'),
      width: 100,
      render: (_, h) => <strong>{attr(h, 'field_handler_number')}</strong>,
    },
    {
      key: 'name',
      title: t('fields.name'),
      render: (_, h) => (
        <Space direction="vertical" size={0}>
          <span>{attr(h, 'title')}</span>
          {h.field_address ? (
            <Typography.Text type="secondary" style={{ whiteSpace: 'pre-line' }}>
              {attr(h, 'field_address')}
            </Typography.Text>
          ) : null}
        </Space>
      ),
    },
    {
      key: 'status',
      title: t('fields.status'),
      render: (_, h) => (
        <StatusTag
          status={attr(h, 'field_handler_status') ?? ''}
          label={t(`handlerStatus.${attr(h, 'field_handler_status')}`)}
        />
      ),
    },
    {
      key: 'directory',
      title: t('fields.directory'),
      render: (_, h) => (bool(h, 'field_show_in_handler_directory') ? t('yes') : t('no')),
    },
    {
      key: 'contacts',
      title: t('handlers.contacts'),
      render: (_, h) => (
        <Space direction="vertical" size={0}>
          {h.field_email ? <bdi>{attr(h, 'field_email')}</bdi> : null}
          {h.field_phone ? <bdi>{attr(h, 'field_phone')}</bdi> : null}
        </Space>
      ),
    },
    {
      key: 'actions',
      title: t('actions'),
      render: (_, h) => {
        const name = attr(h, 'title') ?? '';
        const active = attr(h, 'field_handler_status') === 'active';
        return (
          <Space wrap size={4}>
            <Button
              size="small"
              icon={<EditOutlined aria-hidden="true" />}
              onClick={() => setEditing(h)}
              aria-label={t('handlers.editWho', { name })}
            >
              {t('edit')}
            </Button>
            <Button
              size="small"
              icon={<ApiOutlined aria-hidden="true" />}
              onClick={() => setClientsOf(h)}
              aria-label={t('handlers.apiClientsOf', { name })}
            >
              {t('handlers.apiClients')}
            </Button>
            <Link
              to={`/dashboard/council/users?handler=${encodeURIComponent(attr(h, 'field_handler_number') ?? '')}`}
              aria-label={t('handlers.usersOf', { name })}
            >
              <Space size={4}>
                <TeamOutlined aria-hidden="true" />
                {t('handlers.users')}
              </Space>
            </Link>
            {active ? (
              <ConfirmButton
                title={t('handlers.deactivateTitle', { name })}
                text={t('handlers.deactivateText')}
                okText={t('handlers.deactivate')}
                label={t('handlers.deactivate')}
                ariaLabel={t('handlers.deactivateWho', { name })}
                icon={<StopOutlined aria-hidden="true" />}
                danger
                onConfirm={() => setActive.mutateAsync({ handler: h, active: false })}
              />
            ) : (
              <Button
                size="small"
                icon={<UndoOutlined aria-hidden="true" />}
                onClick={() => setActive.mutate({ handler: h, active: true })}
                aria-label={t('handlers.reactivateWho', { name })}
              >
                {t('handlers.reactivate')}
              </Button>
            )}
          </Space>
        );
      },
    },
  ];

  return (
    <Card>
      <ListHeading
        title={t('handlers.title')}
        intro={t('handlers.intro')}
        newLabel={t('handlers.new')}
        onNew={() => setEditing('new')}
      />
      <Space wrap style={{ marginBottom: 16 }}>
        <SearchBox label={t('handlers.search')} value={search} onChange={setSearch} width={320} />
        <Segmented<StatusFilter>
          aria-label={t('fields.status')}
          value={status}
          onChange={setStatus}
          options={[
            { value: 'all', label: t('filters.all') },
            { value: 'active', label: t('handlerStatus.active') },
            { value: 'inactive', label: t('handlerStatus.inactive') },
          ]}
        />
      </Space>
      <QueryState query={query} isEmpty={(list) => list.length === 0} emptyText={t('handlers.empty')}>
        {(list) => {
          const found = list.filter(
            (h) =>
              (status === 'all' || attr(h, 'field_handler_status') === status) &&
              matches(q, h.title, h.field_handler_number, h.field_email, h.field_phone, h.field_address),
          );
          if (found.length === 0) return <Empty description={t('handlers.noneFound')} />;
          return (
            <Table<HandlerRecord>
              rowKey="id"
              columns={columns}
              dataSource={found}
              pagination={{ pageSize: 25, hideOnSinglePage: true }}
              scroll={{ x: 900 }}
            />
          );
        }}
      </QueryState>
      <HandlerDrawer editing={editing} onClose={() => setEditing(null)} />
      <Drawer
        open={clientsOf !== null}
        onClose={() => setClientsOf(null)}
        width={drawerWidth}
        destroyOnHidden
        title={t('handlers.apiClientsTitle', { name: clientsOf ? (attr(clientsOf, 'title') ?? '') : '' })}
      >
        {clientsOf ? <ApiClientsCard owner={{ kind: 'council', handlerId: clientsOf.id }} bare /> : null}
      </Drawer>
    </Card>
  );
}

const HANDLER_FIELDS = [
  'title',
  'field_handler_number',
  'field_handler_status',
  'field_show_in_handler_directory',
  'field_address',
  'field_phone',
  'field_email',
  'field_website',
];

function initialValues(editing: HandlerRecord | 'new' | null): HandlerValues {
  const h = editing && editing !== 'new' ? editing : null;
  return {
    title: attr(h, 'title') ?? '',
    field_handler_number: attr(h, 'field_handler_number') ?? '',
    field_handler_status: attr(h, 'field_handler_status') ?? 'active',
    field_show_in_handler_directory: h ? bool(h, 'field_show_in_handler_directory') : true,
    field_address: attr(h, 'field_address'),
    field_phone: attr(h, 'field_phone'),
    field_email: attr(h, 'field_email'),
    field_website: attr(h, 'field_website'),
  };
}

/** Create or edit a handler; the server's checks (a taken number, a bad e-mail address) show at their fields. */
function HandlerDrawer({ editing, onClose }: { editing: HandlerRecord | 'new' | null; onClose: () => void }) {
  const { t } = useFeatureTranslation('councilAdmin');
  const { message } = App.useApp();
  const client = useQueryClient();
  const [form] = Form.useForm<HandlerValues>();
  const [formError, setFormError] = useState<string | null>(null);
  const width = useDrawerWidth();
  const isNew = editing === 'new';
  const save = useMutation({
    mutationFn: (v: HandlerValues) => {
      const values: HandlerValues = {
        ...v,
        field_address: orNull(v.field_address),
        field_phone: orNull(v.field_phone),
        field_email: orNull(v.field_email),
        field_website: orNull(v.field_website),
      };
      return editing && editing !== 'new' ? updateHandler(editing, values) : createHandler(values);
    },
    onMutate: () => setFormError(null),
    onSuccess: (saved) => {
      message.success(t(isNew ? 'handlers.created' : 'handlers.saved', { name: attr(saved, 'title') }));
      onClose();
      return client.invalidateQueries({ queryKey: councilAdminKeys.handlerRecords });
    },
    onError: (error) => setFormError(showServerErrors(form, error, HANDLER_FIELDS)),
  });
  return (
    <Drawer
      open={editing !== null}
      onClose={onClose}
      width={width}
      destroyOnHidden
      title={isNew ? t('handlers.new') : t('handlers.editTitle', { name: editing ? attr(editing, 'title') : '' })}
      afterOpenChange={(open) => !open && setFormError(null)}
      extra={<DrawerActions isNew={isNew} saving={save.isPending} onCancel={onClose} onSave={() => form.submit()} />}
    >
      <FormError text={formError} />
      <Form
        form={form}
        layout="vertical"
        initialValues={initialValues(editing)}
        onFinish={(v) => save.mutate(v)}
        requiredMark
      >
        <Form.Item
          name="title"
          label={t('fields.name')}
          rules={[{ required: true, whitespace: true, message: t('validation.required') }]}
        >
          <Input maxLength={200} autoComplete="organization" />
        </Form.Item>
        <Form.Item
          name="field_handler_number"
          label={t('fields.handlerNumber')}
          rules={[{ required: true, whitespace: true, message: t('validation.required') }]}
        >
          <Input maxLength={20} inputMode="numeric" style={{ maxWidth: 200 }} />
        </Form.Item>
        <Form.Item name="field_handler_status" label={t('fields.status')}>
          <Select
            style={{ maxWidth: 200 }}
            options={[
              { value: 'active', label: t('handlerStatus.active') },
              { value: 'inactive', label: t('handlerStatus.inactive') },
            ]}
          />
        </Form.Item>
        <Form.Item
          name="field_show_in_handler_directory"
          label={t('fields.directory')}
          valuePropName="checked"
          extra={t('handlers.directoryHelp')}
        >
          <Switch />
        </Form.Item>
        <Form.Item name="field_address" label={t('fields.address')}>
          <Input.TextArea rows={3} maxLength={1000} autoComplete="street-address" />
        </Form.Item>
        <Form.Item name="field_phone" label={t('fields.phone')}>
          <Input maxLength={60} type="tel" autoComplete="tel" />
        </Form.Item>
        <Form.Item
          name="field_email"
          label={t('fields.email')}
          rules={[{ type: 'email', message: t('validation.email') }]}
        >
          <Input maxLength={254} type="email" autoComplete="email" />
        </Form.Item>
        <Form.Item name="field_website" label={t('fields.website')}>
          <Input maxLength={500} type="url" placeholder="https://" />
        </Form.Item>
      </Form>
    </Drawer>
  );
}
