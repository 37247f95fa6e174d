import { useState } from 'react';

/**
 * The text of a filter box whose value lives in the address (?q=, ?handler=): what is typed shows at once, and when
 * the address changes by other means (Back or Forward, a menu link to the same page, a link to a filtered view) the
 * box shows the address's value again, so it never reads one search while the list shows another. `typing` says a
 * change typed is still on its way to the address (a debounced search): the box is then left as it is.
 */
export function useFilterText(
  value: string | undefined,
  typing: () => boolean = () => false,
): [string, (text: string) => void] {
  const [text, setText] = useState(value ?? '');
  const [seen, setSeen] = useState(value);
  // Adjusted while rendering, not in an effect, so the box never paints the old text (react.dev, "You Might Not Need
  // an Effect": adjusting some state when a prop changes).
  if (seen !== value) {
    setSeen(value);
    if (!typing() && (value ?? '') !== text.trim()) setText(value ?? '');
  }
  return [text, setText];
}
