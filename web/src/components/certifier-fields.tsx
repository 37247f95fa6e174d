import { SafetyCertificateOutlined } from '@ant-design/icons';
import { Checkbox, Col, Form, Input, Modal, Row, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { languageInfo } from '../lib/i18n/languages';
import { attr } from '../lib/portal/entities';
import { useMe } from '../lib/portal/handler';
import { ltr } from '../lib/portal/text';
import { useSession } from '../lib/session/use-session';

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

/**
 * The certifier's name as every form prefills it: the user's full name from their record ("Alice Moreno"), else the
 * first name the session knows, else the username. What the user types replaces it and is kept.
 */
export function useCertifierName(): [string, (value: string) => void] {
  const { profile } = useSession();
  const me = useMe(profile.username);
  const fullName =
    [attr(me.data, 'field_first_name') ?? profile.userFirstName, attr(me.data, 'field_last_name')]
      .filter(Boolean)
      .join(' ') ||
    profile.username ||
    '';
  const [name, setName] = useState(fullName);
  const [touched, setTouched] = useState(false);
  useEffect(() => {
    if (!touched && fullName) setName(fullName);
  }, [fullName, touched]);
  return [
    name,
    (value: string) => {
      setTouched(true);
      setName(value);
    },
  ];
}

/** True when the certification step is complete: a name, and the statement confirmed as read. */
export const certificationReady = (name: string, attest: boolean): boolean => name.trim().length > 0 && attest;

/** The props of <CertificationStep> that its state fills in (the page adds the handler and any further field). */
export interface CertificationStepState {
  name: string;
  title: string;
  attest: boolean;
  onNameChange: (value: string) => void;
  onTitleChange: (value: string) => void;
  onAttestChange: (value: boolean) => void;
}

/**
 * The state of one certification step: the name prefilled as every form does (useCertifierName), the title, and
 * the "I have read" confirmation. `step` is spread onto <CertificationStep>; `ready` says the step is complete.
 * `titleRequired`: a transfer's countersignature needs a title too (the server refuses one without).
 */
export function useCertificationStep({ titleRequired = false }: { titleRequired?: boolean } = {}) {
  const [name, setName] = useCertifierName();
  const [title, setTitle] = useState('');
  const [attest, setAttest] = useState(false);
  const ready = certificationReady(name, attest) && (!titleRequired || title.trim() !== '');
  const step: CertificationStepState = {
    name,
    title,
    attest,
    onNameChange: setName,
    onTitleChange: setTitle,
    onAttestChange: setAttest,
  };
  return { step, ready, name, title, setName, setTitle, setAttest };
}

/**
 * The one certification step of every form (1 to 5, and a transfer's countersignature): the one statement, with the
 * company's name, the certifier's name and title, any further field (an amendment's reason) and the "I have read"
 * confirmation. The PDF prints the same statement (contract: CERTIFICATION_STATEMENT_TEMPLATE).
 */
export function CertificationStep({
  handler,
  name,
  title,
  attest,
  onNameChange,
  onTitleChange,
  onAttestChange,
  headingLevel = 2,
  children,
}: {
  handler: string;
  name: string;
  /** Absent: no title asked (a countersignature). */
  title?: string;
  attest: boolean;
  onNameChange: (value: string) => void;
  onTitleChange?: (value: string) => void;
  onAttestChange: (value: boolean) => void;
  headingLevel?: 2 | 3;
  children?: ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const headingId = useId();
  // A Latin company name in a right-to-left sentence keeps its own order ("Co." with its period at its end).
  const company = languageInfo(i18n.language).dir === 'rtl' ? ltr(handler) : handler;
  const ids = { name: useId(), title: useId() };
  const missing = !name.trim();
  return (
    <section aria-labelledby={headingId} data-testid="certification-step">
      <Typography.Title level={headingLevel} id={headingId} style={{ fontSize: 18 }}>
        <SafetyCertificateOutlined aria-hidden="true" /> {t('certification.title')}
      </Typography.Title>
      <Typography.Paragraph
        data-testid="certification-statement"
        strong
        style={{ padding: 12, borderInlineStart: '4px solid #a0612a', background: 'rgba(160,97,42,.06)' }}
      >
        {t('certification.statement', { handler: company })}
      </Typography.Paragraph>
      <Form layout="vertical" component="div">
        <Row gutter={16}>
          <Col xs={24} md={title === undefined ? 24 : 12}>
            <Form.Item
              label={t('certification.name')}
              htmlFor={ids.name}
              validateStatus={missing ? 'error' : undefined}
              help={missing ? t('certification.nameRequired') : undefined}
            >
              <Input id={ids.name} value={name} autoComplete="name" onChange={(e) => onNameChange(e.target.value)} />
            </Form.Item>
          </Col>
          {title !== undefined ? (
            <Col xs={24} md={12}>
              <Form.Item label={t('certification.jobTitle')} htmlFor={ids.title}>
                <Input
                  id={ids.title}
                  value={title}
                  autoComplete="organization-title"
                  onChange={(e) => onTitleChange?.(e.target.value)}
                />
              </Form.Item>
            </Col>
          ) : null}
          {children}
        </Row>
      </Form>
      <Checkbox checked={attest} onChange={(e) => onAttestChange(e.target.checked)} style={{ marginBottom: 4 }}>
        {t('certification.attest')}
      </Checkbox>
      {!attest ? (
        <Typography.Paragraph type="secondary" style={{ marginBottom: 16 }}>
          {t('certification.attestRequired')}
        </Typography.Paragraph>
      ) : (
        <div style={{ height: 16 }} />
      )}
    </section>
  );
}
