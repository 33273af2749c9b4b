export default async function globalTeardown() {
  await globalThis.__layoutTestDatabase?.drop();
}
