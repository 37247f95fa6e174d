import { CheckOutlined } from '@ant-design/icons';
import { Button, Drawer, Radio, Space, Switch, Typography } from 'antd';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { languageInfo } from '../../../lib/i18n/languages';
import { useThemeSettings } from '../../../lib/theme/theme-context';
import {
  BAR_COLORS,
  COLOR_THEME_IDS,
  LAYOUT_BACKGROUNDS,
  LAYOUT_THEME_IDS,
  type ColorThemeId,
} from '../../../lib/theme/themes';

function Swatches({
  labelId,
  value,
  onChange,
}: {
  labelId: string;
  value: ColorThemeId;
  onChange: (v: ColorThemeId) => void;
}) {
  const { t } = useTranslation();
  return (
    <div role="radiogroup" aria-labelledby={labelId} style={{ display: 'flex', flexWrap: 'wrap', gap: 8 }}>
      {COLOR_THEME_IDS.map((id) => {
        const c = BAR_COLORS[id];
        const selected = id === value;
        return (
          <button
            key={id}
            type="button"
            role="radio"
            aria-checked={selected}
            aria-label={t('settings.themeN', { n: id })}
            title={t('settings.themeN', { n: id })}
            onClick={() => onChange(id)}
            style={{
              width: 36,
              height: 36,
              borderRadius: 8,
              cursor: 'pointer',
              background: c.bg,
              color: c.text,
              border: selected ? '3px solid #0958d9' : '1px solid #8c8c8c',
              display: 'grid',
              placeItems: 'center',
            }}
          >
            {selected ? <CheckOutlined aria-hidden="true" /> : null}
          </button>
        );
      })}
    </div>
  );
}

export default function ThemeDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const { settings, update, reset } = useThemeSettings();
  // The drawer comes from the end side: the right in left-to-right languages, the left in Arabic.
  const rtl = languageInfo(i18n.resolvedLanguage ?? i18n.language).dir === 'rtl';
  const ids = { preset: useId(), dark: useId(), topbar: useId(), sidebar: useId(), layout: useId() };
  return (
    <Drawer open={open} onClose={onClose} title={t('settings.title')} width={380} placement={rtl ? 'left' : 'right'}>
      <Space direction="vertical" size={24} style={{ width: '100%' }}>
        <section>
          <Typography.Title level={2} id={ids.preset} style={{ fontSize: 15 }}>
            {t('settings.preset')}
          </Typography.Title>
          <Radio.Group
            aria-labelledby={ids.preset}
            value={settings.preset}
            onChange={(e) => update({ preset: e.target.value })}
            options={[
              { value: 'default', label: t('settings.presetDefault') },
              { value: 'custom', label: t('settings.presetCustom') },
            ]}
          />
        </section>
        <section style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between' }}>
          <label htmlFor={ids.dark} style={{ fontWeight: 600 }}>
            {t('settings.dark')}
          </label>
          <Switch id={ids.dark} checked={settings.dark} onChange={(dark) => update({ dark })} />
        </section>
        <section>
          <Typography.Title level={2} id={ids.topbar} style={{ fontSize: 15 }}>
            {t('settings.topbar')}
          </Typography.Title>
          <Swatches labelId={ids.topbar} value={settings.topbar} onChange={(topbar) => update({ topbar })} />
        </section>
        <section>
          <Typography.Title level={2} id={ids.sidebar} style={{ fontSize: 15 }}>
            {t('settings.sidebar')}
          </Typography.Title>
          <Swatches labelId={ids.sidebar} value={settings.sidebar} onChange={(sidebar) => update({ sidebar })} />
        </section>
        <section>
          <Typography.Title level={2} id={ids.layout} style={{ fontSize: 15 }}>
            {t('settings.layout')}
          </Typography.Title>
          <Radio.Group
            aria-labelledby={ids.layout}
            value={settings.layout}
            onChange={(e) => update({ layout: e.target.value })}
            optionType="button"
            options={LAYOUT_THEME_IDS.map((n) => ({
              value: n,
              label: (
                <span style={{ display: 'inline-flex', alignItems: 'center', gap: 6 }}>
                  <span
                    aria-hidden="true"
                    style={{
                      width: 12,
                      height: 12,
                      borderRadius: 3,
                      border: '1px solid #8c8c8c',
                      background: LAYOUT_BACKGROUNDS[n].light,
                    }}
                  />
                  {t('settings.layoutN', { n })}
                </span>
              ),
            }))}
          />
        </section>
        <Button onClick={reset}>{t('settings.reset')}</Button>
      </Space>
    </Drawer>
  );
}
