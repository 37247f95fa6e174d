import { theme } from 'antd';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { changeLanguage } from '../lib/i18n/i18n';
import { LANGUAGES, languageInfo, type LanguageCode } from '../lib/i18n/languages';
import { NATIVE_OPTION_STYLE, NativeSelect } from './native-select';

/**
 * The language switcher: a native <select> (labelled, keyboard- and screen-reader-friendly, and light enough for
 * the sign-in page's first load), styled with the theme's tokens.
 */
export function LanguageSwitcher({
  style,
  colors,
}: {
  style?: React.CSSProperties;
  colors?: { text: string; border: string; bg: string };
}) {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const id = useId();
  const current = languageInfo(i18n.resolvedLanguage ?? i18n.language).code;
  const text = colors?.text ?? token.colorText;
  return (
    <span style={{ display: 'inline-flex', alignItems: 'center', ...style }}>
      <label
        htmlFor={id}
        style={{
          position: 'absolute',
          width: 1,
          height: 1,
          overflow: 'hidden',
          clip: 'rect(0 0 0 0)',
          whiteSpace: 'nowrap',
        }}
      >
        {t('app.languageLabel')}
      </label>
      <span aria-hidden="true" style={{ color: text, marginInlineEnd: 6, display: 'inline-flex' }}>
        <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8">
          <circle cx="12" cy="12" r="9.5" />
          <path d="M2.5 12h19M12 2.5c3 3.2 3 15.8 0 19M12 2.5c-3 3.2-3 15.8 0 19" />
        </svg>
      </span>
      <NativeSelect
        id={id}
        value={current}
        colors={colors}
        onChange={(e) => void changeLanguage(e.target.value as LanguageCode)}
      >
        {LANGUAGES.map((l) => (
          <option key={l.code} value={l.code} lang={l.htmlLang} style={NATIVE_OPTION_STYLE}>
            {l.nativeName}
          </option>
        ))}
      </NativeSelect>
    </span>
  );
}
