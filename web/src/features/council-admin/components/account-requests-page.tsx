import { CheckOutlined, CloseOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, Modal, Space, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { QueryState } from '../../../components/query-state';
import { useDocumentTitle } from '../../../components/use-document-title';
import { formatDate } from '../../../lib/i18n/format';
import { useFeatureTranslation } from '../../../lib/i18n/feature-namespaces';
import {
  accountRequestsQuery,
  approveAccount,
  councilAdminKeys,
  refuseAccount,
  type AccountRequest,
} from '../api/council-admin-api';
import { failureText, PageHeading } from './shared';

/** Sign-ups waiting for the council: approve (the applicant is e-mailed and can sign in) or refuse with a reason. */
export default function AccountRequestsPage() {
  const { t, i18n } = useFeatureTranslation(['councilAdmin', 'portalData']);
  useDocumentTitle(t('requests.title'));
  const { message } = App.useApp();
  const client = useQueryClient();
  const query = useQuery(accountRequestsQuery());
  const [refusing, setRefusing] = useState<AccountRequest | null>(null);
  const refresh = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: councilAdminKeys.accountRequests }),
      client.invalidateQueries({ queryKey: councilAdminKeys.users }),
    ]);

  const approve = useMutation({
    mutationFn: (r: AccountRequest) => approveAccount(r.id),
    onSuccess: (result, r) => {
      if (result.mail_sent) message.success(t('requests.approved', { name: r.name || r.username, email: r.email }));
      else message.warning(t('requests.approvedNoMail', { name: r.name || r.username }));
      return refresh();
    },
    onError: (error) => {
      message.error(failureText(error));
      return refresh();
    },
  });

  const columns: ColumnsType<AccountRequest> = [
    {
      key: 'name',
      title: t('requests.applicant'),
      render: (_, r) => (
        <Space direction="vertical" size={0}>
          <strong>{r.name || r.username}</strong>
          <Typography.Text type="secondary">{t('users.usernameIs', { username: r.username })}</Typography.Text>
        </Space>
      ),
    },
    { key: 'email', title: t('fields.email'), render: (_, r) => <bdi>{r.email}</bdi> },
    {
      key: 'handler',
      title: t('fields.handler'),
      render: (_, r) => (r.handler_number ? `${r.handler_number} · ${r.handler_name ?? ''}` : '—'),
    },
    {
      key: 'requested',
      title: t('requests.requested'),
      render: (_, r) => (
        <span style={{ whiteSpace: 'nowrap' }}>
          {formatDate(r.requested, i18n.language, { dateStyle: 'medium', timeStyle: 'short' })}
        </span>
      ),
    },
    {
      key: 'actions',
      title: t('actions'),
      render: (_, r) => (
        <Space wrap>
          <Button
            type="primary"
            icon={<CheckOutlined aria-hidden="true" />}
            loading={approve.isPending && approve.variables?.id === r.id}
            onClick={() => approve.mutate(r)}
            aria-label={t('requests.approveWho', { name: r.name || r.username })}
          >
            {t('requests.approve')}
          </Button>
          <Button
            danger
            icon={<CloseOutlined aria-hidden="true" />}
            onClick={() => setRefusing(r)}
            aria-label={t('requests.refuseWho', { name: r.name || r.username })}
          >
            {t('requests.refuse')}
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <Card>
      <PageHeading title={t('requests.title')} intro={t('requests.intro')} />
      <QueryState query={query} isEmpty={(list) => list.length === 0} emptyText={t('requests.empty')}>
        {(list) => (
          <Table<AccountRequest>
            rowKey="id"
            columns={columns}
            dataSource={list}
            pagination={false}
            scroll={{ x: 760 }}
          />
        )}
      </QueryState>
      <RefuseDialog request={refusing} onClose={() => setRefusing(null)} onDone={refresh} />
    </Card>
  );
}

/** Refusing is final for this request: the dialog asks for an optional reason, which the e-mail passes on. */
function RefuseDialog({
  request,
  onClose,
  onDone,
}: {
  request: AccountRequest | null;
  onClose: () => void;
  onDone: () => unknown;
}) {
  const { t } = useFeatureTranslation('councilAdmin');
  const { message } = App.useApp();
  const [form] = Form.useForm<{ reason: string }>();
  const refuse = useMutation({
    mutationFn: (values: { reason: string }) => refuseAccount(request!.id, values.reason ?? ''),
    onSuccess: () => {
      message.success(t('requests.refused', { name: request?.name || request?.username }));
      onClose();
      return onDone();
    },
    onError: (error) => message.error(failureText(error)),
  });
  return (
    <Modal
      open={request !== null}
      title={t('requests.refuseTitle', { name: request?.name || request?.username })}
      okText={t('requests.refuse')}
      okButtonProps={{ danger: true, loading: refuse.isPending }}
      cancelText={t('cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Typography.Paragraph>{t('requests.refuseText')}</Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={(v) => refuse.mutate(v)}>
        <Form.Item name="reason" label={t('requests.reason')} rules={[{ max: 2000 }]}>
          <Input.TextArea rows={3} maxLength={2000} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
