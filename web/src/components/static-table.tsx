import { ConfigProvider } from 'antd';
import useCSSVarCls from 'antd/es/config-provider/hooks/useCSSVarCls';
import useTableStyle from 'antd/es/table/style';
import { useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';

export interface StaticColumn<T> {
  key: string;
  title: ReactNode;
  render: (row: T) => ReactNode;
}

/**
 * A read-only table that looks exactly like antd's `<Table size="middle" pagination={false} scroll={{ x }}>`: it
 * renders the same markup with antd's own table styles. antd's Table always brings its sorting, filtering (a tree),
 * selection (checkboxes, radios), pagination (with a select and an input) and a spinner, about 70 KB gzip that
 * the dashboard, which shows a plain grid of statuses, paid for on every first load. Use antd's Table where any of
 * those is needed.
 */
export function StaticTable<T>({
  columns,
  rows,
  rowKey,
  scrollX,
  label,
}: {
  columns: StaticColumn<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  scrollX?: number;
  label?: string;
}) {
  const { getPrefixCls, direction } = useContext(ConfigProvider.ConfigContext);
  const prefix = getPrefixCls('table');
  const rootCls = useCSSVarCls(prefix);
  const [wrapCSSVar, hashId, cssVarCls] = useTableStyle(prefix, rootCls);
  const rtl = direction === 'rtl';
  const ping = usePing(rtl);
  const cls = (...names: (string | false)[]) => names.filter(Boolean).join(' ');
  return wrapCSSVar(
    <div className={cls(cssVarCls, rootCls, `${prefix}-wrapper`, rtl && `${prefix}-wrapper-rtl`, hashId)}>
      <div
        className={cls(
          prefix,
          rtl && `${prefix}-rtl`,
          `${prefix}-middle`,
          cssVarCls,
          rootCls,
          hashId,
          scrollX !== undefined && `${prefix}-scroll-horizontal`,
          ping.left && `${prefix}-ping-left`,
          ping.right && `${prefix}-ping-right`,
        )}
      >
        <div className={`${prefix}-container`}>
          <div
            ref={ping.ref}
            onScroll={ping.update}
            className={`${prefix}-content`}
            style={scrollX !== undefined ? { overflowX: 'auto', overflowY: 'hidden' } : undefined}
          >
            <table aria-label={label} style={{ width: scrollX, minWidth: '100%', tableLayout: 'auto' }}>
              <thead className={`${prefix}-thead`}>
                <tr>
                  {columns.map((c) => (
                    <th key={c.key} className={`${prefix}-cell`} scope="col">
                      {c.title}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className={`${prefix}-tbody`}>
                {rows.map((row) => (
                  <tr key={rowKey(row)} className={`${prefix}-row ${prefix}-row-level-0`} data-row-key={rowKey(row)}>
                    {columns.map((c) => (
                      <td key={c.key} className={`${prefix}-cell`}>
                        {c.render(row)}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      </div>
    </div>,
  );
}

/** antd's "ping" classes: a shadow on the side where a narrow screen hides columns (as rc-table computes them). */
function usePing(rtl: boolean) {
  const ref = useRef<HTMLDivElement>(null);
  const [state, setState] = useState({ left: false, right: false });
  const update = useCallback(() => {
    const el = ref.current;
    if (!el) return;
    const room = el.scrollWidth - el.clientWidth;
    const x = el.scrollLeft;
    const next =
      room <= 0
        ? { left: false, right: false }
        : rtl
          ? { left: -x < room, right: -x > 0 }
          : { left: x > 0, right: x < room };
    setState((prev) => (prev.left === next.left && prev.right === next.right ? prev : next));
  }, [rtl]);
  useEffect(() => {
    const el = ref.current;
    if (!el) return undefined;
    // No first measure here: read in this effect, scrollWidth forced the browser to lay out the whole new page at
    // once (17 ms of the dashboard's first render on a desktop). A ResizeObserver reports an element's size once
    // it is laid out anyway, and that first report measures it.
    const observer = new ResizeObserver(update);
    observer.observe(el);
    return () => observer.disconnect();
  }, [update]);
  return { ref, update, ...state };
}
