import { DownloadOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useFeatureTranslation } from '../lib/i18n/feature-namespaces';
import { fileUrl, type ApiEntity } from '../lib/portal/entities';

/** A file--file's signed link as a download button (a plain link downloads it); nothing when there is no file. */
export function FileDownload({
  file,
  label,
  text,
  kind = 'pdf',
  size = 'middle',
}: {
  file: ApiEntity<'file--file'> | null | undefined;
  label: string;
  text?: string;
  kind?: 'pdf' | 'xlsx';
  size?: 'small' | 'middle';
}) {
  const { t } = useFeatureTranslation('portalData');
  const url = fileUrl(file);
  if (!url) return null;
  return (
    <Button
      size={size}
      icon={<DownloadOutlined />}
      href={url}
      target="_blank"
      rel="noopener"
      aria-label={t(kind === 'pdf' ? 'downloadPdfOf' : 'downloadXlsxOf', { name: label })}
    >
      {text ?? t(kind === 'pdf' ? 'downloadPdf' : 'downloadXlsx')}
    </Button>
  );
}
