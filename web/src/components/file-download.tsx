import { DownloadOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import type { Entity } from '../lib/jsonapi/deserialize';
import { useFeatureTranslation } from '../lib/i18n/feature-namespaces';

/** The signed link of a file--file (uri.url); a plain link downloads it. Nothing when there is no file. */
export function fileUrl(file: unknown): string | null {
  const uri = (file as Entity | null | undefined)?.uri as { url?: string } | undefined;
  return typeof uri?.url === 'string' ? uri.url : null;
}

export function FileDownload({
  file,
  label,
  text,
  kind = 'pdf',
  size = 'middle',
}: {
  file: unknown;
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
