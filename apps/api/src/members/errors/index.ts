export * from './member-errors';
