// The lint tools, imported by the root eslint.config.js through this module so that they resolve from here.
// typescript-eslint 8 refuses TypeScript 7 (the Go compiler the workspaces build with, which has no JavaScript API),
// so this workspace installs TypeScript 6's API under the name `typescript` (`@typescript/typescript6`) and npm
// keeps typescript-eslint beside it in tools/lint/node_modules: decision 0011.
export { default as js } from '@eslint/js';
export { default as tseslint } from 'typescript-eslint';
export { default as importX } from 'eslint-plugin-import-x';
export { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
export { default as reactHooks } from 'eslint-plugin-react-hooks';
export { default as globals } from 'globals';
export { default as stylistic } from '@stylistic/eslint-plugin';
