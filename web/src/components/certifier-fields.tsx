import { Col, Form, Input, Modal, Row } from 'antd';
import type { ReactNode } from 'react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

export interface CertifierLabels {
  name: string;
  title: string;
  /** Shown under an empty name. */
  nameRequired: string;
}

/** Who certifies a form (monthly or year-end): name (required) and job title, plus any further field as children. */
export function CertifierFields({
  name,
  title,
  onNameChange,
  onTitleChange,
  labels,
  children,
}: {
  name: string;
  title: string;
  onNameChange: (value: string) => void;
  onTitleChange: (value: string) => void;
  labels: CertifierLabels;
  children?: ReactNode;
}) {
  const ids = { name: useId(), title: useId() };
  const missing = !name.trim();
  return (
    <Form layout="vertical" component="div">
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item
            label={labels.name}
            htmlFor={ids.name}
            validateStatus={missing ? 'error' : undefined}
            help={missing ? labels.nameRequired : undefined}
          >
            <Input id={ids.name} value={name} autoComplete="name" onChange={(e) => onNameChange(e.target.value)} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item label={labels.title} htmlFor={ids.title}>
            <Input
              id={ids.title}
              value={title}
              autoComplete="organization-title"
              onChange={(e) => onTitleChange(e.target.value)}
            />
          </Form.Item>
        </Col>
        {children}
      </Row>
    </Form>
  );
}

/** The last step of a certification: a legal statement is made, so it is confirmed once more. */
export function CertificationConfirm({
  open,
  title,
  okText,
  pending,
  onConfirm,
  onCancel,
  children,
}: {
  open: boolean;
  title: string;
  okText: string;
  pending: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      open={open}
      title={title}
      okText={okText}
      cancelText={t('dataState.cancel')}
      confirmLoading={pending}
      onOk={onConfirm}
      onCancel={onCancel}
    >
      {children}
    </Modal>
  );
}
