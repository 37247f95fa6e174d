import { FileExcelOutlined, InboxOutlined, UploadOutlined } from '@ant-design/icons';
import { Alert, App, Button, Modal, Space, Table, Typography, Upload } from 'antd';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { useViewport } from '../../../components/use-viewport';
import type { MonthlyBundle, MonthlyForm } from '../../../lib/portal/packages';
import { queryKeys } from '../../../lib/query-keys';
import {
  applyImport,
  downloadTemplate,
  importProblems,
  previewImport,
  type ImportCellError,
  type ImportFigure,
  type ImportPreview,
  type ImportProblem,
} from '../api/import-api';
import { formKeys } from '../api/forms-api';

/**
 * "Import from spreadsheet" on a draft form's page: download the template (.xlsx or .csv), upload it filled in,
 * see each bad cell by row and column, or the file's figures and totals beside the draft's; Apply saves the draft
 * (it never certifies), Cancel changes nothing. The server checks the file again on Apply.
 */
export function SpreadsheetImport({ bundle, form }: { bundle: MonthlyBundle; form: MonthlyForm }) {
  const { t } = useTranslation('filing');
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button icon={<FileExcelOutlined />} onClick={() => setOpen(true)}>
        {t('import.open')}
      </Button>
      {open ? <ImportDialog bundle={bundle} form={form} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function ImportDialog({ bundle, form, onClose }: { bundle: MonthlyBundle; form: MonthlyForm; onClose: () => void }) {
  const { t } = useTranslation('filing');
  const { message } = App.useApp();
  const client = useQueryClient();
  const { mode } = useViewport();
  const [file, setFile] = useState<File | null>(null);
  const [downloading, setDownloading] = useState<string | null>(null);
  const preview = useMutation({ mutationFn: (f: File) => previewImport(bundle, form.id, f) });
  const apply = useMutation({
    mutationFn: () => applyImport(bundle, form.id, file!, preview.data!.changed),
    // Saved: the dialog closes at once and the page reloads the draft behind it.
    onSuccess: () => {
      onClose();
      message.success(t('import.applied'));
      void client.invalidateQueries({ queryKey: formKeys.one(bundle, form.id) });
      void client.invalidateQueries({ queryKey: queryKeys.packages });
    },
  });
  const data = preview.data;
  const refused = importProblems(preview.error ?? apply.error);
  const canApply = !!data && data.valid && !data.blocked && !preview.isPending;

  const download = async (extension: 'xlsx' | 'csv') => {
    setDownloading(extension);
    try {
      await downloadTemplate(bundle, form.id, extension);
    } catch {
      message.error(t('import.downloadFailed'));
    } finally {
      setDownloading(null);
    }
  };

  return (
    <Modal
      open
      width={mode === 'mobile' ? '100%' : 960}
      style={mode === 'mobile' ? { top: 8, maxWidth: '100vw', paddingInline: 4 } : undefined}
      title={t('import.title')}
      onCancel={onClose}
      footer={[
        <Button key="cancel" onClick={onClose}>
          {t('common.cancel')}
        </Button>,
        <Button
          key="apply"
          type="primary"
          disabled={!canApply}
          loading={apply.isPending}
          onClick={() => apply.mutate()}
        >
          {t('import.apply')}
        </Button>,
      ]}
    >
      <Typography.Paragraph>{t('import.intro')}</Typography.Paragraph>
      <Space wrap style={{ marginBottom: 16 }}>
        <Button icon={<FileExcelOutlined />} loading={downloading === 'xlsx'} onClick={() => download('xlsx')}>
          {t('import.templateXlsx')}
        </Button>
        <Button icon={<FileExcelOutlined />} loading={downloading === 'csv'} onClick={() => download('csv')}>
          {t('import.templateCsv')}
        </Button>
      </Space>
      <Upload.Dragger
        accept=".xlsx,.csv"
        multiple={false}
        showUploadList={false}
        beforeUpload={(f) => {
          setFile(f);
          apply.reset();
          preview.mutate(f);
          return false;
        }}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">{file ? t('import.chosen', { name: file.name }) : t('import.drop')}</p>
        <p className="ant-upload-hint">
          <UploadOutlined /> {t('import.hint')}
        </p>
      </Upload.Dragger>
      <div aria-live="polite" style={{ marginTop: 16 }}>
        {preview.isPending ? <Typography.Text>{t('import.checking')}</Typography.Text> : null}
        {refused.problems.map((p, i) => (
          <Alert
            key={i}
            type="error"
            showIcon
            role="alert"
            style={{ marginBottom: 12 }}
            message={t('import.refused')}
            description={problemText(t, p)}
          />
        ))}
        {data && !data.valid ? <CellErrors errors={data.errors} /> : null}
        {refused.cells.length > 0 ? <CellErrors errors={refused.cells} /> : null}
        {data?.blocked ? (
          <Alert
            type="warning"
            showIcon
            role="alert"
            style={{ marginBottom: 12 }}
            message={t(`import.blocked.${data.blocked.code}`, { defaultValue: data.blocked.detail })}
          />
        ) : null}
        {data && data.valid ? <PreviewTables preview={data} /> : null}
      </div>
    </Modal>
  );
}

function problemText(t: TFunction, p: ImportProblem): string {
  return t(`import.problems.${p.code}`, { ...p.params, defaultValue: p.detail });
}

/** A field's label; form 1's list columns are the variety table's own. */
const fieldName = (t: TFunction, field: string) =>
  field === 'pounds' || field === 'variety' ? t(`forms.${field}`) : t(`fields.${field}`, { defaultValue: field });

/** What a cell's code says in the user's language; the server's English message when the code is not known here. */
export function cellErrorText(t: TFunction, e: ImportCellError): string {
  return t(`import.cells.${e.code}`, { ...e.params, defaultValue: e.detail });
}

function CellErrors({ errors }: { errors: ImportCellError[] }) {
  const { t } = useTranslation('filing');
  return (
    <div data-testid="import-errors">
      <Alert
        type="error"
        showIcon
        role="alert"
        style={{ marginBottom: 12 }}
        message={t('import.errorsTitle', { count: errors.length })}
        description={t('import.errorsText')}
      />
      <Table
        size="small"
        pagination={false}
        rowKey={(e) => `${e.row}-${e.column}-${e.code}`}
        dataSource={errors}
        scroll={{ x: true }}
        columns={[
          { title: t('import.row'), dataIndex: 'row', width: 70 },
          { title: t('import.column'), dataIndex: 'column', width: 80 },
          { title: t('import.field'), dataIndex: 'field', render: (f: string) => fieldName(t, f) },
          {
            title: t('import.problem'),
            key: 'message',
            render: (_: unknown, e: ImportCellError) => cellErrorText(t, e),
          },
        ]}
      />
    </div>
  );
}

function shown(t: TFunction, figure: Pick<ImportFigure, 'kind'>, value: unknown): string {
  if (value === null || value === undefined || value === '') return '–';
  if (figure.kind === 'bool') return value ? t('import.yes') : t('import.no');
  if (typeof value === 'number') return value.toLocaleString();
  return String(value);
}

function PreviewTables({ preview }: { preview: ImportPreview }) {
  const { t } = useTranslation('filing');
  const figureColumns = [
    { title: t('import.field'), dataIndex: 'field', render: (f: string) => fieldName(t, f) },
    {
      title: t('import.inFile'),
      key: 'imported',
      align: 'end' as const,
      render: (_: unknown, f: ImportFigure) => <strong>{shown(t, f, f.imported)}</strong>,
    },
    {
      title: t('import.inDraft'),
      key: 'current',
      align: 'end' as const,
      render: (_: unknown, f: ImportFigure) => shown(t, f, f.current),
    },
  ];
  const listColumns = preview.list.columns.map((c) => ({
    title: fieldName(t, c),
    dataIndex: c,
    render: (v: unknown) => shown(t, { kind: typeof v === 'number' ? 'pounds' : 'text' }, v),
  }));
  return (
    <div data-testid="import-preview">
      <Alert
        type="success"
        showIcon
        style={{ marginBottom: 12 }}
        message={t('import.validTitle')}
        description={t('import.validText')}
      />
      <Typography.Title level={3} style={{ fontSize: 16 }}>
        {t('import.totals')}
      </Typography.Title>
      <Table
        size="small"
        pagination={false}
        rowKey="field"
        dataSource={preview.totals}
        columns={figureColumns}
        scroll={{ x: true }}
        data-testid="import-totals"
      />
      <Typography.Title level={3} style={{ fontSize: 16, marginTop: 16 }}>
        {t('import.figures')}
      </Typography.Title>
      <Table
        size="small"
        pagination={false}
        rowKey="field"
        dataSource={preview.fields}
        columns={figureColumns}
        scroll={{ x: true }}
      />
      <Typography.Title level={3} style={{ fontSize: 16, marginTop: 16 }}>
        {t('import.listTitle', { file: preview.list.imported.length, draft: preview.list.current.length })}
      </Typography.Title>
      <Table
        size="small"
        pagination={false}
        rowKey={(_, i) => String(i)}
        dataSource={preview.list.imported}
        columns={listColumns}
        scroll={{ x: true }}
        locale={{ emptyText: t('import.noRows') }}
      />
    </div>
  );
}
