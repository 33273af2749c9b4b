export * from './batch-operation-failed.error';
export * from './content-too-large.error';
export * from './refused-member.error';
export * from './row-width-exceeded.error';
export * from './too-many-streams.error';
