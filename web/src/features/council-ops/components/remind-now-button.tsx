import { MailOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Popconfirm } from 'antd';
import { useFeatureTranslation } from '../../../lib/i18n/feature-namespaces';
import { formatDate } from '../../../lib/i18n/format';
import { ApiError } from '../../../lib/http/errors';
import { councilOpsKeys } from '../api/council-api';
import { remindNow, STAFF_HOME_KEY } from '../api/staff-home-api';

/**
 * "Send reminder now" on a board line of a handler whose forms of the month are not all certified: the reminder
 * e-mail to its users at once (the server refuses a second one within 15 minutes and says from when it can go).
 */
export function RemindNowButton({
  periodId,
  handlerNumber,
  handlerName,
  monthLabel,
}: {
  periodId: string;
  handlerNumber: string;
  handlerName: string;
  monthLabel: string;
}) {
  const { t, i18n } = useFeatureTranslation('staffHome');
  const { message } = App.useApp();
  const client = useQueryClient();
  const time = (iso: string) => formatDate(iso, i18n.language, { timeStyle: 'short' });
  const mutation = useMutation({
    mutationFn: () => remindNow(periodId, handlerNumber),
    onSuccess: (r) => {
      if (r.failed.length) message.warning(t('remind.partly', { sent: r.sent.length, failed: r.failed.length }));
      else
        message.success(
          t('remind.sent', { count: r.sent.length, handler: handlerNumber, time: time(r.next_allowed_at) }),
        );
      client.invalidateQueries({ queryKey: councilOpsKeys.reminders });
      client.invalidateQueries({ queryKey: STAFF_HOME_KEY });
    },
    onError: (e) => {
      const meta =
        e instanceof ApiError
          ? (e.errors[0] as { meta?: { code?: string; next_allowed_at?: string } } | undefined)?.meta
          : undefined;
      if (meta?.code === 'reminded_recently' && meta.next_allowed_at)
        message.warning(t('remind.tooSoon', { handler: handlerNumber, time: time(meta.next_allowed_at) }));
      else message.error(t('remind.failed', { error: e instanceof Error ? e.message : String(e) }));
    },
  });
  return (
    <Popconfirm
      title={t('remind.confirmTitle', { handler: `${handlerNumber} ${handlerName}` })}
      description={t('remind.confirmText', { month: monthLabel })}
      okText={t('remind.send')}
      cancelText={t('remind.cancel')}
      // The popup closes at once; the board's button shows the sending (a popup kept open while loading was left
      // in its loading state when opened again).
      onConfirm={() => mutation.mutate()}
    >
      <Button
        size="small"
        icon={<MailOutlined aria-hidden="true" />}
        loading={mutation.isPending}
        aria-label={t('remind.buttonOf', { handler: `${handlerNumber} ${handlerName}` })}
      >
        {t('remind.button')}
      </Button>
    </Popconfirm>
  );
}
