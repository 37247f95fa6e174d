export * from './forms/fields.js';
