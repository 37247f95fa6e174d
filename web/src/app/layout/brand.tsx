export function PecanMark({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <ellipse cx="32" cy="34" rx="18" ry="26" fill="#a0612a" />
      <path d="M32 10v48" stroke="#f5e6d3" strokeWidth="3" />
      <path d="M22 22c4 4 4 20 0 26M42 22c-4 4-4 20 0 26" stroke="#f5e6d3" strokeWidth="2" fill="none" opacity=".7" />
    </svg>
  );
}
