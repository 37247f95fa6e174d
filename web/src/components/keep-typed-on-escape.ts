import type { KeyboardEvent } from 'react';

/**
 * For antd's AutoComplete: its input is an `<input type="search">`, which the browser empties on Escape, so closing
 * the suggestions threw away what the user typed. Preventing the key's default keeps the text; the list still closes
 * (antd closes it in its own handler of the same key).
 */
export function keepTypedOnEscape(event: KeyboardEvent): void {
  if (event.key === 'Escape') event.preventDefault();
}
