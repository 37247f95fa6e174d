import { LogoutOutlined, QuestionCircleOutlined, UserOutlined } from '@ant-design/icons';
import { Dropdown } from 'antd';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';

/** The account menu of the top bar. Its own chunk: loaded on the first click on the account button. */
export default function UserMenu({
  open,
  onOpenChange,
  onPick,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onPick: (key: string) => void;
  children: ReactElement;
}) {
  const { t } = useTranslation();
  return (
    <Dropdown
      trigger={['click']}
      open={open}
      onOpenChange={onOpenChange}
      menu={{
        items: [
          { key: 'profile', icon: <UserOutlined aria-hidden="true" />, label: t('topbar.myProfile') },
          { key: 'help', icon: <QuestionCircleOutlined aria-hidden="true" />, label: t('topbar.help') },
          { type: 'divider' },
          { key: 'logout', icon: <LogoutOutlined aria-hidden="true" />, label: t('topbar.logout') },
        ],
        onClick: ({ key }) => {
          onOpenChange(false);
          onPick(key);
        },
      }}
    >
      {children}
    </Dropdown>
  );
}
