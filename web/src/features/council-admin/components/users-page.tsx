import { EditOutlined, MailOutlined, StopOutlined, UndoOutlined } from '@ant-design/icons';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Drawer, Form, Input, Select, Space, Switch, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useDebouncedCallback } from 'use-debounce';
import { useSearchParams } from 'react-router';
import { QueryState } from '../../../components/query-state';
import { useDocumentTitle } from '../../../components/use-document-title';
import { useFilterText } from '../../../components/use-filter-text';
import { useFeatureTranslation } from '../../../lib/i18n/feature-namespaces';
import { attr } from '../../../lib/portal/entities';
import { useSession } from '../../../lib/session/use-session';
import {
  councilAdminKeys,
  createUser,
  handlerRecordsQuery,
  usersQuery,
  sendPasswordReset,
  updateUser,
  type CouncilUser,
  type UserFilters,
  type UserEditInput,
  type UserRole,
  type UserStatus,
} from '../api/council-admin-api';
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

const STATUSES: UserStatus[] = ['active', 'blocked', 'pending', 'refused'];
const ROLES: UserRole[] = ['handler', 'staff'];

/** The handler records as choices "101 · Riverbend Pecan Co." (value: the handler number). */
function useHandlerOptions() {
  const query = useQuery(handlerRecordsQuery());
  return (query.data ?? []).map((h) => ({
    value: attr(h, 'field_handler_number') ?? '',
    label: `${attr(h, 'field_handler_number')} · ${attr(h, 'title')}`,
  }));
}

/** The filters live in the address (?q=&status=&role=&handler=), so a handler's "Users" link lands filtered. */
function useFilters(): [UserFilters, (next: Partial<UserFilters>) => void] {
  const [params, setParams] = useSearchParams();
  const filters: UserFilters = {
    q: params.get('q') ?? undefined,
    status: (params.get('status') as UserStatus | null) ?? undefined,
    role: (params.get('role') as UserRole | null) ?? undefined,
    handler: params.get('handler') ?? undefined,
    page: Number(params.get('page') ?? 1) || 1,
  };
  const set = (next: Partial<UserFilters>) => {
    const merged: Record<string, unknown> = { ...filters, page: undefined, ...next };
    const out = new URLSearchParams();
    for (const [k, v] of Object.entries(merged))
      if (v !== undefined && v !== null && v !== '' && !(k === 'page' && v === 1)) out.set(k, String(v));
    setParams(out, { replace: true });
  };
  return [filters, set];
}

/** User accounts: search and filter, create, edit, assign to a handler, deactivate (ends every session), reset link. */
export default function UsersPage() {
  const { t } = useFeatureTranslation(['councilAdmin', 'portalData']);
  useDocumentTitle(t('users.title'));
  const { message } = App.useApp();
  const client = useQueryClient();
  const { profile } = useSession();
  const [filters, setFilters] = useFilters();
  // The search goes to the server a moment after typing stops.
  const send = useDebouncedCallback((q: string) => setFilters({ q: q.trim() || undefined }), 300);
  const [search, setSearch] = useFilterText(filters.q, send.isPending);
  const query = useQuery({
    ...usersQuery(filters),
    placeholderData: keepPreviousData,
  });
  const handlerOptions = useHandlerOptions();
  const [editing, setEditing] = useState<CouncilUser | 'new' | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: councilAdminKeys.users });

  const setStatus = useMutation({
    mutationFn: ({ user, status }: { user: CouncilUser; status: 'active' | 'blocked' }) =>
      updateUser(user.id, { status }),
    onSuccess: (user, { status }) => {
      message.success(t(status === 'blocked' ? 'users.deactivated' : 'users.reactivated', { name: fullName(user) }));
      return refresh();
    },
    onError: (error) => message.error(failureText(error)),
  });
  const reset = useMutation({
    mutationFn: (user: CouncilUser) => sendPasswordReset(user.id),
    onSuccess: (r) =>
      r.mail_sent
        ? message.success(t('users.resetSent', { email: r.email }))
        : message.warning(t('users.resetNotSent', { email: r.email })),
    onError: (error) => message.error(failureText(error)),
  });

  const columns: ColumnsType<CouncilUser> = [
    {
      key: 'name',
      title: t('fields.name'),
      render: (_, u) => (
        <Space direction="vertical" size={0}>
          <strong>{fullName(u)}</strong>
          <Typography.Text type="secondary">{t('users.usernameIs', { username: u.username })}</Typography.Text>
        </Space>
      ),
    },
    { key: 'email', title: t('fields.email'), render: (_, u) => (u.email ? <bdi>{u.email}</bdi> : '—') },
    { key: 'role', title: t('fields.role'), render: (_, u) => t(`role.${u.role}`) },
    {
      key: 'handler',
      title: t('fields.handler'),
      render: (_, u) => (u.handler_number ? `${u.handler_number} · ${u.handler_name ?? ''}` : '—'),
    },
    {
      key: 'status',
      title: t('fields.status'),
      render: (_, u) => <StatusTag status={u.status} label={t(`userStatus.${u.status}`)} />,
    },
    {
      key: 'actions',
      title: t('actions'),
      render: (_, u) => {
        const name = fullName(u);
        if (u.status === 'pending' || u.status === 'refused')
          return <Typography.Text type="secondary">{t('users.decideUnderRequests')}</Typography.Text>;
        const self = u.id === profile.userUid;
        return (
          <Space wrap size={4}>
            <Button
              size="small"
              icon={<EditOutlined aria-hidden="true" />}
              onClick={() => setEditing(u)}
              aria-label={t('users.editWho', { name })}
            >
              {t('edit')}
            </Button>
            {u.status === 'active' ? (
              <ConfirmButton
                title={t('users.resetTitle', { name })}
                text={t('users.resetText', { email: u.email ?? '—' })}
                okText={t('users.sendReset')}
                label={t('users.sendReset')}
                ariaLabel={t('users.sendResetWho', { name })}
                icon={<MailOutlined aria-hidden="true" />}
                disabled={!u.email}
                onConfirm={() => reset.mutateAsync(u)}
              />
            ) : null}
            {u.status === 'active' && !self ? (
              <ConfirmButton
                title={t('users.deactivateTitle', { name })}
                text={t('users.deactivateText')}
                okText={t('users.deactivate')}
                label={t('users.deactivate')}
                ariaLabel={t('users.deactivateWho', { name })}
                icon={<StopOutlined aria-hidden="true" />}
                danger
                onConfirm={() => setStatus.mutateAsync({ user: u, status: 'blocked' })}
              />
            ) : null}
            {u.status === 'blocked' ? (
              <Button
                size="small"
                icon={<UndoOutlined aria-hidden="true" />}
                onClick={() => setStatus.mutate({ user: u, status: 'active' })}
                aria-label={t('users.reactivateWho', { name })}
              >
                {t('users.reactivate')}
              </Button>
            ) : null}
          </Space>
        );
      },
    },
  ];

  return (
    <Card>
      <ListHeading
        title={t('users.title')}
        intro={t('users.intro')}
        newLabel={t('users.new')}
        onNew={() => setEditing('new')}
      />
      <Space wrap style={{ marginBottom: 16 }}>
        <SearchBox
          label={t('users.search')}
          value={search}
          onChange={(v) => {
            setSearch(v);
            send(v);
          }}
          onSearch={(v) => setFilters({ q: v.trim() || undefined })}
          width={300}
        />
        <Select
          aria-label={t('fields.status')}
          style={{ width: 160 }}
          value={filters.status ?? ''}
          onChange={(v) => setFilters({ status: (v || undefined) as UserStatus | undefined })}
          options={[
            { value: '', label: t('filters.anyStatus') },
            ...STATUSES.map((s) => ({ value: s, label: t(`userStatus.${s}`) })),
          ]}
        />
        <Select
          aria-label={t('fields.role')}
          style={{ width: 160 }}
          value={filters.role ?? ''}
          onChange={(v) => setFilters({ role: (v || undefined) as UserRole | undefined })}
          options={[
            { value: '', label: t('filters.anyRole') },
            ...ROLES.map((r) => ({ value: r, label: t(`role.${r}`) })),
          ]}
        />
        <Select
          aria-label={t('fields.handler')}
          style={{ width: 260, maxWidth: '100%' }}
          showSearch
          optionFilterProp="label"
          value={filters.handler ?? ''}
          onChange={(v) => setFilters({ handler: v || undefined })}
          options={[
            { value: '', label: t('filters.anyHandler') },
            { value: 'none', label: t('filters.noHandler') },
            ...handlerOptions,
          ]}
        />
      </Space>
      <QueryState query={query} isEmpty={(r) => r.data.length === 0} emptyText={t('users.empty')}>
        {(r) => (
          <Table<CouncilUser>
            rowKey="id"
            columns={columns}
            dataSource={r.data}
            loading={query.isFetching && query.isPlaceholderData}
            scroll={{ x: 980 }}
            pagination={{
              current: r.meta.page,
              pageSize: r.meta.per_page,
              total: r.meta.total,
              hideOnSinglePage: true,
              showSizeChanger: false,
              onChange: (page) => setFilters({ ...filters, page }),
            }}
          />
        )}
      </QueryState>
      <UserDrawer
        editing={editing}
        handlerOptions={handlerOptions}
        onClose={() => setEditing(null)}
        onSaved={refresh}
      />
    </Card>
  );
}

const fullName = (u: CouncilUser) => [u.first_name, u.last_name].filter(Boolean).join(' ') || u.username;

interface UserFormValues {
  username: string;
  first_name: string;
  last_name: string;
  email: string;
  job_title: string;
  phone: string;
  role: UserRole;
  handler_number: string | null;
  handler_admin: boolean;
}

const USER_FIELDS = [
  'username',
  'first_name',
  'last_name',
  'email',
  'job_title',
  'phone',
  'role',
  'handler_number',
  'handler_admin',
];

/** Create or edit an account; moving a user to another handler or role ends its sessions (the server does it). */
function UserDrawer({
  editing,
  handlerOptions,
  onClose,
  onSaved,
}: {
  editing: CouncilUser | 'new' | null;
  handlerOptions: Array<{ value: string; label: string }>;
  onClose: () => void;
  onSaved: () => unknown;
}) {
  const { t } = useFeatureTranslation('councilAdmin');
  const { message } = App.useApp();
  const [form] = Form.useForm<UserFormValues>();
  const [formError, setFormError] = useState<string | null>(null);
  const width = useDrawerWidth();
  const isNew = editing === 'new';
  const user = editing && editing !== 'new' ? editing : null;
  const role = Form.useWatch('role', form);
  const save = useMutation({
    mutationFn: async (v: UserFormValues) => {
      const input: UserEditInput = {
        first_name: v.first_name?.trim(),
        last_name: orNull(v.last_name),
        job_title: orNull(v.job_title),
        phone: orNull(v.phone),
        role: v.role,
        handler_number: v.role === 'handler' ? (v.handler_number ?? null) : null,
      };
      if (isNew) {
        // The form requires a username, a first name and an address for a new user.
        const made = await createUser({
          ...input,
          username: v.username.trim(),
          first_name: v.first_name.trim(),
          email: v.email.trim(),
          role: v.role,
        });
        return { user: made.data, resetSent: made.meta.password_reset_sent };
      }
      return {
        user: await updateUser(user!.id, {
          ...input,
          email: orNull(v.email),
          ...(v.role === 'handler' ? { handler_admin: Boolean(v.handler_admin) } : {}),
        }),
        resetSent: false,
      };
    },
    onMutate: () => setFormError(null),
    onSuccess: ({ user: saved, resetSent }) => {
      if (isNew)
        message.success(
          t(resetSent ? 'users.createdMailed' : 'users.created', { name: fullName(saved), email: saved.email }),
        );
      else message.success(t('users.saved', { name: fullName(saved) }));
      onClose();
      return onSaved();
    },
    onError: (error) => setFormError(showServerErrors(form, error, USER_FIELDS)),
  });
  const initial: Partial<UserFormValues> = user
    ? {
        first_name: user.first_name,
        last_name: user.last_name,
        email: user.email ?? '',
        job_title: user.job_title ?? '',
        phone: user.phone ?? '',
        role: user.role,
        handler_number: user.handler_number,
        handler_admin: user.handler_admin,
      }
    : { role: 'handler', handler_number: null };
  return (
    <Drawer
      open={editing !== null}
      onClose={onClose}
      width={width}
      destroyOnHidden
      afterOpenChange={(open) => !open && setFormError(null)}
      title={isNew ? t('users.new') : t('users.editTitle', { name: user ? fullName(user) : '' })}
      extra={<DrawerActions isNew={isNew} saving={save.isPending} onCancel={onClose} onSave={() => form.submit()} />}
    >
      <FormError text={formError} />
      {isNew ? <Typography.Paragraph type="secondary">{t('users.newHelp')}</Typography.Paragraph> : null}
      <Form form={form} layout="vertical" initialValues={initial} onFinish={(v) => save.mutate(v)}>
        {isNew ? (
          <Form.Item
            name="username"
            label={t('fields.username')}
            rules={[{ required: true, whitespace: true, message: t('validation.required') }]}
          >
            <Input maxLength={60} autoComplete="off" />
          </Form.Item>
        ) : null}
        <Form.Item
          name="first_name"
          label={t('fields.firstName')}
          rules={[{ required: true, whitespace: true, message: t('validation.required') }]}
        >
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item name="last_name" label={t('fields.lastName')}>
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item
          name="email"
          label={t('fields.email')}
          rules={[{ required: isNew, whitespace: true, message: t('validation.required') }]}
        >
          <Input maxLength={254} type="email" autoComplete="off" />
        </Form.Item>
        <Form.Item name="role" label={t('fields.role')}>
          <Select options={ROLES.map((r) => ({ value: r, label: t(`role.${r}`) }))} style={{ maxWidth: 240 }} />
        </Form.Item>
        {role !== 'staff' ? (
          <Form.Item
            name="handler_number"
            label={t('fields.handler')}
            rules={[{ required: true, message: t('validation.handlerRequired') }]}
            extra={user ? t('users.moveHelp') : undefined}
          >
            <Select
              showSearch
              optionFilterProp="label"
              options={handlerOptions}
              placeholder={t('users.chooseHandler')}
            />
          </Form.Item>
        ) : null}
        {role !== 'staff' && user ? (
          <Form.Item
            name="handler_admin"
            label={t('fields.handlerAdmin')}
            valuePropName="checked"
            extra={t('users.handlerAdminHelp')}
          >
            <Switch />
          </Form.Item>
        ) : null}
        <Form.Item name="job_title" label={t('fields.jobTitle')}>
          <Input maxLength={255} />
        </Form.Item>
        <Form.Item name="phone" label={t('fields.phone')}>
          <Input maxLength={60} type="tel" />
        </Form.Item>
      </Form>
    </Drawer>
  );
}
