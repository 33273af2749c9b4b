import { createTestDatabase, type TestDatabase } from './test-database';

declare global {
  var __layoutTestDatabase: TestDatabase | undefined;
}

/** One database per run; test files share it and keep apart by creating their own accounts. */
export default async function globalSetup() {
  const database = await createTestDatabase();
  globalThis.__layoutTestDatabase = database;
  // Workers start after this and inherit the environment.
  process.env.LAYOUT_TEST_DATABASE_URL = database.url;
}
