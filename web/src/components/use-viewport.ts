import { useEffect, useState } from 'react';

/** Spec breakpoints: above 1220 desktop, above 767 tablet, otherwise mobile. */
export type ViewportMode = 'desktop' | 'tablet' | 'mobile';

export function viewportMode(width: number): ViewportMode {
  if (width > 1220) return 'desktop';
  if (width > 767) return 'tablet';
  return 'mobile';
}

export function useViewport(): { width: number; mode: ViewportMode } {
  const [width, setWidth] = useState(() => window.innerWidth);
  useEffect(() => {
    let frame = 0;
    const onResize = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => setWidth(window.innerWidth));
    };
    window.addEventListener('resize', onResize);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('resize', onResize);
    };
  }, []);
  return { width, mode: viewportMode(width) };
}
