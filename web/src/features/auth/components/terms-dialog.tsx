import { Button, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

const PARAGRAPHS = ['signUp.termsP1', 'signUp.termsP2', 'signUp.termsP3', 'signUp.termsP4'] as const;

/** The terms the sign-up checkbox agrees to, readable before agreeing: a link that opens them in a dialog. */
export function TermsLink() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button type="link" style={{ padding: 0, height: 'auto' }} onClick={() => setOpen(true)}>
        {t('signUp.termsRead')}
      </Button>
      <Modal
        open={open}
        title={t('signUp.termsTitle')}
        onCancel={() => setOpen(false)}
        footer={
          <Button type="primary" onClick={() => setOpen(false)}>
            {t('signUp.termsClose')}
          </Button>
        }
      >
        {PARAGRAPHS.map((key) => (
          <Typography.Paragraph key={key}>{t(key)}</Typography.Paragraph>
        ))}
      </Modal>
    </>
  );
}
