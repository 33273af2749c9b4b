export * from './invalid-credentials.error';
export * from './recent-sign-in-required.error';
export * from './sign-up-disabled.error';
export * from './too-many-login-attempts.error';
export * from './username-taken.error';
export * from './wrong-password.error';
