// `npm run accounts:create -- <username>`: creates an account even when sign-up is switched
// off. The password is read from standard input, so it never shows in a process list or a
// shell history: `printf '%s' "$PASSWORD" | npm run accounts:create -- alice`. The username is
// checked and normalised exactly as at sign-up (SignUpDto, then AccountsService.createAccount:
// trimmed, NFKC, unique regardless of case), and printed as stored.
import { existsSync } from 'node:fs';
import { NestFactory } from '@nestjs/core';
import { validateBody, SignUpDto } from '@layout/contracts';
import { AccountsService } from '../accounts/accounts.service';
import { AppModule } from '../app.module';
import { ConfigError, loadConfig } from '../config/load-config';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

async function main() {
  if (existsSync('.env')) process.loadEnvFile('.env');
  const username = process.argv[2];
  if (!username)
    throw new Error('Usage: npm run accounts:create -- <username>  (password on stdin)');
  const password = await readStdin();
  const checked = await validateBody(SignUpDto, { username, password });
  if (checked.errors.length > 0) {
    throw new Error(checked.errors.map((e) => `${e.pointer.slice(1)} ${e.detail}`).join('; '));
  }

  const config = loadConfig();
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(config), {
    logger: ['error', 'warn'],
  });
  try {
    const account = await app.get(AccountsService).createAccount(username, password);
    console.log(`Created account ${account.username} (${account.id})`);
  } finally {
    await app.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError || error instanceof Error ? error.message : error);
  process.exit(1);
});
