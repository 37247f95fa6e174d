import { Alert, Button, Skeleton } from 'antd';
import { Link } from 'react-router';
import { useFeatureTranslation } from '../../../lib/i18n/feature-namespaces';
import { attr } from '../../../lib/portal/entities';
import { currentVersionOf, periodMonthOf, useSeasonPackages } from '../../../lib/portal/packages';
import { useSession } from '../../../lib/session/use-session';

/**
 * Form 5 answered "the August form 1 must be amended": where that amendment is made. The season's August form 1 is
 * found in its forms package; certified, the button opens it with its amendment started; a draft (or a draft
 * amendment) is finished first; none yet is filed first.
 */
export function AugustAmendNotice({ seasonId }: { seasonId: string | null }) {
  const { t } = useFeatureTranslation(['yearEnd']);
  const { profile } = useSession();
  const packages = useSeasonPackages(profile.handlerUid ?? null, seasonId);
  if (packages.isPending && seasonId) return <Skeleton active paragraph={{ rows: 1 }} />;
  const august = (packages.data ?? []).find((pkg) => periodMonthOf(pkg)?.endsWith('-08'));
  const form = august ? currentVersionOf(august, 1) : null;
  const status = attr(form, 'field_form_status');
  const base = form ? `/dashboard/forms/apc_form_1/${form.id}` : '/dashboard/forms';
  const [text, to, action] =
    status === 'certified'
      ? [t('yearEnd:aug.amendText'), `${base}?amend=1`, t('yearEnd:aug.amendAction')]
      : form
        ? [t('yearEnd:aug.draftText'), base, t('yearEnd:aug.openAugust')]
        : [t('yearEnd:aug.missingText'), base, t('yearEnd:aug.openPackages')];
  return (
    <Alert
      type="info"
      showIcon
      data-testid="august-amend"
      style={{ marginTop: 8 }}
      message={t('yearEnd:aug.amendTitle')}
      description={
        <>
          <p style={{ marginTop: 0 }}>{text}</p>
          <Link to={to}>
            <Button type="primary">{action}</Button>
          </Link>
        </>
      }
    />
  );
}
