import { Typography } from 'antd';
import type { ReactNode } from 'react';

/** Pieces both halves of the council console (council-admin and council-ops) put on their pages. */

/** The page's title (the one h1), its actions at the side, and an optional line of introduction. */
export function PageHeading({ title, intro, actions }: { title: string; intro?: ReactNode; actions?: ReactNode }) {
  return (
    <div style={{ marginBottom: 16 }}>
      <div
        style={{ display: 'flex', flexWrap: 'wrap', gap: 12, alignItems: 'center', justifyContent: 'space-between' }}
      >
        <Typography.Title level={1} style={{ fontSize: 24, margin: 0 }}>
          {title}
        </Typography.Title>
        {actions}
      </div>
      {intro ? (
        <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
          {intro}
        </Typography.Paragraph>
      ) : null}
    </div>
  );
}

/** The text of a failed call, for a message. */
export const failureText = (error: unknown): string => (error instanceof Error ? error.message : String(error));
