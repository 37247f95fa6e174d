import { Drawer } from 'antd';
import type { ReactNode } from 'react';

/** The main menu in a drawer on phones. Its own chunk: it is loaded when the menu is first opened. */
export default function MobileMenuDrawer({
  open,
  onClose,
  rtl,
  width,
  background,
  label,
  children,
}: {
  open: boolean;
  onClose: () => void;
  rtl: boolean;
  width: number;
  background: string;
  label: string;
  children: ReactNode;
}) {
  return (
    <Drawer
      open={open}
      onClose={onClose}
      placement={rtl ? 'right' : 'left'}
      width={width}
      closable={false}
      title={null}
      styles={{ body: { padding: 0, background } }}
      aria-label={label}
    >
      {children}
    </Drawer>
  );
}
