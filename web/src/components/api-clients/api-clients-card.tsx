import { ApiOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Form,
  Input,
  Modal,
  Popconfirm,
  Radio,
  Skeleton,
  Space,
  Tag,
  Typography,
  theme,
} from 'antd';
import { useState } from 'react';
import { ErrorWithRetry } from '../query-state';
import { ApiError } from '../../lib/http/errors';
import { useFeatureTranslation } from '../../lib/i18n/feature-namespaces';
import { formatDate } from '../../lib/i18n/format';
import {
  createClient,
  apiClientKeys,
  apiClientsQuery,
  revokeClient,
  rotateClient,
  type ApiClient,
  type ClientsOwner,
  type NewSecret,
} from './api-clients-api';

/**
 * A handler's API clients (docs/API-CLIENTS.md): the list with name, scope, dates, last use and status; a form to
 * create one; rotate and revoke. A new secret is shown once, in a dialog that says so, with copy buttons.
 * My Profile shows it to a handler's admin users; the council console, for any handler, to staff.
 */
export function ApiClientsCard({ owner, bare = false }: { owner: ClientsOwner; bare?: boolean }) {
  const { t, i18n } = useFeatureTranslation('apiClients');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const { token } = theme.useToken();
  const [form] = Form.useForm<{ name: string; scope: ApiClient['scope'] }>();
  const [shown, setShown] = useState<{ secret: NewSecret; rotated: boolean } | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const clients = useQuery(apiClientsQuery(owner));
  const refresh = () => queryClient.invalidateQueries({ queryKey: apiClientKeys.list(owner) });

  const create = useMutation({
    mutationFn: (v: { name: string; scope: ApiClient['scope'] }) => createClient(owner, v.name.trim(), v.scope),
    onMutate: () => setFormError(null),
    onSuccess: (made) => {
      setShown({ secret: made, rotated: false });
      form.resetFields();
      void refresh();
    },
    onError: (error) => setFormError(error instanceof ApiError ? error.message : t('failed')),
  });
  const rotate = useMutation({
    mutationFn: (c: ApiClient) => rotateClient(owner, c.id),
    onSuccess: (made) => {
      setShown({ secret: made, rotated: true });
      void refresh();
    },
    onError: () => message.error(t('failed')),
  });
  const revoke = useMutation({
    mutationFn: (c: ApiClient) => revokeClient(owner, c.id),
    onSuccess: (_, c) => {
      message.success(t('revoked', { name: c.name }));
      void refresh();
    },
    onError: () => message.error(t('failed')),
  });
  const when = (iso: string) => formatDate(iso, i18n.language, { dateStyle: 'medium', timeStyle: 'short' });

  const body = (
    <>
      <Typography.Title level={2} style={{ fontSize: 20 }}>
        <ApiOutlined aria-hidden="true" /> {t('title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('intro')}</Typography.Paragraph>
      {clients.isError ? (
        <ErrorWithRetry error={clients.error} onRetry={() => void clients.refetch()} />
      ) : clients.isPending ? (
        <Skeleton active />
      ) : clients.data.data.length === 0 ? (
        <Typography.Paragraph type="secondary">{t('none')}</Typography.Paragraph>
      ) : (
        <ul style={{ listStyle: 'none', margin: 0, padding: 0 }} aria-label={t('title')}>
          {clients.data.data.map((c) => (
            <li
              key={c.id}
              data-client={c.id}
              style={{
                display: 'flex',
                gap: 12,
                alignItems: 'flex-start',
                flexWrap: 'wrap',
                padding: '12px 0',
                borderTop: `1px solid ${token.colorSplit}`,
              }}
            >
              <div style={{ flex: '1 1 260px', minWidth: 0 }}>
                <div style={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                  {c.name} <Tag color={c.status === 'active' ? 'green' : 'default'}>{t(`status.${c.status}`)}</Tag>
                  <Tag>{t(c.scope === 'read' ? 'scope.read' : 'scope.write')}</Tag>
                </div>
                <Typography.Text type="secondary" style={{ display: 'block' }}>
                  {t('clientId')}{' '}
                  <bdi dir="ltr">
                    <Typography.Text code copyable={{ text: c.id }}>
                      {c.id}
                    </Typography.Text>
                  </bdi>
                </Typography.Text>
                <Typography.Text type="secondary" style={{ display: 'block' }}>
                  {t('created', { when: when(c.created) })}
                </Typography.Text>
                <Typography.Text type="secondary" style={{ display: 'block' }}>
                  {c.last_used ? t('lastUsed', { when: when(c.last_used) }) : t('neverUsed')}
                </Typography.Text>
                {c.previous_secret_expires_at ? (
                  <Typography.Text type="secondary" style={{ display: 'block' }}>
                    {t('overlap', { when: when(c.previous_secret_expires_at) })}
                  </Typography.Text>
                ) : null}
                {c.revoked_at ? (
                  <Typography.Text type="secondary" style={{ display: 'block' }}>
                    {t('revokedAt', { when: when(c.revoked_at) })}
                  </Typography.Text>
                ) : null}
              </div>
              {c.status === 'active' ? (
                <Space wrap size={8}>
                  <Popconfirm
                    title={t('rotateTitle', { name: c.name })}
                    description={t('rotateText')}
                    okText={t('rotate')}
                    cancelText={t('cancel')}
                    onConfirm={() => rotate.mutateAsync(c).catch(() => undefined)}
                  >
                    <Button
                      loading={rotate.isPending && rotate.variables?.id === c.id}
                      aria-label={t('rotateWho', { name: c.name })}
                    >
                      {t('rotate')}
                    </Button>
                  </Popconfirm>
                  <Popconfirm
                    title={t('revokeTitle', { name: c.name })}
                    description={t('revokeText')}
                    okText={t('revoke')}
                    cancelText={t('cancel')}
                    okButtonProps={{ danger: true }}
                    onConfirm={() => revoke.mutateAsync(c).catch(() => undefined)}
                  >
                    <Button
                      loading={revoke.isPending && revoke.variables?.id === c.id}
                      aria-label={t('revokeWho', { name: c.name })}
                    >
                      {t('revoke')}
                    </Button>
                  </Popconfirm>
                </Space>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <Typography.Title level={3} style={{ fontSize: 16, marginTop: 16 }}>
        {t('newTitle')}
      </Typography.Title>
      {formError ? <Alert type="error" showIcon message={formError} style={{ marginBottom: 12 }} /> : null}
      <Form
        form={form}
        layout="vertical"
        initialValues={{ scope: 'read' }}
        onFinish={(v) => create.mutate(v)}
        aria-label={t('newTitle')}
      >
        <Form.Item
          name="name"
          label={t('name')}
          extra={t('nameHelp')}
          rules={[{ required: true, whitespace: true, message: t('nameRequired') }]}
        >
          <Input maxLength={80} autoComplete="off" style={{ maxWidth: 420 }} />
        </Form.Item>
        <Form.Item name="scope" label={t('scopeLabel')}>
          <Radio.Group>
            <Space direction="vertical">
              <Radio value="read">{t('scope.readLong')}</Radio>
              <Radio value="read write">{t('scope.writeLong')}</Radio>
            </Space>
          </Radio.Group>
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={create.isPending}>
          {t('create')}
        </Button>
      </Form>
      <SecretDialog shown={shown} onClose={() => setShown(null)} />
    </>
  );
  return bare ? (
    <div data-testid="api-clients">{body}</div>
  ) : (
    <Card style={{ marginTop: 16 }} data-testid="api-clients">
      {body}
    </Card>
  );
}

/** The one time a secret is shown: id and secret with copy buttons, and a clear warning. */
function SecretDialog({
  shown,
  onClose,
}: {
  shown: { secret: NewSecret; rotated: boolean } | null;
  onClose: () => void;
}) {
  const { t } = useFeatureTranslation('apiClients');
  return (
    <Modal
      open={shown !== null}
      onCancel={onClose}
      title={
        shown?.rotated
          ? t('secret.rotatedTitle', { name: shown.secret.data.name })
          : t('secret.title', { name: shown?.secret.data.name ?? '' })
      }
      footer={
        <Button type="primary" onClick={onClose}>
          {t('secret.done')}
        </Button>
      }
      maskClosable={false}
      destroyOnHidden
    >
      {shown ? (
        <div data-testid="api-client-secret">
          <Alert
            type="warning"
            showIcon
            message={t('secret.once')}
            description={shown.rotated ? t('secret.overlapNote') : undefined}
            style={{ marginBottom: 16 }}
          />
          <Typography.Text strong style={{ display: 'block' }}>
            {t('clientId')}
          </Typography.Text>
          <Typography.Paragraph
            copyable={{ text: shown.secret.data.id, tooltips: [t('secret.copy'), t('secret.copied')] }}
          >
            <bdi dir="ltr">
              <Typography.Text code data-testid="new-client-id">
                {shown.secret.data.id}
              </Typography.Text>
            </bdi>
          </Typography.Paragraph>
          <Typography.Text strong style={{ display: 'block' }}>
            {t('secret.label')}
          </Typography.Text>
          <Typography.Paragraph
            copyable={{ text: shown.secret.client_secret, tooltips: [t('secret.copy'), t('secret.copied')] }}
            style={{ overflowWrap: 'anywhere' }}
          >
            <bdi dir="ltr">
              <Typography.Text code data-testid="new-client-secret">
                {shown.secret.client_secret}
              </Typography.Text>
            </bdi>
          </Typography.Paragraph>
          <Typography.Paragraph type="secondary">{t('secret.howTo')}</Typography.Paragraph>
        </div>
      ) : null}
    </Modal>
  );
}

/** My Profile's section: shown only to a handler's admin users (the server says who is one). */
export function MyApiClients() {
  const owner: ClientsOwner = { kind: 'account' };
  const probe = useQuery(apiClientsQuery(owner));
  if (!probe.data?.admin) return null;
  return <ApiClientsCard owner={owner} />;
}
