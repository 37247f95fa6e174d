import { TableOutlined } from '@ant-design/icons';
import { Button, Skeleton } from 'antd';
import { lazy, Suspense, useId, useState } from 'react';
import { useFeatureTranslation } from '../../../lib/i18n/feature-namespaces';
import { ChartTable } from './chart-table';
import type { ChartData } from './chart-types';

export type { Series } from './chart-types';

/** The chart library comes with the first chart, after the page's text and tables (docs/decisions/0017). */
const SeasonChart = lazy(() => import('./season-chart'));

/** A chart of one figure by month, its data table for screen readers, and a button that shows the table to all. */
export function LineChart(props: ChartData) {
  const { t } = useFeatureTranslation(['analytics']);
  const [shown, setShown] = useState(false);
  const tableId = useId();
  return (
    <figure style={{ margin: 0 }}>
      <Suspense fallback={<Skeleton.Node active style={{ width: '100%', height: 280 }} />}>
        <SeasonChart {...props} />
      </Suspense>
      <ChartTable data={props} id={tableId} shown={shown} />
      <Button
        type="link"
        size="small"
        icon={<TableOutlined />}
        aria-controls={tableId}
        onClick={() => setShown((s) => !s)}
        style={{ paddingInline: 0 }}
      >
        {shown ? t('analytics:hideTable') : t('analytics:showTable')}
      </Button>
    </figure>
  );
}
