import { Checkbox, Input } from 'antd';
import { useId } from 'react';
import { useFeatureTranslation } from '../../../lib/i18n/feature-namespaces';

export interface Signature {
  name: string;
  title: string;
  attest: boolean;
}

/** Name and title given, and the statement confirmed: what both parties of a form 4 sign with. */
export const signatureReady = (s: Signature) => s.name.trim() !== '' && s.title.trim() !== '' && s.attest;

const labelStyle = { display: 'block', margin: '12px 0 4px', fontWeight: 500 } as const;

/**
 * The signature of a transfer agreement: the signer's name and title and the certification statement to confirm. The
 * transferring handler files with it and the receiving handler countersigns with it, in the same words.
 */
export function CertifyFields({ value, onChange }: { value: Signature; onChange: (next: Signature) => void }) {
  const { t } = useFeatureTranslation('transfers');
  const ids = { name: useId(), title: useId() };
  return (
    <>
      <label htmlFor={ids.name} style={labelStyle}>
        {t('transfers:yourName')}
      </label>
      <Input
        id={ids.name}
        value={value.name}
        onChange={(e) => onChange({ ...value, name: e.target.value })}
        autoComplete="name"
      />
      <label htmlFor={ids.title} style={labelStyle}>
        {t('transfers:yourTitle')}
      </label>
      <Input
        id={ids.title}
        value={value.title}
        onChange={(e) => onChange({ ...value, title: e.target.value })}
        autoComplete="organization-title"
      />
      <Checkbox
        checked={value.attest}
        onChange={(e) => onChange({ ...value, attest: e.target.checked })}
        style={{ marginTop: 16 }}
      >
        {t('transfers:attest')}
      </Checkbox>
    </>
  );
}
