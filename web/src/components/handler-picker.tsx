import { Select, Spin, Typography } from 'antd';
import { useState } from 'react';
import { errorText } from './query-state';
import type { DirectoryHandler } from '../lib/portal/directory-api';
import { useFeatureTranslation } from '../lib/i18n/feature-namespaces';
import { str } from '../lib/portal/text';
import { useHandlerDirectory, useSearchText } from '../lib/portal/use-handler-directory';

interface HandlerOption {
  value: string;
  label: string;
}

interface HandlerPickerProps {
  id?: string;
  value: string | undefined;
  onChange: (id: string) => void;
  /** A handler never offered (the user's own company, which cannot transfer to itself). */
  exclude?: string | null;
  placeholder?: string;
  /** The accessible name, when no visible label names the picker (a row of a table). */
  ariaLabel?: string;
  /** What to show for a value the picker does not list (a handler no longer active). */
  valueLabel?: string;
}

const optionOf = (h: DirectoryHandler): HandlerOption => ({
  value: h.id,
  label: `${str(h.title)} (${str(h.field_handler_number)})`,
});

/**
 * An active handler, in the directory or not (a transfer may go to any), chosen by searching on the server: the first
 * page (50) by title when nothing is typed, then those matching what is typed; under a page with more, a note says how
 * many are listed (the own company left out). The directory page's paging and search (`useHandlerDirectory`), with
 * the picker's own query (name and number of every active handler). At the industry's size and beyond, the list is
 * never read whole into the browser.
 */
export function HandlerPicker({
  id,
  value,
  onChange,
  exclude,
  placeholder,
  ariaLabel,
  valueLabel,
}: HandlerPickerProps) {
  const { t } = useFeatureTranslation('directory');
  const { text, setText, searched } = useSearchText();
  // The chosen handler's name stays shown when a later search no longer lists it.
  const [chosen, setChosen] = useState<HandlerOption | null>(null);
  const { query, rows } = useHandlerDirectory(searched, 'picker');
  const listed = (rows ?? []).filter((h) => h.id !== exclude).map(optionOf);
  const shown = chosen && chosen.value === value ? chosen : value && valueLabel ? { value, label: valueLabel } : null;
  const options = shown && !listed.some((o) => o.value === shown.value) ? [shown, ...listed] : listed;
  const waiting = query.isFetching || text.trim() !== searched;
  // A failed search is said as an alert: in place of the list when nothing is listed, under it when something still
  // is (the chosen handler, or a search read before whose refresh failed).
  const failure = query.error ? errorText(query.error) : null;
  const note = (message: string, type: 'secondary' | 'danger') => (
    <Typography.Text
      type={type}
      role={type === 'danger' ? 'alert' : undefined}
      style={{ display: 'block', padding: '6px 12px', fontSize: 12 }}
    >
      {message}
    </Typography.Text>
  );
  return (
    <Select
      id={id}
      aria-label={ariaLabel}
      showSearch
      filterOption={false}
      searchValue={text}
      onSearch={setText}
      style={{ width: '100%' }}
      placeholder={placeholder}
      loading={waiting}
      options={options}
      value={value}
      onChange={(next: string) => {
        setChosen(options.find((o) => o.value === next) ?? null);
        setText('');
        onChange(next);
      }}
      notFoundContent={failure ? note(failure, 'danger') : waiting ? <Spin size="small" /> : t('noHandlerFound')}
      popupRender={(menu) => (
        <>
          {menu}
          {failure && options.length > 0 ? note(failure, 'danger') : null}
          {!failure && query.hasNextPage ? note(t('pickerMore', { count: listed.length }), 'secondary') : null}
        </>
      )}
    />
  );
}
