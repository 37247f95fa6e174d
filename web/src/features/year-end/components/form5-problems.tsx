import { Alert } from 'antd';
import { useFeatureTranslation } from '../../../lib/i18n/feature-namespaces';
import type { certificationProblems } from './form5-fields';

/**
 * What must be fixed before a year-end form can be certified, one line a field (edit page: info; certification:
 * warning).
 */
export function Form5Problems({
  problems,
  type,
}: {
  problems: ReturnType<typeof certificationProblems>;
  type: 'info' | 'warning';
}) {
  const { t } = useFeatureTranslation('yearEnd');
  if (problems.length === 0) return null;
  const fieldName = (field: string) => t(`yearEnd:fields.${field.replace(/^field_/, '')}`);
  // A field left empty is named by its label; the August question asks to be answered; a rule says what is wrong.
  const problemText = (p: (typeof problems)[number]) => {
    const required = p.message.endsWith(' is required');
    if (required && p.field === 'field_aug_form_1_amend_reqd') return t('yearEnd:rules.augustUnanswered');
    if (required) return t('yearEnd:rules.required', { field: fieldName(p.field) });
    return (
      t(`yearEnd:rules.${p.field}`, { defaultValue: '', field: fieldName(p.field) }) ||
      t('yearEnd:rules.required', { field: fieldName(p.field) })
    );
  };
  return (
    <Alert
      type={type}
      showIcon
      style={{ marginBottom: 16 }}
      message={t('yearEnd:beforeCertifying')}
      description={
        <ul style={{ margin: 0, paddingInlineStart: 18 }}>
          {problems.map((p) => (
            <li key={p.field}>{problemText(p)}</li>
          ))}
        </ul>
      }
    />
  );
}
